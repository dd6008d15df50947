// Stream mapping, pure: synthetic SDK events in, neutral events out.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapAnthropicStream } from '../../../src/runtime/providers/anthropic.js';
import { ChatCallJoiner, type RawToolCallDelta } from '../../../src/runtime/providers/openai-chat-calls.js';
import { mapChatStream } from '../../../src/runtime/providers/openai-chat.js';
import { mapResponsesStream } from '../../../src/runtime/providers/openai-responses.js';
import type { ModelStreamEvent } from '../../../src/runtime/providers/index.js';
import { collect, collectUntilError, ends } from './helpers.js';

async function* from<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

/** Splits text at the given cut points. */
function split(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let last = 0;
  for (const p of points) {
    parts.push(text.slice(last, p));
    last = p;
  }
  parts.push(text.slice(last));
  return parts;
}

describe('ChatCallJoiner', () => {
  const callArb = fc.record({ name: fc.constantFrom('Read', 'Grep', 'Bash'), args: fc.json(), cuts: fc.array(fc.nat(), { maxLength: 6 }) });

  it('joins arguments however they are split, and ends each call before the next starts (property)', () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 4 }), fc.boolean(), (calls, withIndex) => {
        const joiner = new ChatCallJoiner();
        const events: ModelStreamEvent[] = [];
        calls.forEach((call, i) => {
          const parts = split(call.args, call.cuts);
          const head: RawToolCallDelta = {
            ...(withIndex ? { index: i } : {}),
            id: `id${i}`,
            function: { name: call.name, arguments: parts[0] },
          };
          events.push(...joiner.push(head));
          for (const part of parts.slice(1))
            events.push(...joiner.push({ ...(withIndex ? { index: i } : {}), function: { arguments: part } }));
        });
        events.push(...joiner.endOpen());
        const done = ends(events);
        expect(done.map((e) => [e.index, e.id, e.name, e.input])).toEqual(
          calls.map((c, i) => [i, `id${i}`, c.name, c.args === '' ? '{}' : c.args]),
        );
        for (let i = 1; i < calls.length; i++) {
          const end = events.findIndex((e) => e.type === 'tool_call_end' && e.index === i - 1);
          const start = events.findIndex((e) => e.type === 'tool_call_start' && e.index === i);
          expect(end).toBeLessThan(start);
        }
      }),
    );
  });

  it('separates whole calls that reuse one index without ids', () => {
    const joiner = new ChatCallJoiner();
    const events = [
      ...joiner.push({ index: 0, function: { name: 'Read', arguments: '{"file_path":"a"}' } }),
      ...joiner.push({ index: 0, function: { name: 'Read', arguments: '{"file_path":"b"}' } }),
      ...joiner.endOpen(),
    ];
    expect(ends(events).map((e) => e.input)).toEqual(['{"file_path":"a"}', '{"file_path":"b"}']);
  });

  it('holds arguments that arrive before the name', () => {
    const joiner = new ChatCallJoiner();
    const events = [
      ...joiner.push({ index: 0, function: { arguments: '{"a":' } }),
      ...joiner.push({ index: 0, id: 'x', function: { name: 'T', arguments: '1}' } }),
      ...joiner.endOpen(),
    ];
    expect(events).toEqual([
      { type: 'tool_call_start', index: 0, id: 'x', name: 'T' },
      { type: 'tool_call_delta', index: 0, json: '{"a":1}' },
      { type: 'tool_call_end', index: 0, id: 'x', name: 'T', input: '{"a":1}' },
    ]);
  });
});

describe('mapChatStream', () => {
  const chunk = (delta: object, finish: string | null = null): OpenAI.ChatCompletionChunk =>
    ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: finish }],
    }) as OpenAI.ChatCompletionChunk;

  it('fails when the stream ends without a finish_reason', async () => {
    const { events, error } = await collectUntilError(mapChatStream(from([chunk({ content: 'hi' })])));
    expect(events).toEqual([{ type: 'text_delta', text: 'hi' }]);
    expect((error as Error).message).toMatch(/without a finish_reason/);
  });
});

describe('mapAnthropicStream', () => {
  it('fails when the stream ends before message_stop', async () => {
    const events = [
      {
        type: 'message_start',
        message: { usage: { input_tokens: 5, output_tokens: 1, cache_creation_input_tokens: null, cache_read_input_tokens: null } },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'Read', input: {} } },
    ] as unknown as Anthropic.RawMessageStreamEvent[];
    const { events: out, error } = await collectUntilError(mapAnthropicStream(from(events)));
    expect(out).toEqual([{ type: 'tool_call_start', index: 0, id: 't', name: 'Read' }]);
    expect((error as Error).message).toMatch(/before message_stop/);
  });

  it('counts cached input tokens and maps stop reasons', async () => {
    const events = [
      {
        type: 'message_start',
        message: { usage: { input_tokens: 5, output_tokens: 1, cache_creation_input_tokens: 10, cache_read_input_tokens: 100 } },
      },
      { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 9, input_tokens: null } },
      { type: 'message_stop' },
    ] as unknown as Anthropic.RawMessageStreamEvent[];
    expect(await collect(mapAnthropicStream(from(events)))).toEqual([
      {
        type: 'message_end',
        stopReason: 'max_tokens',
        usage: { inputTokens: 115, outputTokens: 9, cacheReadTokens: 100, cacheWriteTokens: 10 },
      },
    ]);
  });
});

describe('mapResponsesStream', () => {
  it('turns response.failed and error events into ProviderErrors', async () => {
    const failed = [
      { type: 'response.failed', response: { error: { message: 'model overloaded' } } },
    ] as unknown as OpenAI.Responses.ResponseStreamEvent[];
    await expect(collect(mapResponsesStream(from(failed)))).rejects.toThrow(/model overloaded/);
    const errored = [
      { type: 'error', message: 'bad things', code: null, param: null },
    ] as unknown as OpenAI.Responses.ResponseStreamEvent[];
    await expect(collect(mapResponsesStream(from(errored)))).rejects.toThrow(/bad things/);
  });

  it('maps an incomplete reply cut by max_output_tokens to max_tokens', async () => {
    const events = [
      { type: 'response.output_text.delta', delta: 'partial' },
      {
        type: 'response.incomplete',
        response: {
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
          usage: { input_tokens: 1, output_tokens: 2 },
        },
      },
    ] as unknown as OpenAI.Responses.ResponseStreamEvent[];
    expect((await collect(mapResponsesStream(from(events)))).at(-1)).toEqual({
      type: 'message_end',
      stopReason: 'max_tokens',
      usage: { inputTokens: 1, outputTokens: 2 },
    });
  });
});
