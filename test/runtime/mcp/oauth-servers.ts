// Local servers for the OAuth tests: a 2025-03-26 MCP server with its own authorization routes
// (in front of a real MCP server), a second origin that records what reaches it, and the
// connection wield opens to them. Each test file passes its closers along.
import { createRequire } from 'node:module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/client';
import { McpConnection } from '../../../src/runtime/mcp/connection.js';
import { serveMcp } from '../../../src/runtime/mcp/serve.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { gatewayRegistry } from '../../support/mcp-servers/gateway-tools.js';
import { tempDir } from './helpers.js';

const require = createRequire(import.meta.url);
/** BROWSER for the tests: follows the authorization page's redirects back to wield. */
export const FOLLOWING_BROWSER = `${JSON.stringify(process.execPath)} ${JSON.stringify(
  path.join(path.dirname(require.resolve('../../support/conformance/browser.mjs')), 'browser.mjs'),
)}`;

/** What the servers and connections here need closed after the tests; each file closes its own. */
export const closers: (() => Promise<unknown>)[] = [];

export function metadataAt(issuer: string, base = issuer): AuthorizationServerMetadata {
  return {
    issuer,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
  };
}

export interface Recorder {
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
export async function otherOrigin(): Promise<Recorder> {
  const requests: string[] = [];
  const url = await listen((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'stolen', token_type: 'Bearer' }));
  });
  return { url, requests };
}

/** A real MCP server (the gateway with Echo and Shout) over Streamable HTTP. */
export async function realMcpServer(): Promise<string> {
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
export interface LegacyServerOptions {
  /** A real MCP server to pass requests with the issued token to. */
  upstream?: string;
  /** Protected-resource metadata where only the 401 names it, the authorization server at /oauth. */
  prm?: boolean;
  /** How many authorizations complete (redirect back); later ones stay on the page, as when the person walks away. */
  completes?: number;
  /** Every tools/call is refused with 403 insufficient_scope (scope mcp:write), however authorized. */
  refuseCalls?: boolean;
}

async function forward(req: http.IncomingMessage, res: http.ServerResponse, upstream: string, refuseCalls: boolean): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (refuseCalls && body.length > 0 && (JSON.parse(body.toString()) as { method?: string }).method === 'tools/call') {
    res.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="mcp:write"' }).end();
    return;
  }
  const headers = { ...req.headers };
  delete headers.host;
  delete headers.authorization;
  const request = http.request(upstream, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  request.end(body);
}

export async function legacyServer(
  metadata: (origin: string) => AuthorizationServerMetadata,
  { upstream, prm = false, completes = Number.POSITIVE_INFINITY, refuseCalls = false }: LegacyServerOptions = {},
): Promise<Recorder> {
  let authorizations = 0;
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
      if (++authorizations > completes) return res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Sign in</p>');
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
      void forward(req, res, upstream, refuseCalls);
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

export function connection(url: string, notices: string[] = []): McpConnection {
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
