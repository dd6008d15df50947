// The connected MCP servers' resources and prompts, for wield itself (not the gateway's
// pass-through, see upstream.ts): functions that list and read resources (`server:uri`) and list
// and get prompts, each failure a value with a kind; and the two tools the model calls,
// ListMcpResources and ReadMcpResource, which run through the pipeline like any tool (rules such
// as `ReadMcpResource(server)` or `ReadMcpResource(server:file:///docs/*)`, result budgets).
import type { Client, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplateType } from '@modelcontextprotocol/client';
import picomatch from 'picomatch';
import { z } from 'zod';
import { messageOf } from '../util/message.js';
import { defineTool, READ_ONLY } from '../tool/define.js';
import type { AnyTool, ContentBlock } from '../tool/types.js';
import { ToolError } from '../tool/types.js';
import type { McpServerStatus } from './server-status.js';
import { allPages } from './pages.js';
import { parseResourceReference } from './reference.js';

/** What the functions need from the manager: the servers' states and the connected clients. */
export interface McpResourceSource {
  list(): McpServerStatus[];
  liveClient(server: string): Client | undefined;
  /** Waits (bounded) for servers still connecting, so a listing right after start sees them. */
  settleConnecting?(signal?: AbortSignal): Promise<string[]>;
}

export type McpAccessError = {
  kind: 'bad-reference' | 'unknown-server' | 'not-connected' | 'unsupported' | 'failed';
  message: string;
};

export type Outcome<T> = ({ ok: true } & T) | ({ ok: false } & McpAccessError);

function clientFor(source: McpResourceSource, server: string, capability: 'resources' | 'prompts'): Outcome<{ client: Client }> {
  const status = source.list().find((s) => s.name === server);
  if (!status) {
    const names = source.list().map((s) => `"${s.name}"`);
    return { ok: false, kind: 'unknown-server', message: `No MCP server named "${server}" (configured: ${names.join(', ') || 'none'}).` };
  }
  const client = source.liveClient(server);
  if (!client) {
    const why = status.error ? `: ${status.error}` : '';
    return { ok: false, kind: 'not-connected', message: `MCP server "${server}" is ${status.state}${why}.` };
  }
  if (!client.getServerCapabilities()?.[capability]) {
    return { ok: false, kind: 'unsupported', message: `MCP server "${server}" offers no ${capability}.` };
  }
  return { ok: true, client };
}

export interface ServerResources {
  server: string;
  resources: Resource[];
  templates: ResourceTemplateType[];
  /** Why this server's list is missing (not connected, failed). */
  error?: McpAccessError;
}

/** Resources and templates of every connected server offering them (or of one server). */
export async function listMcpResources(source: McpResourceSource, signal: AbortSignal, server?: string): Promise<ServerResources[]> {
  await source.settleConnecting?.(signal);
  const names = server ? [server] : source.list().map((s) => s.name);
  return Promise.all(
    names.map(async (name): Promise<ServerResources> => {
      const found = clientFor(source, name, 'resources');
      if (!found.ok) return { server: name, resources: [], templates: [], error: found };
      const { client } = found;
      try {
        const [resources, templates] = await Promise.all([
          allPages(async (cursor) => {
            const page = await client.listResources(cursor ? { cursor } : {}, { signal });
            return { items: page.resources, nextCursor: page.nextCursor };
          }),
          allPages(async (cursor) => {
            const page = await client.listResourceTemplates(cursor ? { cursor } : {}, { signal });
            return { items: page.resourceTemplates, nextCursor: page.nextCursor };
          }).catch(() => []),
        ]);
        return { server: name, resources, templates };
      } catch (error) {
        return { server: name, resources: [], templates: [], error: { kind: 'failed', message: messageOf(error) } };
      }
    }),
  );
}

/** Reads `server:uri` (or server and uri apart): the contents as the server sent them. */
export async function readMcpResource(
  source: McpResourceSource,
  reference: string | { server: string; uri: string },
  signal: AbortSignal,
): Promise<Outcome<{ server: string; uri: string; result: ReadResourceResult }>> {
  const parts = typeof reference === 'string' ? parseResourceReference(reference) : reference;
  if (!parts) return { ok: false, kind: 'bad-reference', message: `Not a resource reference: "${reference}" (expected server:uri).` };
  await source.settleConnecting?.(signal);
  const found = clientFor(source, parts.server, 'resources');
  if (!found.ok) return found;
  try {
    return { ok: true, ...parts, result: await found.client.readResource({ uri: parts.uri }, { signal }) };
  } catch (error) {
    return { ok: false, kind: 'failed', message: `MCP server "${parts.server}" could not read ${parts.uri}: ${messageOf(error)}` };
  }
}

export interface ServerPrompt extends Prompt {
  server: string;
}

