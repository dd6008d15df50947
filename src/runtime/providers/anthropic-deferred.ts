// Anthropic deferred tools for what ToolSearch loads. Pure.
// A tool sent with `defer_loading: true` is left out of the rendered tool list (so out of the
// cached prefix) and loaded where a `tool_reference` block names it inside a tool_result; a search
// of the client's own ("custom tool search") answers with a tool_result whose content is one
// `{"type": "tool_reference", "tool_name": …}` block per tool found. Wire format as in the SDK's
// types (@anthropic-ai/sdk 1.14: Tool.defer_loading, ToolReferenceBlockParam in
// ToolResultBlockParam.content), Anthropic's tool-search documentation
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool, "custom tool
// search") and its cookbook (tool_search_alternate_approaches), which sends the beta header below.
// wield keeps its own ranking: the references come in the order ToolSearch listed the tools.
// Where the request carries no deferred tool, nothing here changes it.
import type Anthropic from '@anthropic-ai/sdk';
import { namesInResultText, TOOL_SEARCH_NAME } from '../search/result-text.js';

/** The beta the cookbook enables tool_reference with; a server past the beta ignores it. */
export const DEFERRED_TOOLS_BETA = 'advanced-tool-use-2025-11-20';

type Params = Anthropic.MessageCreateParamsStreaming;

export function isDeferred(tool: Anthropic.ToolUnion): boolean {
  return 'defer_loading' in tool && tool.defer_loading === true;
}

function nameOf(tool: Anthropic.ToolUnion): string {
  return 'name' in tool && typeof tool.name === 'string' ? tool.name : '';
}

export function usesDeferredTools(params: Params): boolean {
  return (params.tools ?? []).some(isDeferred);
}

/** ToolSearch results as tool_reference blocks for the deferred tools they list, in ToolSearch's order. */
function referencing(
  message: Anthropic.MessageParam,
  searchIds: ReadonlySet<string>,
  deferred: ReadonlySet<string>,
): Anthropic.MessageParam {
  if (message.role !== 'user' || typeof message.content === 'string') return message;
  let changed = false;
  const content = message.content.map((block): Anthropic.ContentBlockParam => {
    if (block.type !== 'tool_result' || !searchIds.has(block.tool_use_id) || block.is_error === true || !Array.isArray(block.content))
      return block;
    const text = block.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    const names = namesInResultText(text).filter((name) => deferred.has(name));
    if (names.length === 0) return block;
    changed = true;
    // References only: the API expands each into the tool's definition at this point. The names
    // ToolSearch could not find (if any) are left out with the text: the model sees what loaded.
    return { ...block, content: names.map((name) => ({ type: 'tool_reference' as const, tool_name: name })) };
  });
  return changed ? { ...message, content } : message;
}

/**
 * The params with the named tools deferred and the ToolSearch results that found them turned
 * into references. `loaded` are the tools a ToolSearch result loaded (ToolSpec.loadedBySearch).
 */
export function withDeferredTools(params: Params, loaded: ReadonlySet<string>): Params {
  if (loaded.size === 0 || params.tools === undefined) return params;
  const tools = params.tools.map((tool) => (loaded.has(nameOf(tool)) ? { ...tool, defer_loading: true } : tool));
  const deferred = new Set(tools.filter(isDeferred).map(nameOf));
  if (deferred.size === 0) return params;
  const searchIds = new Set<string>();
  for (const message of params.messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_use' && block.name === TOOL_SEARCH_NAME) searchIds.add(block.id);
  }
  return { ...params, tools, messages: params.messages.map((m) => referencing(m, searchIds, deferred)) };
}

/**
 * Whether a failed request was refused for the deferred-tools feature itself (a server that
 * predates it, or a local Anthropic-compatible one): a 400 naming defer_loading, tool_reference
 * or the beta. 'auto' then sends the same request again with the tools appended instead.
 */
export function isDeferredToolsRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { status?: unknown }).status;
  return status === 400 && /defer_loading|tool_reference|advanced-tool-use|anthropic-beta/i.test(error.message);
}
