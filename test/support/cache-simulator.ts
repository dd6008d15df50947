// Prices recorded requests by Anthropic's published prompt-caching rules, so tests and benchmarks
// can say what a session would be billed without the network:
// - the prompt renders as tools, then system, then messages, one block per tool / system text /
//   content block; a block with cache_control is a breakpoint (at most 4);
// - at each breakpoint the cache is looked up at that block and up to 20 blocks before it; the
//   longest cached prefix found is read (billed 0.1×);
// - each breakpoint whose prefix is not cached and is at least 1,024 tokens long is written
//   (billed 1.25× for the part past what was read); the rest is billed 1×.
// - a deferred tool (`defer_loading: true`) is not rendered with the tools: its definition is
//   rendered where a `tool_reference` block in a tool_result names it (the API expands it there);
// Tokens are estimated at 4 characters of a block's JSON (the same figure for every request, so
// ratios between sessions hold). Entries never expire: the scripted sessions run in seconds.
import { createHash } from 'node:crypto';

export const LOOKBACK_BLOCKS = 20;
export const MIN_CACHEABLE_TOKENS = 1_024;
export const READ_MULTIPLIER = 0.1;
export const WRITE_MULTIPLIER = 1.25;

export interface BilledRequest {
  /** All prompt tokens. */
  totalTokens: number;
  /** Tokens billed at the base rate. */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** In base-input-token units: input + 1.25 × write + 0.1 × read. */
  billed: number;
}

interface RenderedBlock {
  tokens: number;
  breakpoint: boolean;
  json: string;
}

type Json = Record<string, unknown>;

function strip(block: unknown): { json: string; breakpoint: boolean } {
  if (typeof block !== 'object' || block === null) return { json: JSON.stringify(block), breakpoint: false };
  const { cache_control, ...rest } = block as Json;
  return { json: JSON.stringify(rest), breakpoint: cache_control !== undefined && cache_control !== null };
}

export function tokensOf(json: string): number {
  return Math.ceil(json.length / 4);
}

const isDeferred = (tool: unknown): boolean => typeof tool === 'object' && tool !== null && (tool as Json).defer_loading === true;

/** A tool_result with each tool_reference replaced by the definition it loads. */
function expandReferences(block: unknown, deferred: ReadonlyMap<string, Json>): unknown {
  if (typeof block !== 'object' || block === null || (block as Json).type !== 'tool_result') return block;
  const content = (block as Json).content;
  if (!Array.isArray(content)) return block;
  return {
    ...(block as Json),
    content: content.map((part: Json) =>
      part.type === 'tool_reference' ? { type: 'tool_reference', definition: deferred.get(String(part.tool_name)) ?? null } : part,
    ),
  };
}

/** The blocks of an Anthropic Messages request body in rendering order. */
export function renderBlocks(body: Json): RenderedBlock[] {
  const out: RenderedBlock[] = [];
  const push = (block: unknown): void => {
    const { json, breakpoint } = strip(block);
    out.push({ json, breakpoint, tokens: tokensOf(json) });
  };
  const tools = (body.tools as unknown[] | undefined) ?? [];
  const deferred = new Map<string, Json>();
  for (const tool of tools) {
    if (!isDeferred(tool)) push(tool);
    else {
      const { cache_control: _marker, defer_loading: _deferred, ...definition } = tool as Json;
      deferred.set(String(definition.name), definition);
    }
  }
  if (typeof body.system === 'string') push({ type: 'text', text: body.system });
  else for (const block of (body.system as unknown[] | undefined) ?? []) push(block);
  for (const message of (body.messages as Json[] | undefined) ?? []) {
    const content = message.content;
    if (typeof content === 'string') push({ role: message.role, type: 'text', text: content });
    else
      for (const [i, raw] of (content as unknown[]).entries()) {
        const block = expandReferences(raw, deferred);
        push(i === 0 ? { role: message.role, ...(block as Json) } : block);
      }
  }
  return out;
}

export class AnthropicCacheSimulator {
  private readonly cached = new Set<string>();

  bill(body: Json): BilledRequest {
    const blocks = renderBlocks(body);
    const keys: string[] = [];
    const prefixTokens: number[] = [];
    const hash = createHash('sha256');
    let tokens = 0;
    for (const block of blocks) {
      hash.update(`${block.json}\u0000`);
      keys.push(hash.copy().digest('hex'));
      tokens += block.tokens;
      prefixTokens.push(tokens);
    }
    const breakpoints = blocks.flatMap((block, i) => (block.breakpoint ? [i] : []));
    let hit = -1;
    for (const at of breakpoints) {
      for (let j = at; j >= Math.max(0, at - LOOKBACK_BLOCKS); j--) {
        if (this.cached.has(keys[j])) {
          hit = Math.max(hit, j);
          break;
        }
      }
    }
    const read = hit >= 0 ? prefixTokens[hit] : 0;
    let writtenTo = read;
    for (const at of breakpoints) {
      if (at <= hit || prefixTokens[at] < MIN_CACHEABLE_TOKENS) continue;
      this.cached.add(keys[at]);
      writtenTo = Math.max(writtenTo, prefixTokens[at]);
    }
    const write = writtenTo - read;
    const input = tokens - read - write;
    return {
      totalTokens: tokens,
      inputTokens: input,
      cacheReadTokens: read,
      cacheWriteTokens: write,
      billed: input + WRITE_MULTIPLIER * write + READ_MULTIPLIER * read,
    };
  }
}

/**
 * OpenAI caches automatically: the longest prefix of the prompt seen before, in 128-token steps
 * from 1,024 tokens, is read at the cached rate. Approximated on the request's JSON text.
 */
export class OpenAIPrefixCache {
  private readonly seen: string[] = [];

  cachedTokens(raw: string): number {
    let best = 0;
    for (const earlier of this.seen) {
      let i = 0;
      const max = Math.min(earlier.length, raw.length);
      while (i < max && earlier.charCodeAt(i) === raw.charCodeAt(i)) i++;
      best = Math.max(best, i);
    }
    this.seen.push(raw);
    const tokens = tokensOf(raw.slice(0, best));
    return tokens < MIN_CACHEABLE_TOKENS ? 0 : tokens - (tokens % 128);
  }
}
