// OpenAI Responses wire format (POST /v1/responses), streamed and whole.
import { pieces, sse } from './chunks.js';
import type { DialectWriter, Reply } from './types.js';

function outputItems(reply: Reply): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (reply.text !== '') {
    items.push({
      id: `msg_standin_${reply.serial}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  }
  reply.toolCalls.forEach((call, i) => {
    const shape = call.custom ? { type: 'custom_tool_call', input: call.arguments } : { type: 'function_call', arguments: call.arguments };
    items.push({ id: `fc_standin_${reply.serial}_${i}`, status: 'completed', call_id: call.id, name: call.name, ...shape });
  });
  return items;
}

function response(reply: Reply, done: boolean): Record<string, unknown> {
  const incomplete = reply.stopReason !== undefined;
  return {
    id: `resp_standin_${reply.serial}`,
    object: 'response',
    created_at: 0,
    model: reply.model,
    status: !done ? 'in_progress' : incomplete ? 'incomplete' : 'completed',
    incomplete_details: done && incomplete ? { reason: reply.stopReason } : null,
    error: null,
    instructions: null,
    tools: [],
    parallel_tool_calls: true,
    output: done ? outputItems(reply) : [],
    usage: done
      ? {
          input_tokens: reply.inputTokens,
          output_tokens: reply.outputTokens,
          total_tokens: reply.inputTokens + reply.outputTokens,
          input_tokens_details: { cached_tokens: reply.cacheReadTokens ?? 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        }
      : null,
  };
}

export const openaiResponsesWriter: DialectWriter = {
  path: '/v1/responses',
  urlSuffix: '/v1',

  frames(reply) {
    const frames: string[] = [];
    let sequence = 0;
    const emit = (type: string, data: Record<string, unknown>): void => {
      frames.push(sse({ type, sequence_number: sequence++, ...data }, type));
    };
    emit('response.created', { response: response(reply, false) });
    emit('response.in_progress', { response: response(reply, false) });
    const items = outputItems(reply);
    items.forEach((item, output_index) => {
      const item_id = String(item.id);
      if (item.type === 'message') {
        emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
        emit('response.content_part.added', {
          item_id,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        });
        for (const delta of pieces(reply.text)) {
          emit('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] });
        }
        emit('response.output_text.done', { item_id, output_index, content_index: 0, text: reply.text, logprobs: [] });
        emit('response.content_part.done', {
          item_id,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text: reply.text, annotations: [] },
        });
      } else if (item.type === 'custom_tool_call') {
        const input = String(item.input);
        emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', input: '' } });
        for (const delta of pieces(input)) emit('response.custom_tool_call_input.delta', { item_id, output_index, delta });
        emit('response.custom_tool_call_input.done', { item_id, output_index, input });
      } else {
        const args = String(item.arguments);
        emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
        for (const delta of pieces(args)) emit('response.function_call_arguments.delta', { item_id, output_index, delta });
        emit('response.function_call_arguments.done', { item_id, output_index, name: item.name, arguments: args });
      }
      emit('response.output_item.done', { output_index, item });
    });
    const done = response(reply, true);
    emit(done.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: done });
    return frames;
  },

  body(reply) {
    return response(reply, true);
  },

  errorFrame(message) {
    return sse({ type: 'error', code: 'server_error', message, param: null, sequence_number: 0 }, 'error');
  },

  errorBody(status, message) {
    const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
    return { error: { message, type, param: null, code: null } };
  },

  contextLimitBody() {
    const message = 'Your input exceeds the context window of this model. Please adjust your input and try again.';
    return { error: { message, type: 'invalid_request_error', param: 'input', code: 'context_length_exceeded' } };
  },
};
