// Where Anthropic prompt-cache breakpoints go. Pure. The API allows at most 4 `cache_control`
// markers and looks for a cached prefix at each one and up to 20 blocks before it, so:
//  1. the last tool the prompt renders (tools render first and change least; a deferred tool is
//     not rendered there),
//  2. the end of the system prompt,
//  3. the last block of the newest message (this request's whole prefix is written),
//  4. the last block of the previous request's newest message — exactly where request N put its
//     breakpoint 3, so request N+1 reads it back however many blocks the new turn added.
// Thinking blocks cannot carry a marker and empty text is rejected, so both are skipped.
import type Anthropic from '@anthropic-ai/sdk';
import type { CacheTtl } from './pricing.js';

/** The API's limit on cache_control markers per request. */
export const MAX_BREAKPOINTS = 4;

type Params = Anthropic.MessageCreateParamsStreaming;
type Block = Anthropic.ContentBlockParam;

export function cacheControl(ttl: CacheTtl): Anthropic.CacheControlEphemeral {
  // 5m is the API's default: leaving ttl out keeps the request valid on servers that predate it.
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

function canCarryMarker(block: Block): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  return !(block.type === 'text' && block.text === '');
}

/** Index of the last block in a message that may carry a marker, or -1. */
function markableIndex(content: readonly Block[]): number {
  for (let i = content.length - 1; i >= 0; i--) if (canCarryMarker(content[i])) return i;
  return -1;
}

function markMessage(message: Anthropic.MessageParam, marker: Anthropic.CacheControlEphemeral): Anthropic.MessageParam | undefined {
  const content: Block[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
  const at = markableIndex(content);
  if (at < 0) return undefined;
  content[at] = { ...content[at], cache_control: marker } as Block;
  return { ...message, content } as Anthropic.MessageParam;
}

/** Indexes of the messages that get a moving breakpoint: the newest, and the previous request's newest. */
export function movingBreakpointTargets(messages: readonly Anthropic.MessageParam[], room: number): number[] {
  const targets: number[] = [];
  for (let i = messages.length - 1; i >= 0 && targets.length < room; i--) {
    if (messages[i].role !== 'user') continue;
    targets.push(i);
  }
  return targets;
}

/** The params with breakpoints placed; nothing else changes. */
export function placeCacheBreakpoints(params: Params, ttl: CacheTtl): Params {
  const marker = cacheControl(ttl);
  let used = 0;
  const out: Params = { ...params };
  // The last tool the prompt renders: deferred tools (defer_loading) are not part of the prefix.
  const lastRendered = params.tools?.findLastIndex((tool) => !('defer_loading' in tool && tool.defer_loading === true)) ?? -1;
  if (params.tools && lastRendered >= 0) {
    const tools = [...params.tools];
    tools[lastRendered] = { ...tools[lastRendered], cache_control: marker } as Anthropic.ToolUnion;
    out.tools = tools;
    used++;
  }
  if (typeof params.system === 'string' && params.system !== '') {
    out.system = [{ type: 'text', text: params.system, cache_control: marker }];
    used++;
  }
  const messages = [...params.messages];
  for (const index of movingBreakpointTargets(messages, MAX_BREAKPOINTS - used)) {
    const marked = markMessage(messages[index], marker);
    if (marked) messages[index] = marked;
  }
  out.messages = messages;
  return out;
}
