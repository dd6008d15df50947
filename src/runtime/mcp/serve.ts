// `wield mcp serve`: the gateway over stdio, or over Streamable HTTP on 127.0.0.1 (anything else
// needs a bearer token, since whoever reaches the port can run the pool's tools). Over HTTP a
// 2026-07-28 request is served statelessly by a fresh instance (any replica sharing the store
// can answer it, gateway-modern.ts); a 2025-era client gets its own session (see gateway.ts),
// and the table of sessions is bounded (http-sessions.ts).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  createRequestStateCodec,
  isLegacyRequest,
  type McpHttpHandler,
  type RequestStateCodec,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { STDIO_TRANSPORT_BUFFER_BYTES, StdioLineGuard } from './stdio-guard.js';
import { BoundedEventStore } from './event-store.js';
import { createGatewayServer, type GatewayOptions, proxiedInputSchema } from './gateway.js';
import { paramHeaderRejection } from './gateway-param-headers.js';
import { REQUEST_STATE_TTL_MS } from './gateway-modern.js';
import type { GatewayState } from './gateway-relay.js';
import { MemoryGatewayStore, newSecret, type GatewayStore } from './gateway-store.js';
import { DEFAULT_TASK_SETTINGS, TaskRunner, type TaskSettings } from './gateway-tasks.js';
import { sendWebResponse, toWebRequest } from './http-bridge.js';
import { allowedHostnames, checkRequestHeaders, isLoopback } from './http-guard.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_SESSIONS, SessionTable, type TrackedSession } from './http-sessions.js';
import { messageOf } from '../util/message.js';

export { isLoopback } from './http-guard.js';

/** The SDK's default is 4 MiB; tool inputs are small, and a bigger body is a mistake or an attack. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface HttpServeOptions {
  port: number;
  /** Default 127.0.0.1; any other address requires `token`. */
  host?: string;
  /** Clients must send `Authorization: Bearer <token>`. */
  token?: string;
  /** Further names clients may use in the Host header (e.g. the machine's DNS name). */
  allowedHosts?: string[];
  /** Most sessions kept at once (default 500). */
  maxSessions?: number;
  /** A session without requests for this long is closed (default 15 min). */
  idleTimeoutMs?: number;
  /** When the table is full, only a session idle this long may make room (default 60 s). */
  evictionGraceMs?: number;
  /** Largest request body accepted (default 1 MiB); larger ones get 413. */
  maxBodyBytes?: number;
}

export interface ServeMcpOptions extends Omit<GatewayOptions, 'modern' | 'codec'> {
  transport: 'stdio' | { http: HttpServeOptions };
  /** State shared by replicas (requestState key and nonces, Tasks); default: in this process. */
  store?: GatewayStore;
  tasks?: Partial<TaskSettings>;
}

export interface GatewayHandle {
  /** The endpoint URL (HTTP only). */
  url?: string;
  /** Open HTTP sessions (0 for stdio). */
  sessionCount(): number;
  close(): Promise<void>;
}

