// One MCP tool → the Tool contract. The runtime never branches on where a tool came from: the
// adapted tool goes through the same validation, hooks, permissions, scheduler and budgets.
import { defineTool } from '../tool/define.js';
import { RESPONSE_FORMAT_PARAMETER } from '../tool/response-format.js';
import type { AnyTool, ContentBlock, ResponseFormats, ToolContext, ToolResultContent } from '../tool/types.js';
import type { McpToolAnnotations, McpToolInfo } from './tools.js';

/**
 * Only a runaway description is cut. A description is often the tool's usage rules: the longest of
 * 108 tools of 12 real MCP servers ran to about 6,500 characters, so the old cut at 2,048 took the
 * rules off 9 of them. Neither the MCP spec (Tool.description) nor OpenAI's or Anthropic's tool
 * definitions set a length limit (OpenAI limits the function name, to 64 characters), so this is a
 * guard against a server that sends a manual (or megabytes) every turn: about 4,000 tokens, 2.5× the
 * longest real one. Deferred tools (ToolSearch) do not cost their description until loaded.
 */
export const MAX_DESCRIPTION_CHARS = 16_384;

export interface McpToolFlags {
  readOnly: boolean;
  concurrencySafe: boolean;
  destructive: boolean;
}

/**
 * Annotations are hints (MCP spec, ToolAnnotations): an untrusted server may only make a tool
 * look more dangerous, never less. Spec defaults: readOnlyHint false, destructiveHint true.
 */
export function flagsFromAnnotations(annotations: McpToolAnnotations | undefined, trusted: boolean): McpToolFlags {
  const readOnly = trusted && annotations?.readOnlyHint === true;
  if (readOnly) return { readOnly: true, concurrencySafe: true, destructive: false };
  const destructive = trusted ? annotations?.destructiveHint !== false : true;
  return { readOnly: false, concurrencySafe: false, destructive };
}

/** The result of tools/call as the server sent it (already shape-checked by the SDK). */
export interface McpCallOutput {
  content?: unknown[];
  isError?: boolean;
  structuredContent?: unknown;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** base64 length → bytes. */
function decodedSize(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

function resourceBlock(resource: unknown): ContentBlock {
  const uri = str(field(resource, 'uri')) ?? '(no uri)';
  const mime = str(field(resource, 'mimeType'));
  const text = str(field(resource, 'text'));
  if (text !== undefined) return { type: 'text', text: `[resource ${uri}${mime ? ` (${mime})` : ''}]\n${text}` };
  const blob = str(field(resource, 'blob')) ?? '';
  return { type: 'text', text: `[resource ${uri}: binary${mime ? ` ${mime}` : ''}, ${decodedSize(blob)} bytes, not shown]` };
}

export function mapContentBlock(block: unknown): ContentBlock {
  switch (field(block, 'type')) {
    case 'text':
      return { type: 'text', text: str(field(block, 'text')) ?? '' };
    case 'image':
      return { type: 'image', mediaType: str(field(block, 'mimeType')) ?? 'image/png', data: str(field(block, 'data')) ?? '' };
    case 'audio': {
      const data = str(field(block, 'data')) ?? '';
      return { type: 'text', text: `[audio ${str(field(block, 'mimeType')) ?? ''}, ${decodedSize(data)} bytes, not shown]` };
    }
    case 'resource':
      return resourceBlock(field(block, 'resource'));
    case 'resource_link': {
      const name = str(field(block, 'name')) ?? '';
      const description = str(field(block, 'description'));
      return { type: 'text', text: `[resource link ${name} ${str(field(block, 'uri')) ?? ''}${description ? `: ${description}` : ''}]` };
    }
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}

export function mapCallResult(output: McpCallOutput): ToolResultContent {
  const content = (output.content ?? []).map(mapContentBlock);
  const structured = output.structuredContent;
  // A result with only structuredContent still has to say something to the model.
  if (content.length === 0) {
    content.push({ type: 'text', text: structured === undefined ? '(no output)' : JSON.stringify(structured, null, 2) });
  }
  return { content, ...(output.isError ? { isError: true } : {}), ...(structured === undefined ? {} : { structured }) };
}

export function describeTool(server: string, tool: McpToolInfo): string {
  const text = tool.description?.trim() || tool.title || tool.annotations?.title || `Tool "${tool.name}" of MCP server "${server}".`;
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS)}… (description truncated)` : text;
}

/** Text a concise MCP result keeps; the budget spills the rest to a file the model can Read. */
export const MCP_CONCISE_CHARS = 2_000;

/** The formats of a tool whose server opted in with `"responseFormats": true`. */
export const MCP_RESPONSE_FORMATS: ResponseFormats = {
  options: {
    concise: `the text of the result within ${MCP_CONCISE_CHARS.toLocaleString('en-US')} characters (the rest saved to a file you can Read), no images, for the gist`,
    detailed: 'the result as the server sent it',
  },
  default: 'detailed',
  maxResultChars: { concise: MCP_CONCISE_CHARS },
};

function mapConciseResult(output: McpCallOutput): ToolResultContent {
  const result = mapCallResult(output);
  const images = result.content.filter((block) => block.type === 'image').length;
  if (images === 0) return result;
  const note = `[${images} image(s) left out; call again with "${RESPONSE_FORMAT_PARAMETER}": "detailed" to see them]`;
  return { ...result, content: [...result.content.filter((block) => block.type !== 'image'), { type: 'text', text: note }] };
}

export type McpCaller = (toolName: string, input: Record<string, unknown>, ctx: ToolContext) => Promise<McpCallOutput>;

export interface AdaptOptions {
  server: string;
  /** The name the model uses (see names.ts); the original is kept for the call. */
  exposedName: string;
  trustAnnotations: boolean;
  /** Offer MCP_RESPONSE_FORMATS (the server's `responseFormats` setting), unless the tool has its own parameter. */
  responseFormats?: boolean;
  call: McpCaller;
}

export function adaptMcpTool(tool: McpToolInfo, options: AdaptOptions): AnyTool {
  const flags = flagsFromAnnotations(tool.annotations, options.trustAnnotations);
  const title = tool.title ?? tool.annotations?.title;
  const ownParameter = Object.hasOwn((tool.inputSchema.properties ?? {}) as object, RESPONSE_FORMAT_PARAMETER);
  const formats = options.responseFormats === true && !ownParameter ? MCP_RESPONSE_FORMATS : undefined;
  return defineTool<Record<string, unknown>, McpCallOutput>({
    name: options.exposedName,
    source: 'mcp',
    server: options.server,
    searchHint: [options.server, tool.name, title].filter(Boolean).join(' '),
    description: describeTool(options.server, tool),
    inputJSONSchema: tool.inputSchema,
    responseFormats: formats,
    isReadOnly: () => flags.readOnly,
    isConcurrencySafe: () => flags.concurrencySafe,
    isDestructive: () => flags.destructive,
    // MCP has notifications/cancelled, so an interrupted call can stop at once.
    interruptBehavior: () => 'cancel',
    call: (input, ctx) => options.call(tool.name, input, ctx),
    toModel: (output, _budget, format) => (format === 'concise' ? mapConciseResult(output) : mapCallResult(output)),
  });
}
