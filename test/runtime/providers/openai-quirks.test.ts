// The Chat Completions dialects of Ollama, vLLM, llama.cpp and LM Studio, end to end.
import { afterEach, describe, expect, it } from 'vitest';
import { startStandin, type OpenAIQuirks, type Standin } from '../../support/standin/index.js';
import { collect, ends, providerFor, request } from './helpers.js';

let standin: Standin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

const TWO_CALLS = [
  { name: 'Read', arguments: { file_path: 'a.txt' } },
  { name: 'LS', arguments: { path: 'src' } },
];

async function run(quirks: OpenAIQuirks) {
  standin = await startStandin({ dialect: 'openai', script: [{ toolCalls: TWO_CALLS }], dialectQuirks: quirks });
  const provider = await providerFor('openai', standin.url);
  return collect(provider.stream(request(), new AbortController().signal));
}

describe('OpenAI-compatible quirks', () => {
  it('handles Ollama-style replies: whole calls in one chunk, no ids, object arguments, finish "stop"', async () => {
    const events = await run({ wholeToolCalls: true, omitIds: true, objectArguments: true, finishReasonStop: true });
    const done = ends(events);
    expect(done.map((e) => [e.index, e.name, JSON.parse(e.input)])).toEqual([
      [0, 'Read', { file_path: 'a.txt' }],
      [1, 'LS', { path: 'src' }],
    ]);
    // Made-up ids are unique so results can be matched to calls.
    expect(done[0].id).toMatch(/^call_/);
    expect(new Set(done.map((e) => e.id)).size).toBe(2);
    expect(events.at(-1)).toMatchObject({ type: 'message_end', stopReason: 'tool_use' });
  });

  it('joins streamed deltas that carry no index', async () => {
    const events = await run({ omitIndex: true });
    expect(ends(events).map((e) => [e.name, JSON.parse(e.input)])).toEqual([
      ['Read', { file_path: 'a.txt' }],
      ['LS', { path: 'src' }],
    ]);
  });

  it('handles whole calls that carry neither index nor id', async () => {
    const events = await run({ wholeToolCalls: true, omitIndex: true, omitIds: true });
    expect(ends(events).map((e) => e.name)).toEqual(['Read', 'LS']);
  });

  it('treats finish "stop" with calls present as tool use', async () => {
    const events = await run({ finishReasonStop: true });
    expect(events.at(-1)).toMatchObject({ stopReason: 'tool_use' });
  });

  it('asks for usage and uses max_tokens with a custom endpoint', async () => {
    standin = await startStandin({ dialect: 'openai', script: [{ text: 'hi', usage: { inputTokens: 3, outputTokens: 2 } }] });
    const provider = await providerFor('openai', standin.url);
    const events = await collect(provider.stream(request({ maxTokens: 100 }), new AbortController().signal));
    expect(events.at(-1)).toEqual({ type: 'message_end', stopReason: 'end_turn', usage: { inputTokens: 3, outputTokens: 2 } });
    expect(standin.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 100 });
    expect(standin.headers[0].authorization).toBe('Bearer test-key');
  });

  it('maps finish "length" to max_tokens', async () => {
    standin = await startStandin({ dialect: 'openai', script: [{ text: 'cut sh', stopReason: 'length' }] });
    const provider = await providerFor('openai', standin.url);
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(events.at(-1)).toMatchObject({ stopReason: 'max_tokens' });
  });
});
