// Script of a stand-in model server: one step per request, in order.

export interface StandinToolCall {
  /** Generated (stable per server) when left out. */
  id?: string;
  name: string;
  /** A string is sent verbatim (so broken JSON can be scripted); an object is JSON-encoded. */
  arguments: string | object;
  /** Responses only: a custom_tool_call whose raw input is `arguments` (a string), for freeform tools. */
  custom?: boolean;
}

export interface StandinUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** Reported as Anthropic cache_read_input_tokens / OpenAI cached_tokens. */
  cacheReadTokens?: number;
  /** Reported as Anthropic cache_creation_input_tokens. */
  cacheWriteTokens?: number;
}

/** One model reply. */
export interface ReplyStep {
  text?: string;
  /** Anthropic only: a thinking block streamed before the text, with its signature. */
  thinking?: { thinking: string; signature: string };
  toolCalls?: StandinToolCall[];
  usage?: StandinUsage;
  /**
   * Wire stop value instead of the natural one: Anthropic stop_reason, Chat finish_reason, or for
   * Responses an incomplete_details.reason (the response is then "incomplete").
   */
  stopReason?: string;
  /** Wait before answering. */
  delayMs?: number;
  /** Wait between streamed chunks. */
  chunkDelayMs?: number;
  /** Streamed replies: destroy the socket after this many SSE chunks. */
  cutAfterChunks?: number;
  /**
   * Streamed replies, after `chunks` SSE chunks: `error_event` sends the dialect's mid-stream
   * error (Anthropic's overloaded_error) and ends; `end` ends the response with no closing event;
   * `stall` sends nothing more and keeps the connection open.
   */
  breakAfter?: { chunks: number; kind: 'error_event' | 'end' | 'stall' };
  /** Accept the request and never answer (the connection stays open until the client closes it). */
  silent?: boolean;
}

/** An HTTP error reply. */
export interface FaultStep {
  status: number;
  /** JSON body; the dialect's error shape with a default message when left out. */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

export type ScriptStep = ReplyStep | FaultStep;

export type StandinDialect = 'anthropic' | 'openai' | 'openai-responses';

/** Shapes of OpenAI-compatible servers other than OpenAI's own (Ollama, vLLM, llama.cpp…). */
export interface OpenAIQuirks {
  /** Every tool call whole, all in one chunk (Ollama). */
  wholeToolCalls?: boolean;
  /** No `id` on tool calls. */
  omitIds?: boolean;
  /** No `index` on tool call deltas. */
  omitIndex?: boolean;
  /** `arguments` as a JSON object rather than a string. */
  objectArguments?: boolean;
  /** finish_reason "stop" even when the reply has tool calls. */
  finishReasonStop?: boolean;
}

export interface StandinOptions {
  dialect: StandinDialect;
  script: ScriptStep[];
  /** Only for 'openai'. */
  dialectQuirks?: OpenAIQuirks;
  /** Model id reported in replies (default "standin-model"). */
  model?: string;
  /**
   * Count each prompt (4 characters of the request JSON a token) and report it as the input
   * tokens, with cache reads and writes as the provider would bill them (Anthropic: the published
   * caching rules on the request's breakpoints; OpenAI: its automatic prefix cache).
   */
  countTokens?: boolean;
  /**
   * Refuse a prompt over this many tokens with the provider's own error (Anthropic 400 "prompt is
   * too long", OpenAI 400 context_length_exceeded), without using up a script step. Implies countTokens.
   */
  contextLimit?: number;
  /**
   * The answer to every request that offers no tools (a summarising request), given without
   * using up a script step; absent: such requests take the next step like any other.
   */
  replyWithoutTools?: ScriptStep;
  /**
   * Anthropic only. false: refuse a request with deferred tools (`defer_loading`) or
   * `tool_reference` blocks, as a server that predates the feature does (400 invalid_request_error
   * "Extra inputs are not permitted"). Default: accepted, as Anthropic's API does.
   */
  deferredTools?: boolean;
}

export interface Standin {
  /** Base URL for the SDK: the server root for Anthropic, `<root>/v1` for OpenAI. */
  url: string;
  /** Parsed JSON bodies of the model requests, in order (refused ones included). */
  requests: unknown[];
  /** The request bodies as the SDK sent them, byte for byte, parallel to `requests`. */
  rawBodies: string[];
  /** Requests refused for exceeding contextLimit. */
  refusedForLength(): number;
  /** Request headers, parallel to `requests`. */
  headers: Record<string, string | string[] | undefined>[];
  /** Replies the client stopped reading before they were complete. */
  clientAborts(): number;
  close(): Promise<void>;
}

/** A reply with defaults filled in, as the dialect writers get it. */
export interface Reply {
  text: string;
  thinking?: { thinking: string; signature: string };
  toolCalls: { id: string; name: string; arguments: string; custom?: boolean }[];
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  stopReason?: string;
  model: string;
  /** Stable per server, for message and item ids. */
  serial: number;
}

export interface DialectWriter {
  /** Path the SDK posts to. */
  path: string;
  /** Appended to the server root to form the SDK base URL. */
  urlSuffix: string;
  /** SSE frames ("event:…\ndata:…\n\n") for a streamed reply. */
  frames(reply: Reply, request: Record<string, unknown>, quirks: OpenAIQuirks): string[];
  /** JSON body for a non-streamed reply. */
  body(reply: Reply, quirks: OpenAIQuirks): unknown;
  errorBody(status: number, message: string): unknown;
  /** The SSE frame of an error reported inside a stream that has begun. */
  errorFrame(message: string): string;
  /** The provider's own answer to a prompt past the model's window. */
  contextLimitBody(tokens: number, limit: number): unknown;
}
