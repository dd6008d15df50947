// One guarded HTTP(S) GET: every hop (first request and each redirect) is resolved and checked
// by the network guard, and the connection is pinned to the checked address.
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { pinnedLookup, resolveAndCheck } from '../../runtime/network/guard.js';
import { ToolError } from '../../runtime/tool/types.js';
import { deadline } from '../../runtime/util/deadline.js';

export interface FetchOptions {
  allowedHosts?: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  signal: AbortSignal;
}

export interface Fetched {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** The body was longer than maxBytes and was cut there. */
  truncated: boolean;
  redirects: string[];
}

const USER_AGENT = 'wield-webfetch/0.1 (+https://github.com)';

function request(url: URL, address: string, family: 4 | 6, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(
      url,
      {
        lookup: pinnedLookup(address, family),
        signal,
        headers: {
          'user-agent': USER_AGENT,
          accept: 'text/html,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      resolve,
    );
    req.on('error', reject);
  });
}

function decoded(res: IncomingMessage): Readable {
  switch ((res.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return res.pipe(zlib.createGunzip());
    case 'deflate':
      return res.pipe(zlib.createInflate());
    case 'br':
      return res.pipe(zlib.createBrotliDecompress());
    default:
      return res;
  }
}

async function readBody(res: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = decoded(res);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= maxBytes) {
      res.destroy();
      stream.destroy();
      return { body: Buffer.concat(chunks).subarray(0, maxBytes), truncated: true };
    }
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

export async function guardedFetch(start: string, options: FetchOptions): Promise<Fetched> {
  const limit = deadline(options.signal, options.timeoutMs);
  const signal = limit.signal;
  const redirects: string[] = [];
  let url = new URL(start);
  try {
    for (;;) {
      const verdict = await resolveAndCheck(url, { allowedHosts: options.allowedHosts });
      if (!verdict.ok)
        throw new ToolError(
          `Refused to fetch ${url.href}${redirects.length ? ` (reached by redirect from ${start})` : ''}: ${verdict.reason}.`,
        );
      const res = await request(url, verdict.address, verdict.family, signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.resume();
        if (redirects.length >= options.maxRedirects)
          throw new ToolError(`Too many redirects (more than ${options.maxRedirects}) starting at ${start}.`);
        url = new URL(location, url);
        redirects.push(url.href);
        continue;
      }
      const { body, truncated } = await readBody(res, options.maxBytes);
      return { url: url.href, status, contentType: String(res.headers['content-type'] ?? ''), body, truncated, redirects };
    }
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (options.signal.aborted) throw new ToolError('The fetch was interrupted.');
    if (limit.expired()) throw new ToolError(`The fetch of ${url.href} took longer than ${options.timeoutMs / 1000} s and was stopped.`);
    throw new ToolError(`Could not fetch ${url.href}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  } finally {
    limit.clear();
  }
}
