// OAuth for MCP servers of the 2025-03-26 revision (no protected-resource metadata): root metadata
// whose issuer is a path on the server's own origin is used, anything naming another origin is
// refused before a request goes there. Real local servers: the legacy MCP server, a second origin
// that records what reaches it, and a real MCP server behind the legacy one's token check.
import { createRequire } from 'node:module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { McpConnection } from '../../../src/runtime/mcp/connection.js';
import { acceptLegacyMetadata } from '../../../src/runtime/mcp/oauth-legacy.js';
import { serveMcp } from '../../../src/runtime/mcp/serve.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { gatewayRegistry } from '../../support/mcp-servers/gateway-tools.js';
import { tempDir } from './helpers.js';

const require = createRequire(import.meta.url);
const BROWSER_SCRIPT = path.join(path.dirname(require.resolve('../../support/conformance/browser.mjs')), 'browser.mjs');

const closers: (() => Promise<unknown>)[] = [];
const browser = process.env.BROWSER;
afterAll(async () => {
  if (browser === undefined) delete process.env.BROWSER;
  else process.env.BROWSER = browser;
  await Promise.allSettled(closers.map((close) => close()));
});

function metadataAt(issuer: string, base = issuer): AuthorizationServerMetadata {
  return {
    issuer,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
  };
}

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

interface Recorder {
  url: string;
  requests: string[];
}

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Another origin with a whole authorization server's routes; it records every request. */
async function otherOrigin(): Promise<Recorder> {
  const requests: string[] = [];
  const url = await listen((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'stolen', token_type: 'Bearer' }));
  });
  return { url, requests };
}

/** A real MCP server (the gateway with Echo and Shout) over Streamable HTTP. */
async function realMcpServer(): Promise<string> {
  const registry = gatewayRegistry();
  const rt = createRuntime({
    registry,
    session: createSession({ cwd: tempDir('legacy'), dir: tempDir('legacy-session') }),
    policy: allowAll,
  });
  const handle = await serveMcp({ registry, rt, transport: { http: { port: 0 } }, deferral: false });
  closers.push(() => handle.close());
  return handle.url as string;
}

/**
 * A 2025-03-26 server: no protected-resource metadata, a 401 without resource_metadata, root
 * metadata as `metadata(origin)` says, its own authorization routes under /oauth, and the MCP
 * endpoint (proxied to a real server) once a bearer token it issued comes with the request.
 */
async function legacyServer(
  metadata: (origin: string) => AuthorizationServerMetadata,
  upstream?: string,
  { prm = false } = {},
): Promise<Recorder> {
  const requests: string[] = [];
  let origin = '';
  origin = await listen((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', origin);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/.well-known/oauth-authorization-server') return json(200, metadata(origin));
    // With `prm`: protected-resource metadata where only the 401 names it, and the authorization
    // server at /oauth with its metadata where RFC 8414 puts it for that issuer.
    if (prm && url.pathname === '/resource-metadata')
      return json(200, { resource: `${origin}/mcp`, authorization_servers: [`${origin}/oauth`] });
    if (prm && url.pathname === '/.well-known/oauth-authorization-server/oauth') return json(200, metadataAt(`${origin}/oauth`));
    if (url.pathname.startsWith('/.well-known/')) return json(404, { error: 'not_found' });
    if (url.pathname === '/oauth/register') {
      req.resume();
      return json(201, { client_id: 'legacy-client', redirect_uris: [] });
    }
    if (url.pathname === '/oauth/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', 'legacy-code');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/oauth/token') {
      req.resume();
      return json(200, { access_token: 'legacy-token', token_type: 'Bearer', expires_in: 3600 });
    }
    if (url.pathname === '/mcp' && req.headers.authorization === 'Bearer legacy-token' && upstream) {
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.authorization;
      const forward = http.request(upstream, { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
      return;
    }
    if (url.pathname === '/mcp') {
      req.resume();
      const challenge = prm ? `Bearer resource_metadata="${origin}/resource-metadata"` : 'Bearer';
      return res.writeHead(401, { 'www-authenticate': challenge }).end();
    }
    json(404, { error: 'not_found' });
  });
  return { url: `${origin}/mcp`, requests };
}

function connection(url: string, notices: string[] = []): McpConnection {
  const conn = new McpConnection(
    'legacy',
    { type: 'http', url, connectTimeout: 20_000 },
    {
      clientInfo: { name: 'test', version: '0' },
      onTools: () => undefined,
      authDir: tempDir('legacy-auth'),
      notify: (m) => notices.push(m),
    },
  );
  closers.push(() => conn.close());
  return conn;
}

describe('a 2025-03-26 server without protected-resource metadata', () => {
  it('authorizes against its own /oauth routes when the root metadata names a path on its origin', async () => {
    process.env.BROWSER = `${JSON.stringify(process.execPath)} ${JSON.stringify(BROWSER_SCRIPT)}`;
    const server = await legacyServer((origin) => metadataAt(`${origin}/oauth`), await realMcpServer());
    const notices: string[] = [];
    const conn = connection(server.url, notices);
    await conn.start();
    expect(conn.status()).toMatchObject({ state: 'connected', toolCount: 2 });
    expect(notices.join('\n')).toContain(`${new URL(server.url).origin}/oauth/authorize?`);
    expect(server.requests).toEqual(expect.arrayContaining(['POST /oauth/register', 'POST /oauth/token']));
  }, 30_000);

  it('is not what a server with protected-resource metadata gets: there the SDK discovers, root metadata unread', async () => {
    process.env.BROWSER = `${JSON.stringify(process.execPath)} ${JSON.stringify(BROWSER_SCRIPT)}`;
    const other = await otherOrigin();
    // Root metadata that the legacy path would refuse: reading it would fail the connection.
    const server = await legacyServer(() => metadataAt(other.url), await realMcpServer(), { prm: true });
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
