// `wield mcp serve`: the gateway over stdio, or over Streamable HTTP on 127.0.0.1 (anything else
// needs a bearer token, since whoever reaches the port can run the pool's tools).
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createGatewayServer, type GatewayOptions } from './gateway.js';
import { sendWebResponse, toWebRequest } from './http-bridge.js';

export interface HttpServeOptions {
  port: number;
  /** Default 127.0.0.1; any other address requires `token`. */
  host?: string;
  /** Clients must send `Authorization: Bearer <token>`. */
  token?: string;
}

export interface ServeMcpOptions extends GatewayOptions {
  transport: 'stdio' | { http: HttpServeOptions };
}

export interface GatewayHandle {
  /** The endpoint URL (HTTP only). */
  url?: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
export const MCP_PATH = '/mcp';

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/** Bearer check in constant time (a timing oracle would leak the token byte by byte). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Browsers send Origin; a page on another site must not drive a local gateway (DNS rebinding). */
export function originAllowed(origin: string | undefined, loopbackOnly: boolean): boolean {
  if (origin === undefined || !loopbackOnly) return true;
  try {
    return isLoopback(new URL(origin).hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
}

function reject(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function serveStdio(options: GatewayOptions): Promise<GatewayHandle> {
  const server = createGatewayServer(options);
  await server.connect(new StdioServerTransport());
  return { close: () => server.close() };
}

interface Session {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

async function serveHttp(options: GatewayOptions, http: HttpServeOptions): Promise<GatewayHandle> {
  const host = http.host ?? '127.0.0.1';
  const loopbackOnly = isLoopback(host);
  if (!loopbackOnly && !http.token) {
    throw new Error(`Serving MCP on ${host} exposes every tool to the network; pass a token (--token) or bind to 127.0.0.1.`);
  }
  const sessions = new Map<string, Session>();

  async function open(): Promise<Session> {
    const server = createGatewayServer(options);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    const session: Session = { server, transport };
    await server.connect(transport);
    return session;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (url.pathname !== MCP_PATH) return reject(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    if (http.token && !tokenMatches(req.headers.authorization, http.token)) {
      res.setHeader('www-authenticate', 'Bearer');
      return reject(res, 401, 'Unauthorized: send "Authorization: Bearer <token>" with the token the gateway was started with');
    }
    if (!originAllowed(req.headers.origin, loopbackOnly))
      return reject(res, 403, 'Forbidden: requests from web pages of other origins are refused');
    const sessionId = req.headers['mcp-session-id'];
    let session: Session | undefined;
    if (typeof sessionId === 'string') {
      session = sessions.get(sessionId);
      if (!session) return reject(res, 404, 'Session not found: initialize a new session');
    } else if (req.method === 'POST') {
      session = await open();
    } else {
      return reject(res, 400, 'Bad request: send an initialize request by POST first, then the mcp-session-id header');
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const response = await session.transport.handleRequest(toWebRequest(req, `http://${req.headers.host ?? 'gateway'}`, abort.signal));
    // A POST that did not start a session (not an initialize request) leaves nothing to keep.
    if (typeof sessionId !== 'string' && session.transport.sessionId === undefined) void session.server.close();
    await sendWebResponse(response, res);
  }

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reject(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, rejectListen) => {
    httpServer.once('error', rejectListen);
    httpServer.listen(http.port, host, () => resolve());
  });
  const address = httpServer.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_PATH}`,
    async close() {
      await Promise.allSettled([...sessions.values()].map((session) => session.server.close()));
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** Serves the pool until close(); resolves once it is listening. */
export function serveMcp(options: ServeMcpOptions): Promise<GatewayHandle> {
  const { transport, ...gateway } = options;
  return transport === 'stdio' ? serveStdio(gateway) : serveHttp(gateway, transport.http);
}
