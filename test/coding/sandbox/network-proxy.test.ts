import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import http from 'node:http';
import net from 'node:net';
import { frameCodec } from '../../../src/coding/sandbox/frames.js';
import { parseProxyRequest } from '../../../src/coding/sandbox/proxy-request.js';
import { serveBridge, type BridgeOptions } from '../../../src/coding/sandbox/network-proxy.js';

const codec = frameCodec();

describe('bridge frames', () => {
  const frame = fc.record({ type: fc.integer({ min: 1, max: 3 }), id: fc.nat(), payload: fc.uint8Array({ maxLength: 3000 }) });

  it('decode what was encoded, however the stream is cut into chunks', () => {
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 20 }), fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1 }), (frames, cuts) => {
        const wire = Buffer.concat(frames.map((f) => codec.encode(f.type, f.id, Buffer.from(f.payload))));
        const seen: { type: number; id: number; payload: number[] }[] = [];
        const feed = codec.decoder((type, id, payload) => seen.push({ type, id, payload: [...payload] }));
        for (let at = 0, i = 0; at < wire.length; i++) {
          const size = cuts[i % cuts.length];
          expect(feed(wire.subarray(at, at + size))).toBe(true);
          at += size;
        }
        expect(seen).toEqual(frames.map((f) => ({ type: f.type, id: f.id, payload: [...f.payload] })));
      }),
    );
  });

  it('a corrupt stream (unknown type, oversized frame) is reported, never thrown, and stays closed', () => {
    const seen: number[] = [];
    const feed = codec.decoder((type) => seen.push(type));
    expect(feed(codec.encode(codec.OPEN, 1))).toBe(true);
    expect(feed(Buffer.from([9, 0, 0, 0, 1, 0, 0, 0, 0]))).toBe(false);
    expect(feed(codec.encode(codec.OPEN, 2))).toBe(false);
    expect(seen).toEqual([codec.OPEN]);
    const big = Buffer.alloc(9);
    big.writeUInt8(codec.DATA, 0);
    big.writeUInt32BE(codec.MAX_PAYLOAD + 1, 5);
    expect(codec.decoder(() => undefined)(big)).toBe(false);
    fc.assert(fc.property(fc.uint8Array({ maxLength: 500 }), (bytes) => void codec.decoder(() => undefined)(Buffer.from(bytes))));
  });
});

describe('proxy request heads', () => {
  it('reads CONNECT targets, names and IPv6 literals', () => {
    expect(parseProxyRequest('CONNECT Registry.NPMjs.org:443 HTTP/1.1\r\nHost: x\r\n\r\n')).toEqual({
      ok: true,
      target: { kind: 'connect', host: 'registry.npmjs.org', port: 443 },
    });
    expect(parseProxyRequest('CONNECT [::1]:8080 HTTP/1.1\r\n\r\n')).toEqual({
      ok: true,
      target: { kind: 'connect', host: '::1', port: 8080 },
    });
    for (const bad of [
      'CONNECT host HTTP/1.1\r\n\r\n',
      'CONNECT host:0 HTTP/1.1\r\n\r\n',
      'CONNECT host:70000 HTTP/1.1\r\n\r\n',
      'CONNECT a b:1 HTTP/1.1\r\n\r\n',
    ]) {
      expect(parseProxyRequest(bad)).toMatchObject({ ok: false, reason: expect.stringMatching(/host:port|HTTP\/1\.x/) });
    }
  });

  it('rewrites an absolute-form request for the origin: path only, Host from the URL, no proxy headers', () => {
    const parsed = parseProxyRequest(
      'GET http://example.com:8080/a/b?q=1 HTTP/1.1\r\nHost: evil.test\r\nProxy-Connection: keep-alive\r\nProxy-Authorization: Basic x\r\nAccept: */*\r\n\r\n',
    );
    expect(parsed).toEqual({
      ok: true,
      target: {
        kind: 'forward',
        host: 'example.com',
        port: 8080,
        forwardHead: 'GET /a/b?q=1 HTTP/1.1\r\nHost: example.com:8080\r\nAccept: */*\r\n\r\n',
      },
    });
  });

  it('refuses what is not a proxy request, with the reason, and never throws', () => {
    expect(parseProxyRequest('GET /relative HTTP/1.1\r\n\r\n')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('absolute URL'),
    });
    expect(parseProxyRequest('GET https://example.com/ HTTP/1.1\r\n\r\n')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('use CONNECT'),
    });
    expect(parseProxyRequest('\u0016\u0003\u0001 binary')).toMatchObject({ ok: false });
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => void parseProxyRequest(text)));
  });
});

// ------------------------------------------------------------------ the proxy over a real socket

const closers: (() => void)[] = [];
afterAll(() => {
  for (const close of closers) close();
});

