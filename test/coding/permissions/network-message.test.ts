// The network guard's refusal reads as one true sentence: what the address is, and that permission
// rules cannot open it (only a caller's allowedHosts can, which skips the check altogether).
import { describe, expect, it } from 'vitest';
import { checkAddress, resolveAndCheck } from '../../../src/runtime/network/guard.js';

const answers = (address: string, family: number) => async () => [{ address, family }];

describe('network guard messages', () => {
  it('an address literal is named once, with what it is', async () => {
    expect(await resolveAndCheck('http://127.0.0.1:8080/')).toEqual({
      ok: false,
      reason: '127.0.0.1 is loopback (127/8); private and internal addresses are refused whatever the permission rules say',
    });
    expect((await resolveAndCheck('http://[::1]/')).ok).toBe(false);
    expect(await resolveAndCheck('http://[::ffff:127.0.0.1]/')).toMatchObject({
      reason: expect.stringMatching(/^::ffff:7f00:1 embeds 127\.0\.0\.1, which is loopback \(127\/8\); /),
    });
  });
  it('a host name says what it resolves to', async () => {
    expect(await resolveAndCheck('http://localhost/', { resolver: answers('127.0.0.1', 4) })).toMatchObject({
      reason:
        'localhost resolves to 127.0.0.1, which is loopback (127/8); private and internal addresses are refused whatever the permission rules say',
    });
    expect(await resolveAndCheck('http://meta.test/', { resolver: answers('169.254.169.254', 4) })).toMatchObject({
      reason: expect.stringMatching(/^meta\.test resolves to 169\.254\.169\.254, which is link-local/),
    });
  });
  it('never promises a settings allow-list (WebFetch has none in settings)', async () => {
    const { ok, ...rest } = await resolveAndCheck('http://10.0.0.1/');
    expect(ok).toBe(false);
    expect(JSON.stringify(rest)).not.toMatch(/allow-list|settings/);
  });
  it('an allowed host skips the check; checkAddress keeps its wording', async () => {
    expect(await resolveAndCheck('http://127.0.0.1:9/', { allowedHosts: ['127.0.0.1'] })).toMatchObject({ ok: true });
    expect(checkAddress('10.1.2.3')).toEqual({ ok: false, reason: '10.1.2.3 is private (10/8, RFC 1918)' });
    expect(checkAddress('::ffff:10.1.2.3')).toEqual({
      ok: false,
      reason: '::ffff:10.1.2.3 embeds 10.1.2.3, which is private (10/8, RFC 1918)',
    });
    expect(checkAddress('8.8.8.8')).toEqual({ ok: true, reason: 'public IPv4 address' });
    expect(checkAddress('::ffff:8.8.8.8')).toEqual({ ok: true, reason: 'public IPv4 8.8.8.8 embedded in ::ffff:8.8.8.8' });
    expect(checkAddress('2606:4700::1')).toEqual({ ok: true, reason: 'public IPv6 address' });
    expect(checkAddress('nope')).toEqual({ ok: false, reason: '"nope" is not an IP address' });
  });
});
