// OpenAI Chat Completions: streamed chunks → neutral events, and the provider around the SDK.
import type OpenAI from 'openai';
import { ChatCallJoiner, type RawToolCallDelta } from './openai-chat-calls.js';
import { toChatParams } from './openai-chat-request.js';
import { streamingProvider, type StreamTimeouts } from './provider.js';
import type { RetryOptions } from './retry.js';
import type { StrictMode } from './strict.js';
import { ProviderError, type ModelProvider, type ModelStreamEvent, type StopReason, type Usage } from './types.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

type OpenAISdk = typeof import('openai');

/** Servers such as Ollama answer "stop" even when the reply is tool calls, so calls decide. */
function stopReason(finish: string, calls: number): StopReason {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'content_filter') return 'refusal';
  if (calls > 0) return 'tool_use';
  if (finish === 'stop' || finish === 'tool_calls' || finish === 'function_call') return 'end_turn';
  return 'other';
}

export async function* mapChatStream(chunks: AsyncIterable<OpenAI.ChatCompletionChunk>): AsyncGenerator<ModelStreamEvent> {
  const joiner = new ChatCallJoiner();
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let finish: string | undefined;
  for await (const chunk of chunks) {
    if (chunk.usage) {
      // prompt_tokens includes the cached part; OpenAI bills no cache write.
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens;
      usage = {
        inputTokens: chunk.usage.prompt_tokens ?? 0,
        outputTokens: chunk.usage.completion_tokens ?? 0,
        ...(typeof cached === 'number' ? { cacheReadTokens: cached } : {}),
      };
    }
    const choice = chunk.choices?.[0];
    if (choice === undefined) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text_delta', text: delta.content };
    const toolCalls: unknown = delta.tool_calls;
    if (Array.isArray(toolCalls)) {
      for (const call of toolCalls as RawToolCallDelta[]) yield* joiner.push(call);
    }
    if (choice.finish_reason) {
      finish = choice.finish_reason;
      yield* joiner.endOpen();
    }
  }
  if (finish === undefined) {
    throw new ProviderError('The Chat Completions stream ended without a finish_reason: the reply is incomplete.', undefined, true);
  }
  yield { type: 'message_end', stopReason: stopReason(finish, joiner.count), usage };
}

function isOfficial(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

export function createOpenAIClient(sdk: OpenAISdk, config: { apiKey: string; baseURL?: string }): { client: OpenAI; baseURL: string } {
  const baseURL = config.baseURL ?? OPENAI_DEFAULT_BASE_URL;
  // Explicit values so the SDK reads nothing from the environment; retries are ours.
  const client = new sdk.default({
    apiKey: config.apiKey,
    baseURL,
    organization: null,
    project: null,
    maxRetries: 0,
    logLevel: 'off',
  });
  return { client, baseURL };
}

export function createOpenAIChatProvider(
  sdk: OpenAISdk,
  config: { apiKey: string; baseURL?: string },
  retry: RetryOptions,
  timeouts: StreamTimeouts,
  strict?: StrictMode,
): ModelProvider {
  const { client, baseURL } = createOpenAIClient(sdk, config);
  const official = isOfficial(baseURL);
  return streamingProvider({
    name: 'openai',
    label: 'OpenAI-compatible API',
    baseURL,
    keyEnv: 'OPENAI_API_KEY',
    sdkErrors: sdk,
    retry,
    timeouts,
    open: (request, signal) => client.chat.completions.create(toChatParams(request, official, strict), { signal }),
    map: mapChatStream,
  });
}
