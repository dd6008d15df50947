// The fetch an HTTP MCP server's transport uses. Every request and every redirect hop has its host
// resolved and checked, then connects to the checked address, pinned per host for the transport's
// life: DNS cannot swap in another address between the check and the connection, or between two
// requests. The configured host is the user's choice and may be private or loopback (local
// servers are common); other hosts a redirect leads to must be public or in `allowedHosts`.
// Link-local and cloud metadata addresses are refused for every host.
//
// Built on node:http(s) because Node's global fetch takes no custom DNS lookup.
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/client';
import { hostAllowed, linkLocalOrMetadata, pinnedLookup, resolveAndCheck, type Resolver } from '../network/guard.js';

export interface GuardedFetchOptions {
  /** The server's name, for error messages. */
  server: string;
  /** The configured server URL; its host is trusted even when private or loopback. */
  url: string | URL;
  /** Other hosts a redirect may lead to even when private (`*.example.com` for subdomains). */
  allowedHosts?: readonly string[];
  /** How host names are resolved; the system resolver by default. */
  resolver?: Resolver;
}

type Pinned = { address: string; family: 4 | 6 };

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
/** What a redirect to another origin keeps: the protocol's headers, never the server's credentials. */
const CROSS_ORIGIN_HEADERS = ['accept', 'accept-encoding', 'content-type', 'mcp-protocol-version', 'last-event-id'];

function toResponse(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
  const status = res.statusCode ?? 0;
  if (method === 'HEAD' || NULL_BODY_STATUSES.has(status)) {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage, headers });
  }
  // A stream, not a buffered body: SSE responses stay open for the whole session.
  return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, statusText: res.statusMessage, headers });
}

export function guardedFetch(options: GuardedFetchOptions): FetchLike {
  const trusted = [new URL(options.url).hostname, ...(options.allowedHosts ?? [])];
  const pins = new Map<string, Promise<Pinned>>();
  // Own agents, so no pooled socket opened under another guard's rules is ever reused here.
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

  async function check(url: URL): Promise<Pinned> {
    const refused = `MCP server "${options.server}": refused to connect to ${url.host}`;
    const verdict = await resolveAndCheck(url, { allowedHosts: trusted, resolver: options.resolver });
    if (!verdict.ok) {
      const scope = hostAllowed(url.hostname, trusted)
        ? ''
        : `; redirects may reach only public hosts, the server's own host and its "allowedHosts"`;
      throw new Error(`${refused}: ${verdict.reason}${scope}`);
    }
    const why = linkLocalOrMetadata(verdict.address);
    const resolved = url.hostname.replace(/^\[|\]$/g, '') === verdict.address ? '' : ` (${verdict.address})`;
    if (why) throw new Error(`${refused}${resolved}: ${why}; such addresses are never MCP servers`);
    return { address: verdict.address, family: verdict.family };
  }

  function pin(url: URL): Promise<Pinned> {
    let pinned = pins.get(url.hostname);
    if (!pinned) {
      pinned = check(url);
      pins.set(url.hostname, pinned);
    }
    return pinned;
  }

  function send(
    url: URL,
    pinned: Pinned,
    method: string,
    headers: Headers,
    body: Buffer | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const secure = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).request(
        url,
        {
          method,
          headers: Object.fromEntries(headers),
          agent: secure ? agents.https : agents.http,
          lookup: pinnedLookup(pinned.address, pinned.family),
          signal,
        },
        (res) => resolve(toResponse(res, method)),
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  return async (input, init = {}) => {
    const start = new URL(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const body = init.body == null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
    let headers = new Headers(init.headers);
    // Bodies are passed on as they arrive, so ask for them unencoded.
    if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'identity');
    let url = start;
    for (let hops = 0; ; hops++) {
      const pinned = await pin(url).catch((error: Error) => {
        throw url === start ? error : new Error(`${error.message} (reached by a redirect from ${start.href})`);
      });
      const response = await send(url, pinned, method, headers, body, init.signal ?? undefined);
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
      // Like the SDK's own redirect handling: only redirects that keep the method are followed.
      const keepsMethod = method === 'GET' || response.status === 307 || response.status === 308;
      if (location === null || !keepsMethod || init.redirect === 'manual') return response;
      await response.body?.cancel();
      if (init.redirect === 'error')
        throw new Error(`MCP server "${options.server}" redirected ${url.href} to ${location}, and this request must not be redirected`);
      if (hops === MAX_REDIRECTS)
        throw new Error(`MCP server "${options.server}": more than ${MAX_REDIRECTS} redirects from ${start.href}`);
      const next = new URL(location, url);
      if (next.origin !== url.origin)
        headers = new Headers(CROSS_ORIGIN_HEADERS.flatMap((name) => (headers.has(name) ? [[name, headers.get(name) ?? '']] : [])));
      url = next;
    }
  };
}
