// SEP-2243 (2026-07-28 over HTTP): a tool argument whose schema says `x-mcp-header: Name` also
// travels in the `Mcp-Param-Name` header, so proxies can route on it without reading the body;
// the server must check the two agree, and refuse a request where they do not with 400 and
// HeaderMismatch before it runs. A value `=?base64?…?=` is Base64 (UTF-8), anything else literal.
// The SDK checks this only for its McpServer's own tools; the gateway lists its servers' tools.

import { readRequestBody } from '@modelcontextprotocol/server';
import { HEADER_KEYWORD } from './tool-headers.js';

/** JSON-RPC HeaderMismatch: a header disagrees with the body it came with. */
export const HEADER_MISMATCH = -32020;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const WRAPPED = /^=\?base64\?(.*)\?=$/;

/** A header's value as the client meant it; undefined for a wrapped value that is not Base64. */
export function decodeParamHeader(value: string): string | undefined {
  const wrapped = WRAPPED.exec(value);
  if (!wrapped) return value;
  return BASE64.test(wrapped[1]) ? Buffer.from(wrapped[1], 'base64').toString('utf8') : undefined;
}

/**
 * The answer to a 2026-07-28 tools/call whose Mcp-Param headers disagree with its arguments;
 * undefined for any other request. Reads a copy of the body, at most `maxBytes`.
 */
export async function paramHeaderRejection(
  request: Request,
  schemaOf: (tool: string) => unknown,
  maxBytes: number,
): Promise<Response | undefined> {
  const body = await readRequestBody(request.clone(), maxBytes);
  if (body.tooLarge) return undefined;
  let message: { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown } };
  try {
    message = JSON.parse(body.text);
  } catch {
    return undefined;
  }
  const { params } = message;
  if (message.method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
  const args = typeof params.arguments === 'object' && params.arguments !== null ? (params.arguments as Record<string, unknown>) : {};
  const mismatch = paramHeaderMismatch(schemaOf(params.name), args, (name) => request.headers.get(name));
  if (mismatch === undefined) return undefined;
  const error = { code: HEADER_MISMATCH, message: `Bad Request: header mismatch: ${mismatch}` };
  return Response.json({ jsonrpc: '2.0', id: message.id ?? null, error }, { status: 400 });
}

/** What is wrong with a call's Mcp-Param headers against its arguments; undefined when they agree. */
export function paramHeaderMismatch(
  inputSchema: unknown,
  args: Record<string, unknown>,
  header: (name: string) => string | null,
): string | undefined {
  const properties = (inputSchema as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties ?? {};
  for (const [param, schema] of Object.entries(properties)) {
    const name = schema[HEADER_KEYWORD];
    if (typeof name !== 'string' || args[param] === undefined || args[param] === null) continue;
    const sent = header(`mcp-param-${name.toLowerCase()}`);
    if (sent === null) return `the ${JSON.stringify(param)} argument must also be sent in the Mcp-Param-${name} header`;
    const decoded = decodeParamHeader(sent);
    if (decoded === undefined) return `Mcp-Param-${name} is wrapped as Base64 (=?base64?…?=) but is not valid Base64`;
    if (decoded !== String(args[param])) return `Mcp-Param-${name} does not match the ${JSON.stringify(param)} argument in the body`;
  }
  return undefined;
}