function listen(server: net.Server | http.Server): Promise<number> {
  closers.push(() => server.close());
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

/** A test bridge: frames to and from serveBridge over a real TCP connection. */
async function bridge(options: BridgeOptions) {
  const host = net.createServer((socket) => serveBridge(socket, options));
  const port = await listen(host);
  const socket = net.connect(port, '127.0.0.1');
  const received = new Map<number, Buffer[]>();
  const closed = new Set<number>();
  const feed = codec.decoder((type, id, payload) => {
    if (type === codec.DATA) received.set(id, [...(received.get(id) ?? []), Buffer.from(payload)]);
    if (type === codec.CLOSE) closed.add(id);
  });
  socket.on('data', (chunk: Buffer) => feed(chunk));
  await new Promise((resolve) => socket.on('connect', resolve));
  const until = async (check: () => boolean, tries = 200): Promise<void> => {
    for (let i = 0; i < tries && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(check()).toBe(true);
  };
  return {
    socket,
    send: (type: number, id: number, text?: string) =>
      socket.write(codec.encode(type, id, text === undefined ? undefined : Buffer.from(text))),
    text: (id: number) => Buffer.concat(received.get(id) ?? []).toString(),
    bytes: (id: number) => (received.get(id) ?? []).reduce((sum, chunk) => sum + chunk.length, 0),
    closed,
    until,
  };
}

describe('the sandbox network proxy', () => {
  it('tunnels CONNECT to an allowed host and refuses others with 403 naming the allow-list', async () => {
    const echo = net.createServer((socket) => socket.pipe(socket));
    const echoPort = await listen(echo);
    const b = await bridge({ allowedHosts: ['127.0.0.1'] });
    b.send(codec.OPEN, 1);
    b.send(codec.DATA, 1, `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\n\r\nearly `);
    await b.until(() => b.text(1).startsWith('HTTP/1.1 200 Connection Established\r\n\r\nearly '));
    b.send(codec.DATA, 1, 'hello');
    await b.until(() => b.text(1).endsWith('early hello'));

    b.send(codec.OPEN, 2);
    b.send(codec.DATA, 2, 'CONNECT example.com:443 HTTP/1.1\r\n\r\n');
    await b.until(() => b.closed.has(2));
    expect(b.text(2)).toMatch(/^HTTP\/1\.1 403 Forbidden[\s\S]*example\.com is not in sandbox\.network\.allowedHosts \(127\.0\.0\.1\)/);
    b.socket.destroy();
  });

  it('forwards a plain HTTP request in origin form, with Host naming the allowed host', async () => {
    const seen: { url?: string; host?: string; proxy?: string }[] = [];
    const web = http.createServer((req, res) => {
      seen.push({ url: req.url, host: req.headers.host, proxy: req.headers['proxy-authorization'] });
      res.end('page body');
    });
    const webPort = await listen(web);
    const b = await bridge({ allowedHosts: ['localhost'], lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    b.send(codec.OPEN, 7);
    b.send(
      codec.DATA,
      7,
      `GET http://localhost:${webPort}/docs?x=1 HTTP/1.1\r\nHost: other.test\r\nProxy-Authorization: Basic abc\r\nConnection: close\r\n\r\n`,
    );
    await b.until(() => b.closed.has(7));
    expect(b.text(7)).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*page body$/);
    expect(seen).toEqual([{ url: '/docs?x=1', host: `localhost:${webPort}`, proxy: undefined }]);
    b.socket.destroy();
  });

  it('refuses an allowed name that resolves to a metadata address, bad heads and oversized heads', async () => {
    const b = await bridge({ allowedHosts: ['*.internal.test'], lookup: async () => [{ address: '169.254.169.254', family: 4 }] });
    b.send(codec.OPEN, 1);
    b.send(codec.DATA, 1, 'CONNECT meta.internal.test:80 HTTP/1.1\r\n\r\n');
    b.send(codec.OPEN, 2);
    b.send(codec.DATA, 2, 'hello there\r\n\r\n');
    b.send(codec.OPEN, 3);
    for (let i = 0; i < 70; i++) b.send(codec.DATA, 3, `X-Filler: ${'y'.repeat(1000)}\r\n`);
    await b.until(() => [1, 2, 3].every((id) => b.closed.has(id)));
    expect(b.text(1)).toMatch(/^HTTP\/1\.1 403[\s\S]*169\.254\.169\.254/);
    expect(b.text(2)).toMatch(/^HTTP\/1\.1 400 Bad Request[\s\S]*not an HTTP\/1\.x proxy request/);
    expect(b.text(3)).toMatch(/^HTTP\/1\.1 431/);
    b.socket.destroy();
  });

  it('a download the sandbox does not read waits upstream, not in memory, and then arrives whole', async () => {
    const total = 48 * 1024 * 1024;
    let sent = 0;
    let finished = false;
    const source = net.createServer((socket) => {
      const chunk = Buffer.alloc(64 * 1024, 7);
      const pump = (): void => {
        while (sent < total) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
        finished = true;
        socket.end();
      };
      pump();
    });
    const sourcePort = await listen(source);
    const b = await bridge({ allowedHosts: ['127.0.0.1'] });
    b.socket.pause(); // the sandbox side reads nothing for now
    b.send(codec.OPEN, 1);
    b.send(codec.DATA, 1, `CONNECT 127.0.0.1:${sourcePort} HTTP/1.1\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(finished).toBe(false);
    expect(sent).toBeLessThan(total / 2);
    b.socket.resume();
    await b.until(() => b.closed.has(1), 1500);
    expect(finished).toBe(true);
    expect(b.bytes(1)).toBe('HTTP/1.1 200 Connection Established\r\n\r\n'.length + total);
    b.socket.destroy();
  }, 20_000);

  it('a corrupt frame stream closes the channel and nothing throws', async () => {
    const b = await bridge({ allowedHosts: [] });
    const closed = new Promise((resolve) => b.socket.on('close', resolve));
    b.socket.write(Buffer.from([42, 0, 0, 0, 1, 0, 0, 0, 0]));
    await closed;
  });
});
