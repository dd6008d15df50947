// node:http ⇄ web-standard Request/Response, for the SDK's web-standard Streamable HTTP
// transport. Hand-written because the SDK's own Node adapter (@modelcontextprotocol/node) is
// not a dependency, and the bridge is two small functions.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

export function toWebRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
}

/** Streams the response (SSE responses stay open until the transport ends them). */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  // A body left unread (refused as too large) still sits on the socket, and the next request of
  // a keep-alive client would queue behind it for ever: this connection closes after the reply.
  if (!res.req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  try {
    for await (const chunk of response.body) {
      if (res.destroyed) break;
      res.write(chunk);
    }
  } finally {
    res.end();
  }
}
