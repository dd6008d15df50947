// Anthropic Messages API: streamed events → neutral events, and the provider around the SDK.
import type Anthropic from '@anthropic-ai/sdk';
import { toAnthropicParams } from './anthropic-request.js';
import { DEFERRED_TOOLS_BETA, isDeferredToolsRefusal, usesDeferredTools } from './anthropic-deferred.js';
import { streamingProvider, type StreamTimeouts } from './provider.js';
import type { RetryOptions } from './retry.js';
import { ProviderError, type ModelProvider, type ModelStreamEvent, type StopReason, type ThinkingPart, type Usage } from './types.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

type AnthropicSdk = typeof import('@anthropic-ai/sdk');

function stopReason(reason: string | null): StopReason {
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'end_turn';
  if (reason === 'tool_use') return 'tool_use';
  // A full context window cuts the reply short just as the output limit does.
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'max_tokens';
  if (reason === 'refusal') return 'refusal';
  return 'other';
}

interface AnthropicUsage {
  input_tokens: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Input tokens including prompt-cache reads and writes, which Anthropic counts separately. */
function inputUsage(usage: AnthropicUsage): Pick<Usage, 'inputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'> {
  const read = usage.cache_read_input_tokens;
  const write = usage.cache_creation_input_tokens;
  return {
    inputTokens: (usage.input_tokens ?? 0) + (write ?? 0) + (read ?? 0),
    ...(typeof read === 'number' ? { cacheReadTokens: read } : {}),
    ...(typeof write === 'number' ? { cacheWriteTokens: write } : {}),
  };
}

interface OpenCall {
  index: number;
  id: string;
  name: string;
  json: string;
}

/** Maps raw stream events; a call ends at its content_block_stop, before the message ends. */
export async function* mapAnthropicStream(events: AsyncIterable<Anthropic.RawMessageStreamEvent>): AsyncGenerator<ModelStreamEvent> {
  const calls = new Map<number, OpenCall>();
  const thinking = new Map<number, ThinkingPart>();
  let callCount = 0;
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let reason: StopReason = 'other';
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        usage = { ...inputUsage(event.message.usage), outputTokens: event.message.usage.output_tokens ?? 0 };
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'tool_use') {
          // A non-streamed input may arrive whole in the start block.
          const initial = block.input !== null && typeof block.input === 'object' && Object.keys(block.input).length > 0;
          const call = { index: callCount++, id: block.id, name: block.name, json: initial ? JSON.stringify(block.input) : '' };
          calls.set(event.index, call);
          yield { type: 'tool_call_start', index: call.index, id: call.id, name: call.name };
        } else if (block.type === 'text' && block.text !== '') {
          yield { type: 'text_delta', text: block.text };
        } else if (block.type === 'thinking') {
          thinking.set(event.index, { type: 'thinking', thinking: block.thinking, signature: block.signature });
        } else if (block.type === 'redacted_thinking') {
          thinking.set(event.index, { type: 'redacted_thinking', data: block.data });
        }
        break;
      }
      case 'content_block_delta':
        if (event.delta.type === 'text_delta' && event.delta.text !== '') {
          yield { type: 'text_delta', text: event.delta.text };
        } else if (event.delta.type === 'input_json_delta' && event.delta.partial_json !== '') {
          const call = calls.get(event.index);
          if (call === undefined) break;
          call.json += event.delta.partial_json;
          yield { type: 'tool_call_delta', index: call.index, json: event.delta.partial_json };
        } else if (event.delta.type === 'thinking_delta' || event.delta.type === 'signature_delta') {
          const part = thinking.get(event.index);
          if (part?.type !== 'thinking') break;
          if (event.delta.type === 'thinking_delta') part.thinking += event.delta.thinking;
          else part.signature += event.delta.signature;
        }
        break;
      case 'content_block_stop': {
        const part = thinking.get(event.index);
        if (part !== undefined) {
          thinking.delete(event.index);
          yield { type: 'thinking', part };
          break;
        }
        const call = calls.get(event.index);
        if (call === undefined) break;
        calls.delete(event.index);
        yield { type: 'tool_call_end', index: call.index, id: call.id, name: call.name, input: call.json === '' ? '{}' : call.json };
        break;
      }
      case 'message_delta':
        reason = stopReason(event.delta.stop_reason);
        // message_delta usage counts are cumulative.
        usage = {
          ...usage,
          ...(typeof event.usage.input_tokens === 'number' ? inputUsage(event.usage) : {}),
          outputTokens: event.usage.output_tokens ?? usage.outputTokens,
        };
        break;
      case 'message_stop':
        yield { type: 'message_end', stopReason: reason, usage };
        return;
    }
  }
  throw new ProviderError('The Anthropic stream ended before message_stop: the reply is incomplete.', undefined, true);
}

export function createAnthropicProvider(
  sdk: AnthropicSdk,
  config: { apiKey: string; baseURL?: string; authToken?: string },
  retry: RetryOptions,
  timeouts: StreamTimeouts,
): ModelProvider {
  const baseURL = config.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL;
  // Explicit values so the SDK reads nothing from the environment; retries are ours.
  const client = new sdk.default({
    // A bearer token alone sends no x-api-key header (the SDK would send an empty one).
    apiKey: config.authToken !== undefined && config.apiKey === '' ? null : config.apiKey,
    authToken: config.authToken ?? null,
    baseURL,
    maxRetries: 0,
    logLevel: 'off',
    openTelemetry: false,
  });
  // 'auto' deferred tools: off for this endpoint once it refused them (see isDeferredToolsRefusal).
  let deferredRefused = false;
  const send = (params: Anthropic.MessageCreateParamsStreaming, signal: AbortSignal) =>
    client.messages.create(params, {
      signal,
      ...(usesDeferredTools(params) ? { headers: { 'anthropic-beta': DEFERRED_TOOLS_BETA } } : {}),
    });
  return streamingProvider({
    name: 'anthropic',
    label: 'Anthropic API',
    baseURL,
    keyEnv: 'ANTHROPIC_API_KEY',
    sdkErrors: sdk,
    retry,
    timeouts,
    async open(request, signal): Promise<AsyncIterable<Anthropic.RawMessageStreamEvent>> {
      const mode = request.cache?.deferredTools ?? 'auto';
      const params = toAnthropicParams(request, { deferredTools: mode === 'on' || (mode === 'auto' && !deferredRefused) });
      try {
        return await send(params, signal);
      } catch (error) {
        if (mode !== 'auto' || !usesDeferredTools(params) || !isDeferredToolsRefusal(error)) throw error;
        // The server does not know the feature: the same request with the loaded tools appended.
        deferredRefused = true;
        return await send(toAnthropicParams(request, { deferredTools: false }), signal);
      }
    },
    map: mapAnthropicStream,
  });
}
