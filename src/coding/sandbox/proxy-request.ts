// The head of a request sent to an HTTP proxy, read into where it wants to go. Pure.
//   CONNECT host:port HTTP/1.1          a tunnel (HTTPS, or any TCP protocol)
//   GET http://host[:port]/path HTTP/1.1  a plain HTTP request in absolute form
// (RFC 9110 §9.3.6 CONNECT; RFC 9112 §3.2.2 absolute-form, §3.2.3 authority-form.)

export type ProxyTarget =
  | { kind: 'connect'; host: string; port: number }
  /** forwardHead: the request head rewritten for the origin server (origin-form, no proxy headers). */
  | { kind: 'forward'; host: string; port: number; forwardHead: string };

export type ProxyRequest = { ok: true; target: ProxyTarget } | { ok: false; reason: string };

const REQUEST_LINE = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/;
const AUTHORITY = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/;
/**
 * Headers not passed on: those meant for the proxy itself, and Host, which a proxy replaces with
 * the request target's host (RFC 9112 §3.2.2), so it always names the host that was allowed.
 */
const DROPPED_HEADERS = /^(proxy-(connection|authorization|authenticate)|host)\s*:/i;

function portOf(text: string): number | undefined {
  const port = Number(text);
  return Number.isInteger(port) && port >= 1 && port <= 65_535 ? port : undefined;
}

/** Reads a head that ends with an empty line (CRLF CRLF). */
export function parseProxyRequest(head: string): ProxyRequest {
  const lines = head.split('\r\n');
  const match = REQUEST_LINE.exec(lines[0] ?? '');
  if (!match) return { ok: false, reason: `not an HTTP/1.x proxy request: ${JSON.stringify((lines[0] ?? '').slice(0, 100))}` };
  const [, method, target, version] = match;
  if (method === 'CONNECT') {
    const authority = AUTHORITY.exec(target);
    const port = authority ? portOf(authority[3]) : undefined;
    if (!authority || port === undefined) return { ok: false, reason: `CONNECT needs host:port, got ${JSON.stringify(target)}` };
    return { ok: true, target: { kind: 'connect', host: (authority[1] ?? authority[2]).toLowerCase(), port } };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { ok: false, reason: `a proxy request needs an absolute URL (http://host/path), got ${JSON.stringify(target.slice(0, 100))}` };
  }
  if (url.protocol !== 'http:')
    return { ok: false, reason: `only http:// URLs are forwarded as requests; use CONNECT for ${url.protocol}//` };
  const port = url.port === '' ? 80 : portOf(url.port);
  if (port === undefined) return { ok: false, reason: `bad port in ${JSON.stringify(target)}` };
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const headers = [`Host: ${url.host}`, ...lines.slice(1).filter((line) => line !== '' && !DROPPED_HEADERS.test(line))];
  const forwardHead = `${method} ${url.pathname}${url.search} ${version}\r\n${headers.map((line) => `${line}\r\n`).join('')}\r\n`;
  return { ok: true, target: { kind: 'forward', host, port, forwardHead } };
}
