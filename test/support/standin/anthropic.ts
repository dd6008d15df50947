// Anthropic Messages wire format (POST /v1/messages), streamed and whole.
import { parsedOrRaw, pieces, sse } from './chunks.js';
import type { DialectWriter, Reply } from './types.js';

function stopReason(reply: Reply): string {
  return reply.stopReason ?? (reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn');
}

function inputObject(args: string): unknown {
  const parsed = parsedOrRaw(args);
  return typeof parsed === 'object' && parsed !== null ? parsed : {};
}

/** Anthropic's input_tokens excludes the cached parts, which it reports on their own. */
function usage(reply: Reply): Record<string, number> {
  const read = reply.cacheReadTokens;
  const write = reply.cacheWriteTokens;
  return {
    input_tokens: reply.inputTokens - (read ?? 0) - (write ?? 0),
    ...(read !== undefined ? { cache_read_input_tokens: read } : {}),
    ...(write !== undefined ? { cache_creation_input_tokens: write } : {}),
  };
}

export const anthropicWriter: DialectWriter = {
  path: '/v1/messages',
  urlSuffix: '',

  frames(reply) {
    const frames: string[] = [];
    const emit = (data: Record<string, unknown>): void => {
      frames.push(sse(data, String(data.type)));
    };
    emit({
      type: 'message_start',
      message: {
        id: `msg_standin_${reply.serial}`,
        type: 'message',
        role: 'assistant',
        model: reply.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage(reply), output_tokens: 1 },
      },
    });
    frames.push(sse({ type: 'ping' }, 'ping'));
    let index = 0;
    if (reply.thinking) {
      emit({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const thinking of pieces(reply.thinking.thinking)) {
        emit({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } });
      }
      emit({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: reply.thinking.signature } });
      emit({ type: 'content_block_stop', index });
      index++;
    }
    if (reply.text !== '') {
      emit({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of pieces(reply.text)) {
        emit({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
      }
      emit({ type: 'content_block_stop', index });
      index++;
    }
    for (const call of reply.toolCalls) {
      emit({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
      for (const partial_json of pieces(call.arguments)) {
        emit({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
      }
      emit({ type: 'content_block_stop', index });
      index++;
    }
    emit({
      type: 'message_delta',
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: { output_tokens: reply.outputTokens },
    });
    emit({ type: 'message_stop' });
    return frames;
  },

  body(reply) {
    return {
      id: `msg_standin_${reply.serial}`,
      type: 'message',
      role: 'assistant',
      model: reply.model,
      content: [
        ...(reply.text !== '' ? [{ type: 'text', text: reply.text }] : []),
        ...reply.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: inputObject(c.arguments) })),
      ],
      stop_reason: stopReason(reply),
      stop_sequence: null,
      usage: { ...usage(reply), output_tokens: reply.outputTokens },
    };
  },

  contextLimitBody(tokens, limit) {
    return { type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > ${limit} maximum` } };
  },

  errorFrame(message) {
    return sse({ type: 'error', error: { type: 'overloaded_error', message } }, 'error');
  },

  errorBody(status, message) {
    const type =
      status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
    return { type: 'error', error: { type, message } };
  },
};