/** Prompts of every connected server offering them, each with its server (for slash commands). */
export async function listMcpPrompts(source: McpResourceSource, signal: AbortSignal): Promise<ServerPrompt[]> {
  const lists = await Promise.all(
    source.list().map(async ({ name }) => {
      const found = clientFor(source, name, 'prompts');
      if (!found.ok) return [];
      const { client } = found;
      const prompts = await allPages(async (cursor) => {
        const page = await client.listPrompts(cursor ? { cursor } : {}, { signal });
        return { items: page.prompts, nextCursor: page.nextCursor };
      }).catch(() => []);
      return prompts.map((prompt) => ({ ...prompt, server: name }));
    }),
  );
  return lists.flat();
}

/** One prompt of one server, filled with its arguments: the messages to send. */
export async function getMcpPrompt(
  source: McpResourceSource,
  server: string,
  name: string,
  args: Record<string, string>,
  signal: AbortSignal,
): Promise<Outcome<{ result: GetPromptResult }>> {
  const found = clientFor(source, server, 'prompts');
  if (!found.ok) return found;
  try {
    return { ok: true, result: await found.client.getPrompt({ name, arguments: args }, { signal }) };
  } catch (error) {
    return { ok: false, kind: 'failed', message: `MCP server "${server}" could not give prompt "${name}": ${messageOf(error)}` };
  }
}

/** A resource's contents as model content: text as text, images as images, other bytes described. Pure. */
export function resourceContent(server: string, result: ReadResourceResult): ContentBlock[] {
  return result.contents.map((item): ContentBlock => {
    const mime = item.mimeType ?? 'unknown type';
    if ('text' in item && typeof item.text === 'string') return { type: 'text', text: `[${server}:${item.uri}] (${mime})\n${item.text}` };
    const blob = 'blob' in item && typeof item.blob === 'string' ? item.blob : '';
    if (item.mimeType?.startsWith('image/')) return { type: 'image', mediaType: item.mimeType, data: blob };
    // A server may send text as a blob (MCP allows either for any type): text/* that decodes is text.
    const text = item.mimeType?.startsWith('text/') ? utf8Text(blob) : undefined;
    if (text !== undefined) return { type: 'text', text: `[${server}:${item.uri}] (${mime})\n${text}` };
    const bytes = Math.floor((blob.length * 3) / 4);
    return { type: 'text', text: `[${server}:${item.uri}] (${mime}): binary content, ${bytes} bytes, not shown` };
  });
}

/** The base64 blob as UTF-8 text, or undefined when its bytes are not valid UTF-8. */
function utf8Text(blob: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(blob, 'base64'));
  } catch {
    return undefined;
  }
}

function listingText(lists: ServerResources[]): string {
  const lines: string[] = [];
  for (const { server, resources, templates, error } of lists) {
    if (error) {
      if (error.kind !== 'unsupported') lines.push(`${server}: ${error.message}`);
      continue;
    }
    for (const r of resources) lines.push(`${server}:${r.uri} — ${[r.name, r.mimeType, r.description].filter(Boolean).join(' · ')}`);
    for (const t of templates) lines.push(`${server}:${t.uriTemplate} (template) — ${[t.name, t.description].filter(Boolean).join(' · ')}`);
  }
  return lines.length > 0 ? lines.join('\n') : 'No MCP server offers resources.';
}

/** Rule content for ReadMcpResource: `server`, or `server:` followed by a URI glob. Pure. */
export function resourceRuleMatches(rule: string, server: string, uri: string): boolean {
  const parts = parseResourceReference(rule);
  if (!parts) return rule === server;
  return parts.server === server && picomatch.isMatch(uri, parts.uri, { dot: true });
}

/** ListMcpResources and ReadMcpResource, for the model. */
export function createResourceTools(source: McpResourceSource): AnyTool[] {
  const list = defineTool({
    name: 'ListMcpResources',
    source: 'builtin',
    searchHint: 'mcp resources list files documents server data',
    description:
      'Lists the resources (and resource templates) of the connected MCP servers, as server:uri lines; read one with ReadMcpResource.',
    inputSchema: z.object({ server: z.string().optional().describe('Only this server') }),
    ...READ_ONLY,
    call: async ({ server }, ctx) => listMcpResources(source, ctx.signal, server),
    toModel: (lists) => ({
      content: [{ type: 'text', text: listingText(lists) }],
      isError: lists.length === 1 && lists[0].error !== undefined,
    }),
  });
  const read = defineTool({
    name: 'ReadMcpResource',
    source: 'builtin',
    searchHint: 'mcp resource read fetch contents uri server',
    description: 'Reads one resource of a connected MCP server, by the server name and the URI ListMcpResources gave.',
    inputSchema: z.object({ server: z.string().min(1).describe('The MCP server'), uri: z.string().min(1).describe('The resource URI') }),
    ...READ_ONLY,
    permissionMatcher:
      ({ server, uri }) =>
      (rule) =>
        resourceRuleMatches(rule, server, uri),
    call: async ({ server, uri }, ctx) => {
      const outcome = await readMcpResource(source, { server, uri }, ctx.signal);
      if (!outcome.ok) throw new ToolError(outcome.message);
      return outcome;
    },
    toModel: (outcome) => ({ content: resourceContent(outcome.server, outcome.result) }),
  });
  return [list, read];
}
