// OpenAI Chat Completions wire format (POST /v1/chat/completions), streamed and whole, with the
// quirks of other OpenAI-compatible servers on request.
import { parsedOrRaw, pieces, sse } from './chunks.js';
import type { DialectWriter, OpenAIQuirks, Reply } from './types.js';

function finishReason(reply: Reply, quirks: OpenAIQuirks): string {
  if (reply.stopReason !== undefined) return reply.stopReason;
  return reply.toolCalls.length > 0 && !quirks.finishReasonStop ? 'tool_calls' : 'stop';
}

function usage(reply: Reply): Record<string, unknown> {
  return {
    prompt_tokens: reply.inputTokens,
    completion_tokens: reply.outputTokens,
    total_tokens: reply.inputTokens + reply.outputTokens,
    ...(reply.cacheReadTokens !== undefined ? { prompt_tokens_details: { cached_tokens: reply.cacheReadTokens } } : {}),
  };
}

function wholeCall(call: Reply['toolCalls'][number], index: number, quirks: OpenAIQuirks): Record<string, unknown> {
  const args = quirks.objectArguments ? parsedOrRaw(call.arguments) : call.arguments;
  return {
    ...(quirks.omitIndex ? {} : { index }),
    ...(quirks.omitIds ? {} : { id: call.id }),
    type: 'function',
    function: { name: call.name, arguments: args },
  };
}

export const openaiChatWriter: DialectWriter = {
  path: '/v1/chat/completions',
  urlSuffix: '/v1',

  frames(reply, request, quirks) {
    const base = { id: `chatcmpl-standin-${reply.serial}`, object: 'chat.completion.chunk', created: 0, model: reply.model };
    const frames: string[] = [];
    const chunk = (delta: Record<string, unknown>, finish: string | null = null): void => {
      frames.push(sse({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] }));
    };
    chunk({ role: 'assistant', content: '' });
    for (const content of pieces(reply.text)) chunk({ content });
    if (quirks.wholeToolCalls) {
      if (reply.toolCalls.length > 0) chunk({ tool_calls: reply.toolCalls.map((c, i) => wholeCall(c, i, quirks)) });
    } else {
      reply.toolCalls.forEach((call, index) => {
        const head = { ...(quirks.omitIndex ? {} : { index }) };
        if (quirks.objectArguments) {
          chunk({ tool_calls: [wholeCall(call, index, quirks)] });
          return;
        }
        chunk({
          tool_calls: [
            { ...head, ...(quirks.omitIds ? {} : { id: call.id }), type: 'function', function: { name: call.name, arguments: '' } },
          ],
        });
        for (const args of pieces(call.arguments)) chunk({ tool_calls: [{ ...head, function: { arguments: args } }] });
      });
    }
    chunk({}, finishReason(reply, quirks));
    const options = request.stream_options as { include_usage?: boolean } | undefined;
    if (options?.include_usage) frames.push(sse({ ...base, choices: [], usage: usage(reply) }));
    frames.push(sse('[DONE]'));
    return frames;
  },

  body(reply, quirks) {
    const calls = reply.toolCalls.map((c, i) => {
      const { index: _index, ...call } = wholeCall(c, i, { ...quirks, omitIndex: true });
      return call;
    });
    return {
      id: `chatcmpl-standin-${reply.serial}`,
      object: 'chat.completion',
      created: 0,
      model: reply.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.text === '' ? null : reply.text,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
          },
          finish_reason: finishReason(reply, quirks),
        },
      ],
      usage: usage(reply),
    };
  },

  errorFrame(message) {
    return sse({ error: { message, type: 'server_error', param: null, code: null } });
  },

  errorBody(status, message) {
    const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
    return { error: { message, type, param: null, code: null } };
  },

  contextLimitBody(tokens, limit) {
    const message = `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`;
    return { error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } };
  },
};
