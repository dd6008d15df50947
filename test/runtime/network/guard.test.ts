import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkAddress, embeddedIPv4, hostAllowed, ipv6Bytes, pinnedLookup, resolveAndCheck } from '../../../src/runtime/network/guard.js';

describe('checkAddress', () => {
  const refused = [
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '0.1.2.3',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.5',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::127.0.0.1',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::',
    '2002:c0a8:0101::1',
    '::127.0.0.1',
    '2001:db8::1',
    '2001::1',
    'fe80::1%eth0',
    '100::1',
  ];
  it.each(refused)('refuses %s', (ip) => {
    const verdict = checkAddress(ip);
    expect(verdict.ok, verdict.reason).toBe(false);
  });

  const public_ = [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  it.each(public_)('allows %s', (ip) => {
    expect(checkAddress(ip).ok).toBe(true);
  });

  it('refuses strings that are not IP literals', () => {
    expect(checkAddress('localhost').ok).toBe(false);
    expect(checkAddress('0x7f.1').ok).toBe(false);
  });

  it('treats an IPv4-mapped IPv6 address exactly like the IPv4 address (property)', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(checkAddress(`::ffff:${ip}`).ok).toBe(checkAddress(ip).ok);
        expect(checkAddress(`64:ff9b::${ip}`).ok).toBe(checkAddress(ip).ok);
      }),
    );
  });

  it('parses IPv6 forms to bytes consistently with the URL parser (property)', () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
        expect(Array.from(ipv6Bytes(ip) ?? [])).toEqual(Array.from(ipv6Bytes(canonical) ?? []));
      }),
    );
    expect(embeddedIPv4('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(embeddedIPv4('2606:4700::1')).toBeUndefined();
  });
});

describe('resolveAndCheck', () => {
  it('refuses non-http schemes, credentials and bad URLs with a reason', async () => {
    expect(await resolveAndCheck('file:///etc/passwd')).toMatchObject({ ok: false });
    expect(await resolveAndCheck('ftp://example.com/')).toMatchObject({ ok: false });
    expect(await resolveAndCheck('http://u:p@example.com/')).toMatchObject({ ok: false });
    expect(await resolveAndCheck('not a url')).toMatchObject({ ok: false });
  });

  it('normalizes numeric hosts before checking (2130706433 is 127.0.0.1)', async () => {
    expect(await resolveAndCheck('http://2130706433/')).toMatchObject({ ok: false });
    expect(await resolveAndCheck('http://0x7f.1/')).toMatchObject({ ok: false });
    expect(await resolveAndCheck('http://[::ffff:127.0.0.1]/')).toMatchObject({ ok: false });
  });

  it('refuses a host when any answer is private, and allows listed hosts', async () => {
    const resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    expect(await resolveAndCheck('https://mixed.test/', { resolver })).toMatchObject({ ok: false });
    const pub = async () => [{ address: '93.184.216.34', family: 4 }];
    expect(await resolveAndCheck('https://pub.test/', { resolver: pub })).toEqual({ ok: true, address: '93.184.216.34', family: 4 });
    expect(await resolveAndCheck('http://127.0.0.1:9/', { allowedHosts: ['127.0.0.1'] })).toEqual({
      ok: true,
      address: '127.0.0.1',
      family: 4,
    });
  });

  it('matches allow-list patterns by whole labels', () => {
    expect(hostAllowed('api.example.com', ['*.example.com'])).toBe(true);
    expect(hostAllowed('example.com', ['*.example.com'])).toBe(true);
    expect(hostAllowed('evilexample.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('EXAMPLE.com.', ['example.com'])).toBe(true);
    expect(hostAllowed('::1', ['[::1]'])).toBe(true);
  });
});

describe('pinnedLookup', () => {
  it('connects to the pinned address whatever the host name says', async () => {
    const server = http.createServer((_req, res) => res.end('pinned'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const body = await new Promise<string>((resolve, reject) => {
        http
          .get({ host: 'does-not-exist.invalid', port, path: '/', lookup: pinnedLookup('127.0.0.1', 4) }, (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      expect(body).toBe('pinned');
    } finally {
      server.close();
    }
  });
});
