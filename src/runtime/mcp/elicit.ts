// Elicitation requests from MCP servers, as wield hands them to the interface: the interactive
// UI answers through a McpElicitHandler; with no one to ask (`-p`), the request is declined and
// the person is told. No SDK import here: the CLI loads this before any server is configured.
import type { ElicitResult } from '@modelcontextprotocol/client';

export interface McpElicitation {
  server: string;
  message: string;
  mode: 'form' | 'url';
  /** Form mode: the JSON Schema of the answer (flat object of primitive fields). */
  requestedSchema?: Record<string, unknown>;
  /** URL mode: the page the person should open. */
  url?: string;
}

/** Answers a server's elicitation; the interactive UI provides one, `-p` refuses. */
export type McpElicitHandler = (request: McpElicitation, signal: AbortSignal) => Promise<ElicitResult>;

type FieldSchema = { default?: unknown };

/**
 * For non-interactive runs a server may be set to `"elicitation": "accept-defaults"`: the answer
 * is the defaults its form proposes, when every required field has one; otherwise a decline.
 */
export function defaultsAnswer(schema: Record<string, unknown> | undefined): ElicitResult {
  const properties = (schema?.properties ?? {}) as Record<string, FieldSchema>;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  if (required.some((name) => properties[name]?.default === undefined)) return { action: 'decline' };
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [name, field] of Object.entries(properties)) {
    if (field.default !== undefined) content[name] = field.default as string | number | boolean | string[];
  }
  return { action: 'accept', content };
}

/** What a non-interactive run says as it declines: the question, and what would answer it. Pure. */
export function declineNotice(request: McpElicitation): string {
  return (
    `wield: MCP server "${request.server}" asked: ${JSON.stringify(request.message.slice(0, 300))}; declined, since no one can answer ` +
    'in this non-interactive run (set "elicitation": "accept-defaults" on the server to accept its proposed defaults; ' +
    "a permission question is answered by the server's own rules instead, e.g. `wield mcp serve --allow RULE`)\n"
  );
}

/** For non-interactive runs: a clear refusal, said on stderr so the person knows what was asked. */
export const declineElicitation: McpElicitHandler = async (request) => {
  process.stderr.write(declineNotice(request));
  return { action: 'decline' };
};

/**
 * The pages a server needs opened before a call can run (URL elicitation by error, -32042), asked
 * one by one; true when every one was accepted (the call is then made again), false with no one
 * to ask.
 */
export async function askToOpenPages(
  elicit: McpElicitHandler | undefined,
  server: string,
  pages: readonly { url: string; message: string }[],
  signal: AbortSignal,
): Promise<boolean> {
  if (!elicit) return false;
  for (const page of pages) {
    const answer = await elicit({ server, message: page.message, mode: 'url', url: page.url }, signal);
    if (answer.action !== 'accept') return false;
  }
  return true;
}