export const MCP_PATH = '/mcp';

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) closes sockets that a
 * client about to send its next request still holds: a client whose event loop stalls, or one
 * that keeps idle connections longer (Go's default is 90 s), then sends a POST on a socket the
 * gateway just closed and gets "other side closed" (150 of 1,200 calls of 400 SDK clients in one
 * process on a loaded 2-core machine). MCP clients pause for as long as a model thinks.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 120_000;

/** Bearer check in constant time (a timing oracle would leak the token byte by byte). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function reject(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Signs the requestState of one process's sessions (stdio, 2025-era HTTP): their clients never
 * see it (the SDK asks them with real requests), so it is never shared with other replicas.
 */
function sessionCodec(): RequestStateCodec<GatewayState> {
  return createRequestStateCodec<GatewayState>({ key: newSecret(), ttlSeconds: REQUEST_STATE_TTL_MS / 1000 });
}

async function serveStdio(options: GatewayOptions): Promise<GatewayHandle> {
  const server = createGatewayServer({ ...options, codec: sessionCodec() });
  // An oversized message is refused with an error, not the end of the session (stdio-guard.ts).
  const stdin = process.stdin.pipe(new StdioLineGuard((error) => process.stdout.write(error)));
  await server.connect(new StdioServerTransport(stdin, process.stdout, { maxBufferSize: STDIO_TRANSPORT_BUFFER_BYTES }));
  return { sessionCount: () => 0, close: () => server.close() };
}

interface HttpSession extends TrackedSession {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

/** Who sent a request, as far as tasks are concerned: a digest of its credential. */
function ownerOf(request: Request | undefined): string {
  return createHash('sha256')
    .update(request?.headers.get('authorization') ?? '')
    .digest('base64url');
}

async function modernHandler(
  options: GatewayOptions,
  store: GatewayStore,
  tasks: TaskSettings,
  maxBodyBytes: number,
): Promise<McpHttpHandler> {
  const runner = new TaskRunner(store, tasks);
  const codec: RequestStateCodec<GatewayState> = createRequestStateCodec<GatewayState>({
    key: await store.secret(),
    ttlSeconds: REQUEST_STATE_TTL_MS / 1000,
  });
  return createMcpHandler((ctx) => createGatewayServer({ ...options, modern: { runner, codec, owner: ownerOf(ctx.requestInfo) } }), {
    // 2025-era clients keep their sessions (the legacy path below); this handler serves 2026-07-28.
    legacy: 'reject',
    maxRequestBodySize: maxBodyBytes,
  });
}

async function serveHttp(
  options: GatewayOptions,
  http: HttpServeOptions,
  store: GatewayStore,
  tasks: TaskSettings,
): Promise<GatewayHandle> {
  const host = http.host ?? '127.0.0.1';
  const loopbackOnly = isLoopback(host);
  if (!loopbackOnly && !http.token) {
    throw new Error(`Serving MCP on ${host} exposes every tool to the network; pass a token (--token) or bind to 127.0.0.1.`);
  }
  const hosts = allowedHostnames(host, http.allowedHosts);
  const maxBodyBytes = http.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const modern = await modernHandler(options, store, tasks, maxBodyBytes);
  const stopListChanged = options.registry.onChange(() => modern.notify.toolsChanged());
  const sessions = new SessionTable<HttpSession>({
    maxSessions: http.maxSessions ?? DEFAULT_MAX_SESSIONS,
    idleTimeoutMs: http.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    evictionGraceMs: http.evictionGraceMs,
  });

  const codec = sessionCodec();
  async function open(): Promise<HttpSession> {
    const server = createGatewayServer({ ...options, codec });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      eventStore: new BoundedEventStore(),
      maxRequestBodySize: maxBodyBytes,
      onsessioninitialized: (id) => {
        session.id = id;
        sessions.add(session);
      },
      onsessionclosed: (id) => sessions.delete(id),
    });
    const session: HttpSession = { id: '', lastSeen: Date.now(), busy: 0, server, transport, close: () => server.close() };
    server.onclose = chain(server.onclose, () => sessions.delete(session.id));
    await server.connect(transport);
    return session;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const headers = checkRequestHeaders({ host: req.headers.host, origin: req.headers.origin, hosts, checkOrigin: loopbackOnly });
    if (!headers.ok) return reject(res, headers.status, headers.message);
    if (url.pathname !== MCP_PATH) return reject(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    if (http.token && !tokenMatches(req.headers.authorization, http.token)) {
      res.setHeader('www-authenticate', 'Bearer');
      return reject(res, 401, 'Unauthorized: send "Authorization: Bearer <token>" with the token the gateway was started with');
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const request = toWebRequest(req, `http://${req.headers.host ?? 'gateway'}`, abort.signal);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return reject(res, 404, 'Session not found (closed, or evicted after being idle): initialize a new session');
      return forward(session, request, res);
    }
    if (req.method === 'POST') {
      if (!(await isLegacyRequest(request, undefined, { maxRequestBodySize: maxBodyBytes }))) {
        const rejection = await paramHeaderRejection(request, (tool) => proxiedInputSchema(options, tool), maxBodyBytes);
        return sendWebResponse(rejection ?? (await modern.fetch(request)), res);
      }
      return startSession(res, (session) => forward(session, request, res));
    }
    return reject(res, 400, 'Bad request: send an initialize request by POST first, then the mcp-session-id header');
  }

  async function startSession(res: ServerResponse, run: (session: HttpSession) => Promise<void>): Promise<void> {
    // The place is held from here until the session is in the table (or never started).
    const place = sessions.reserve();
    if (!place.ok) {
      res.setHeader('retry-after', String(Math.ceil(place.retryAfterMs / 1000)));
      return reject(res, 503, `Too many sessions: all ${sessions.limits.maxSessions} are in use; retry later or close idle clients`);
    }
    try {
      const session = await open();
      await run(session);
      place.release();
      // A POST that did not start a session (not an initialize request) leaves nothing to keep.
      if (session.transport.sessionId === undefined) void session.server.close();
    } finally {
      place.release();
    }
  }

  /** Requests of a session; their stream ends with the response (or the client going away). */
  async function forward(session: HttpSession, request: Request, res: ServerResponse): Promise<void> {
    const done = sessions.begin(session);
    res.on('close', done);
    await sendWebResponse(await session.transport.handleRequest(request), res);
  }

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reject(res, 500, `Internal error: ${messageOf(error)}`);
      else res.end();
    });
  });
  httpServer.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve, rejectListen) => {
    httpServer.once('error', rejectListen);
    httpServer.listen(http.port, host, () => resolve());
  });
  const address = httpServer.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_PATH}`,
    sessionCount: () => sessions.size,
    async close() {
      stopListChanged();
      await modern.close();
      await sessions.closeAll();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

function chain(first: (() => void) | undefined, second: () => void): () => void {
  return () => {
    first?.();
    second();
  };
}

/** Serves the pool until close(); resolves once it is listening. */
export function serveMcp(options: ServeMcpOptions): Promise<GatewayHandle> {
  const { transport, store, tasks, ...gateway } = options;
  if (transport === 'stdio') return serveStdio(gateway);
  return serveHttp(gateway, transport.http, store ?? new MemoryGatewayStore(), { ...DEFAULT_TASK_SETTINGS, ...tasks });
}
