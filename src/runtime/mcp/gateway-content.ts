// The pool's tools and results in MCP's shapes. A proxied server's own definition and result go
// out as the server sent them (title, outputSchema, `$schema`, audio, embedded resources,
// resource links, annotations), unless wield changed the result on the way (a hook's
// replacement, a budget's cut): then the client gets what the model would.
import { type CallToolResult, type Tool as McpTool, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import type { AnyTool, ToolCallResult } from '../tool/types.js';
import { mapCallResult, type McpCallOutput } from './adapt.js';
import { isRecord } from '../util/record.js';

/** A flag evaluated for "any input"; a tool whose flag throws on `{}` gets the cautious answer. */
function flag(check: (input: Record<string, unknown>) => boolean, fallback: boolean): boolean {
  try {
    return check({});
  } catch {
    return fallback;
  }
}

/** `upstream` is the definition a proxied server listed, when the tool is one of those. */
export function toMcpTool(tool: AnyTool, cwd: string, upstream?: Record<string, unknown>): McpTool {
  if (upstream) return { ...upstream, name: tool.name } as McpTool;
  const readOnly = flag(tool.isReadOnly, false);
  const schema = tool.inputJSONSchema;
  return {
    name: tool.name,
    description: tool.description({ cwd }),
    // MCP requires an object schema at the top (ToolSchema.inputSchema.type === "object").
    inputSchema: { ...schema, type: 'object' },
    annotations: {
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && flag(tool.isDestructive, true),
      openWorldHint: tool.source === 'mcp' || tool.name === 'WebFetch',
    },
  };
}

function sameContent(a: ToolCallResult['content'], b: ToolCallResult['content']): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The proxied server's result without its own serverInfo (2026-07-28 `_meta`): the gateway answers as itself. */
function withoutServerInfo(raw: McpCallOutput): McpCallOutput {
  const meta = (raw as { _meta?: Record<string, unknown> })._meta;
  if (!meta || !(SERVER_INFO_META_KEY in meta)) return raw;
  const { [SERVER_INFO_META_KEY]: _ignored, ...rest } = meta;
  return { ...raw, _meta: rest } as McpCallOutput;
}

/**
 * The pipeline's result → tools/call result. `raw` is what a proxied server answered, when the
 * call reached one: passed through whole if the pipeline's result is exactly its mapping.
 */
export function toCallToolResult(result: ToolCallResult, raw?: McpCallOutput): CallToolResult {
  if (raw && (raw.isError === true) === result.isError && sameContent(mapCallResult(raw).content, result.content)) {
    return { ...withoutServerInfo(raw), content: raw.content ?? [] } as CallToolResult;
  }
  const content = result.content.map((block) =>
    block.type === 'text'
      ? { type: 'text' as const, text: block.text }
      : { type: 'image' as const, data: block.data, mimeType: block.mediaType },
  );
  const structured = result.structured;
  return { content, isError: result.isError, ...(isRecord(structured) ? { structuredContent: structured } : {}) };
}

/**
 * The `progress` of the next MCP progress notification. MCP's must increase with each one, so a
 * tool's own value goes out as reported while it does (a first 0 included), and otherwise (no
 * value, or one not above the last) the last plus one: tools that report only messages get a
 * running count from 1.
 */
export function nextProgress(last: number | undefined, reported: number | undefined): number {
  if (reported !== undefined && (last === undefined || reported > last)) return reported;
  return (last ?? 0) + 1;
}
