// The provider-neutral conversation and the streaming interface every provider implements.
// Providers only translate: tool specs and messages in, stream events out.
import type { ContentBlock, ErrorKind, JSONSchema } from '../tool/types.js';
import type { CacheTtl } from '../context/pricing.js';

export type ProviderName = 'anthropic' | 'openai' | 'openai-responses';

/** A tool as shown to a model. */
export interface ToolSpec {
  name: string;
  description: string;
  /** For a freeform tool, the one-string-parameter form every provider but Responses uses. */
  inputSchema: JSONSchema;
  /** Set for a freeform tool: the OpenAI Responses API gets it as a `custom` tool with this grammar. */
  freeform?: { syntax: 'lark' | 'regex'; definition: string };
  /**
   * Loaded by a ToolSearch result. Where the endpoint supports deferred tools (Anthropic
   * `defer_loading`), it is sent for reference only and the search result points at it, so the
   * cached prefix stays as it was; elsewhere it is an ordinary tool, after the others.
   */
  loadedBySearch?: boolean;
}

export type UserPart =
  | ContentBlock
  | { type: 'tool_result'; toolUseId: string; toolName: string; content: ContentBlock[]; isError: boolean; errorKind?: ErrorKind };

/**
 * Anthropic extended thinking, kept verbatim: the API wants the blocks (with their signatures)
 * sent back unchanged in the assistant turn that precedes a tool result. Other dialects drop them.
 */
export type ThinkingPart = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

export type AssistantPart =
  | { type: 'text'; text: string }
  | ThinkingPart
  /** input is the parsed object when the JSON was valid, else the raw string as streamed. */
  | { type: 'tool_use'; id: string; name: string; input: unknown };

export type Message = { role: 'user'; content: UserPart[] } | { role: 'assistant'; content: AssistantPart[] };

export interface ModelRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxTokens?: number;
  /**
   * Prompt caching: Anthropic gets cache_control breakpoints with this TTL, OpenAI gets `key` as
   * prompt_cache_key (it caches stable prefixes by itself). Absent: no caching hints.
   */
  cache?: PromptCache;
  /** Extended thinking (Anthropic) or reasoning effort (OpenAI); none asked for when absent. */
  reasoning?: ReasoningOptions;
}

export type ReasoningEffort = 'low' | 'medium' | 'high';

/** What `--thinking [tokens]` and `--effort LEVEL` ask for; see reasoning.ts for each dialect's reading. */
export interface ReasoningOptions {
  effort?: ReasoningEffort;
  /** Anthropic thinking budget in tokens (at least 1,024); an effort is derived for OpenAI. */
  budgetTokens?: number;
}

export interface PromptCache {
  ttl: CacheTtl;
  /** Routes a session's requests to the same cache (OpenAI prompt_cache_key): the session id. */
  key?: string;
  /**
   * Anthropic deferred tools for what ToolSearch loads: 'on' always, 'off' never (they are
   * appended to the tools instead), 'auto' (the default) unless the server refused them once.
   */
  deferredTools?: DeferredToolsMode;
}

export type DeferredToolsMode = 'auto' | 'on' | 'off';

/**
 * Tokens of one reply as the server counted them. inputTokens is the whole prompt, cached parts
 * included; the cache counts are set only when the server reports them (local servers do not).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens read from the cache (Anthropic cache_read_input_tokens, OpenAI cached_tokens). */
  cacheReadTokens?: number;
  /** Prompt tokens written to the cache (Anthropic cache_creation_input_tokens). */
  cacheWriteTokens?: number;
}

/**
 * Why a reply ended. `max_tokens`: cut off by a token limit (Anthropic max_tokens or
 * model_context_window_exceeded, Chat finish_reason length, Responses incomplete
 * max_output_tokens). `refusal`: the model declined or a content filter stopped it (Anthropic
 * refusal, OpenAI content_filter). `other`: anything else a server sends.
 */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'other';

export type ModelStreamEvent =
  | { type: 'text_delta'; text: string }
  /** A whole thinking block, at its end (its signature arrives last). */
  | { type: 'thinking'; part: ThinkingPart }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; json: string }
  /** Emitted as soon as one call's arguments are complete, so safe calls can start early. */
  | { type: 'tool_call_end'; index: number; id: string; name: string; input: string }
  | { type: 'message_end'; stopReason: StopReason; usage: Usage }
  /**
   * The reply broke off or stalled and is asked for again after `delayMs`: everything streamed
   * since the request began (or since the last retry) is void, and the reply starts over.
   */
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; reason: string };

export interface ModelProvider {
  readonly name: ProviderName;
  /** Streams one model reply. Throws ProviderError for failures after retries. */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
