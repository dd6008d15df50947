// OAuth for MCP servers of the 2025-03-26 revision (no protected-resource metadata): root metadata
// whose issuer is a path on the server's own origin is used, anything naming another origin is
// refused before a request goes there. Real local servers: the legacy MCP server, a second origin
// that records what reaches it, and a real MCP server behind the legacy one's token check.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptLegacyMetadata } from '../../../src/runtime/mcp/oauth-legacy.js';
import { closers, connection, FOLLOWING_BROWSER, legacyServer, metadataAt, otherOrigin, realMcpServer } from './oauth-servers.js';

const browser = process.env.BROWSER;
afterAll(async () => {
  if (browser === undefined) delete process.env.BROWSER;
  else process.env.BROWSER = browser;
  await Promise.allSettled(closers.map((close) => close()));
});

describe('acceptLegacyMetadata', () => {
  const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
  const pathOf = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`);

  it('accepts an issuer and endpoints under any path of the server origin', () => {
    fc.assert(
      fc.property(pathOf, pathOf, (issuerPath, endpointPath) => {
        const origin = 'http://127.0.0.1:8123';
        const metadata = metadataAt(`${origin}${issuerPath}`, `${origin}${endpointPath}`);
        expect(acceptLegacyMetadata(`${origin}/mcp`, metadata)).toEqual({ ok: true, metadata });
      }),
    );
  });

  it('refuses an issuer or any endpoint on another origin, naming it', () => {
    const fields = ['issuer', 'authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const;
    const elsewhere = fc.constantFrom('http://127.0.0.1:9999', 'http://localhost:8123', 'https://127.0.0.1:8123', 'http://evil.example');
    fc.assert(
      fc.property(fc.constantFrom(...fields), elsewhere, pathOf, (field, other, somePath) => {
        const origin = 'http://127.0.0.1:8123';
        const metadata = { ...metadataAt(`${origin}/oauth`), [field]: `${other}${somePath}` };
        const decision = acceptLegacyMetadata(`${origin}/mcp`, metadata);
        expect(decision.ok).toBe(false);
        if (!decision.ok) expect(decision.message).toContain(`${field} ${other}${somePath}`);
      }),
    );
  });

  it('refuses a scheme change: an http issuer for an https server', () => {
    const decision = acceptLegacyMetadata('https://mcp.example.com/mcp', metadataAt('http://mcp.example.com/oauth'));
    expect(decision).toMatchObject({ ok: false, message: expect.stringContaining('issuer http://mcp.example.com/oauth') });
  });

  it('refuses an issuer that is no URL', () => {
    expect(acceptLegacyMetadata('https://mcp.example.com/mcp', metadataAt('mcp.example.com')).ok).toBe(false);
  });

  it('leaves metadata whose issuer is the root itself as RFC 8414 §3.3 and the SDK take it, endpoints anywhere', () => {
    const metadata = metadataAt('https://mcp.example.com/', 'https://login.example.org');
    expect(acceptLegacyMetadata('https://mcp.example.com/mcp', metadata)).toEqual({ ok: true, metadata });
  });
});

describe('a 2025-03-26 server without protected-resource metadata', () => {
  it('authorizes against its own /oauth routes when the root metadata names a path on its origin', async () => {
    process.env.BROWSER = FOLLOWING_BROWSER;
    const server = await legacyServer((origin) => metadataAt(`${origin}/oauth`), { upstream: await realMcpServer() });
    const notices: string[] = [];
    const conn = connection(server.url, notices);
    await conn.start();
    expect(conn.status()).toMatchObject({ state: 'connected', toolCount: 2 });
    expect(notices.join('\n')).toContain(`${new URL(server.url).origin}/oauth/authorize?`);
    expect(server.requests).toEqual(expect.arrayContaining(['POST /oauth/register', 'POST /oauth/token']));
  }, 30_000);

  it('is not what a server with protected-resource metadata gets: there the SDK discovers, root metadata unread', async () => {
    process.env.BROWSER = FOLLOWING_BROWSER;
    const other = await otherOrigin();
    // Root metadata that the legacy path would refuse: reading it would fail the connection.
    const server = await legacyServer(() => metadataAt(other.url), { upstream: await realMcpServer(), prm: true });
    const conn = connection(server.url);
    await conn.start();
    expect(conn.status()).toMatchObject({ state: 'connected', toolCount: 2 });
    expect(server.requests).toContain('GET /resource-metadata');
    expect(server.requests).not.toContain('GET /.well-known/oauth-authorization-server');
    expect(other.requests).toEqual([]);
  }, 30_000);

  for (const [what, metadata] of [
    ['an issuer and endpoints', (other: string) => metadataAt(other)],
    ['a token endpoint', (other: string, origin: string) => ({ ...metadataAt(`${origin}/oauth`), token_endpoint: `${other}/token` })],
  ] as const) {
    it(`is refused when its root metadata names ${what} on another origin, and nothing reaches that origin`, async () => {
      const other = await otherOrigin();
      const server = await legacyServer((origin) => metadata(other.url, origin));
      const conn = connection(server.url);
      await conn.start();
      const status = conn.status();
      expect(status.state).toBe('failed');
      expect(status.error).toMatch(/names (issuer|token_endpoint) http:\/\/127\.0\.0\.1:\d+\S* not on the server's origin/);
      expect(status.error).toContain('refused');
      expect(other.requests).toEqual([]);
      expect(server.requests.filter((line) => line.startsWith('POST /oauth'))).toEqual([]);
    }, 30_000);
  }
});
