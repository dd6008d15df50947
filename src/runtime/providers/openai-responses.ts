// OpenAI Responses API: streamed events → neutral events, and the provider around the SDK.
import type OpenAI from 'openai';
import { FREEFORM_PARAMETER } from '../tool/freeform.js';
import { createOpenAIClient } from './openai-chat.js';
import { toResponsesParams } from './openai-responses-request.js';
import { streamingProvider, type StreamTimeouts } from './provider.js';
import type { RetryOptions } from './retry.js';
import type { StrictMode } from './strict.js';
import { ProviderError, type ModelProvider, type ModelStreamEvent, type StopReason, type Usage } from './types.js';

type OpenAISdk = typeof import('openai');

interface Call {
  index: number;
  id: string;
  name: string;
  /** The arguments JSON, or a custom tool call's raw input text. */
  args: string;
  /** A custom_tool_call: its text reaches the pipeline as `{input: text}`, a freeform tool's input. */
  custom: boolean;
  ended: boolean;
}

/** The neutral input of a call: function arguments as sent, a custom call's text wrapped. */
function callInput(call: Call): string {
  if (call.custom) return JSON.stringify({ [FREEFORM_PARAMETER]: call.args });
  return call.args === '' ? '{}' : call.args;
}

function stopReason(response: OpenAI.Responses.Response, calls: number): StopReason {
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    return reason === 'max_output_tokens' ? 'max_tokens' : reason === 'content_filter' ? 'refusal' : 'other';
  }
  if (calls > 0) return 'tool_use';
  return response.status === 'completed' ? 'end_turn' : 'other';
}

export async function* mapResponsesStream(events: AsyncIterable<OpenAI.Responses.ResponseStreamEvent>): AsyncGenerator<ModelStreamEvent> {
  const byItem = new Map<string, Call>();
  const calls: Call[] = [];
  const end = (call: Call, args?: string): ModelStreamEvent[] => {
    if (call.ended) return [];
    call.ended = true;
    if (args !== undefined && args !== '') call.args = args;
    return [{ type: 'tool_call_end', index: call.index, id: call.id, name: call.name, input: callInput(call) }];
  };
  const callOf = (itemId: string, outputIndex: number) => byItem.get(itemId) ?? byItem.get(`output-${outputIndex}`);
  for await (const event of events) {
    switch (event.type) {
      case 'response.output_item.added': {
        const item = event.item;
        if (item.type !== 'function_call' && item.type !== 'custom_tool_call') break;
        const custom = item.type === 'custom_tool_call';
        const args = (custom ? item.input : item.arguments) ?? '';
        const call: Call = { index: calls.length, id: item.call_id, name: item.name, args, custom, ended: false };
        calls.push(call);
        byItem.set(item.id ?? `output-${event.output_index}`, call);
        yield { type: 'tool_call_start', index: call.index, id: call.id, name: call.name };
        if (call.args !== '') yield { type: 'tool_call_delta', index: call.index, json: call.args };
        break;
      }
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta': {
        const call = callOf(event.item_id, event.output_index);
        if (call === undefined || call.ended || event.delta === '') break;
        call.args += event.delta;
        yield { type: 'tool_call_delta', index: call.index, json: event.delta };
        break;
      }
      case 'response.function_call_arguments.done':
      case 'response.custom_tool_call_input.done': {
        const call = callOf(event.item_id, event.output_index);
        if (call !== undefined) yield* end(call, event.type === 'response.custom_tool_call_input.done' ? event.input : event.arguments);
        break;
      }
      case 'response.output_item.done': {
        const item = event.item;
        if (item.type !== 'function_call' && item.type !== 'custom_tool_call') break;
        const call = byItem.get(item.id ?? `output-${event.output_index}`);
        if (call !== undefined) yield* end(call, item.type === 'custom_tool_call' ? item.input : item.arguments);
        break;
      }
      case 'response.output_text.delta':
        if (event.delta !== '') yield { type: 'text_delta', text: event.delta };
        break;
      case 'response.completed':
      case 'response.incomplete': {
        for (const call of calls) yield* end(call);
        const cached = event.response.usage?.input_tokens_details?.cached_tokens;
        const usage: Usage = {
          inputTokens: event.response.usage?.input_tokens ?? 0,
          outputTokens: event.response.usage?.output_tokens ?? 0,
          ...(typeof cached === 'number' ? { cacheReadTokens: cached } : {}),
        };
        yield { type: 'message_end', stopReason: stopReason(event.response, calls.length), usage };
        return;
      }
      case 'response.failed':
        throw new ProviderError(
          `The OpenAI Responses API could not complete the reply: ${event.response.error?.message ?? 'no details given'}.`,
          undefined,
          true,
        );
      case 'error':
        throw new ProviderError(`The OpenAI Responses API reported an error mid-stream: ${event.message}`, undefined, true);
    }
  }
  throw new ProviderError('The Responses stream ended before response.completed: the reply is incomplete.', undefined, true);
}

export function createOpenAIResponsesProvider(
  sdk: OpenAISdk,
  config: { apiKey: string; baseURL?: string },
  retry: RetryOptions,
  timeouts: StreamTimeouts,
  strict?: StrictMode,
): ModelProvider {
  const { client, baseURL } = createOpenAIClient(sdk, config);
  return streamingProvider({
    name: 'openai-responses',
    label: 'OpenAI Responses API',
    baseURL,
    keyEnv: 'OPENAI_API_KEY',
    sdkErrors: sdk,
    retry,
    timeouts,
    open: (request, signal) => client.responses.create(toResponsesParams(request, strict), { signal }),
    map: mapResponsesStream,
  });
}
