import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../src/runtime/agent/loop.js';
import type { Message } from '../../../src/runtime/providers/types.js';
import {
  callTools,
  expectPaired,
  harness,
  prompt,
  reply,
  runScripted,
  scriptedProvider,
  type Harness,
  type ScriptedTurn,
} from './scripted.js';

function results(messages: readonly Message[]) {
  return messages.flatMap((m) => (m.role === 'user' ? m.content.filter((p) => p.type === 'tool_result') : [])) as {
    toolUseId: string;
    toolName: string;
    isError: boolean;
    content: { type: string; text?: string }[];
  }[];
}

const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((b) => b.text ?? '').join('');

const run = (turns: ScriptedTurn[], opts: { maxTurns?: number; signal?: AbortSignal; h?: Harness } = {}) =>
  runScripted(turns, { h: opts.h, maxTurns: opts.maxTurns, ...(opts.signal ? { signal: opts.signal } : {}) });

describe('runAgent', () => {
  it('runs model → tools → model until the model stops, sending results back', async () => {
    const { result, provider, events } = await run([
      callTools([{ id: 't1', name: 'Note', input: '{"text":"a"}' }], 'Let me note. '),
      callTools([{ id: 't2', name: 'Note', input: '{"text":"b"}' }]),
      reply('All done.'),
    ]);
    expect(result.stopReason).toBe('end_turn');
    expect(result.answer).toBe('All done.');
    expect(result.turns).toBe(3);
    expect(result.toolCalls).toBe(2);
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 15, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expectPaired(result.messages);
    expect(results(result.messages).map(text)).toEqual(['noted a', 'noted b']);
    // The second request carries the first call's result; tools are described with their schema.
    const second = provider.requests[1];
    expect(second.messages.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', isError: false }] });
    expect(second.tools.map((t) => t.name).sort()).toEqual(['Note', 'Sleep']);
    expect(second.system).toContain('Use Sleep to wait.');
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('Let me note. All done.');
    expect(events.at(-1)?.type).toBe('done');
  });

  it('runs parallel concurrency-safe calls together and keeps their order', async () => {
    const started = Date.now();
    const { result } = await run([
      callTools([
        { id: 'a', name: 'Sleep', input: '{"ms":300}' },
        { id: 'b', name: 'Sleep', input: '{"ms":100}' },
        { id: 'c', name: 'Sleep', input: '{"ms":200}' },
      ]),
      reply('ok'),
    ]);
    expect(Date.now() - started).toBeLessThan(550);
    expect(results(result.messages).map((r) => r.toolUseId)).toEqual(['a', 'b', 'c']);
    expect(results(result.messages).map(text)).toEqual(['slept 300', 'slept 100', 'slept 200']);
  });

  it('starts a safe call as soon as its arguments are complete, before the reply ends', async () => {
    const turn = callTools([{ id: 'a', name: 'Sleep', input: '{"ms":10}' }]);
    turn.splice(turn.length - 1, 0, { type: 'wait', ms: 250 });
    const { events, result } = await run([turn, reply('ok')]);
    const order = events.map((e) => e.type);
    expect(order.indexOf('tool_end')).toBeGreaterThan(-1);
    expect(order.indexOf('tool_end')).toBeLessThan(order.indexOf('usage'));
    expectPaired(result.messages);
  });

  it('answers an unknown tool name with an error result and carries on', async () => {
    const { result } = await run([callTools([{ id: 'x', name: 'Slep', input: '{"ms":1}' }]), reply('sorry')]);
    const [r] = results(result.messages);
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/Slep/);
    expect(result.stopReason).toBe('end_turn');
  });

  it('keeps malformed argument JSON as raw text in history and still gives one result', async () => {
    const { result } = await run([
      callTools([
        { id: 'm1', name: 'Note', input: '{"text": "half' },
        { id: 'm2', name: 'Note', input: 'not json at all' },
      ]),
      reply('ok'),
    ]);
    const assistant = result.messages[1];
    expect(assistant.role).toBe('assistant');
    const uses = assistant.content.filter((p) => p.type === 'tool_use') as { input: unknown }[];
    expect(uses.map((u) => u.input)).toEqual(['{"text": "half', 'not json at all']);
    const rs = results(result.messages);
    expect(rs).toHaveLength(2);
    expect(rs[1].isError).toBe(true);
    expectPaired(result.messages);
  });

  it('gives every call a result when aborted mid-stream', async () => {
    const controller = new AbortController();
    const turn: ScriptedTurn = [...callTools([{ id: 'a', name: 'Sleep', input: '{"ms":5000}' }]).slice(0, 3), { type: 'hang' }];
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    const { result } = await run([turn], { signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.stopReason).toBe('aborted');
    expectPaired(result.messages);
    const [r] = results(result.messages);
    expect(r.isError).toBe(true);
  });

  it('interrupts a running tool on abort (the tool gets its signal)', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    const { result, provider } = await run([callTools([{ id: 'a', name: 'Sleep', input: '{"ms":5000}' }]), reply('never')], {
      signal: controller.signal,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.stopReason).toBe('aborted');
    expect(provider.requests).toHaveLength(1);
    const [r] = results(result.messages);
    expect(r.isError).toBe(true);
    expect(text(r).toLowerCase()).toMatch(/interrupt/);
    expectPaired(result.messages);
  });

  it("stops at max turns after running the last turn's calls", async () => {
    const always = callTools([{ id: 'n', name: 'Note', input: '{"text":"x"}' }]);
    const { result, provider } = await run([always, always, always], { maxTurns: 2 });
    expect(result.stopReason).toBe('max_turns');
    expect(result.turns).toBe(2);
    expect(provider.requests).toHaveLength(2);
    const rs = results(result.messages);
    expect(rs.map(text)).toEqual(['noted x', 'noted x']);
    expect(result.error).toMatch(/Stopped after 2 turns/);
    // Repeated ids from the model are made unique so each result pairs with one call.
    expect(new Set(rs.map((r) => r.toolUseId)).size).toBe(2);
    expectPaired(result.messages);
  });

  it('reports a provider failure mid-stream and still pairs the calls already made', async () => {
    const turn: ScriptedTurn = [
      ...callTools([{ id: 'a', name: 'Note', input: '{"text":"x"}' }]).slice(0, 3),
      { type: 'fail', message: 'stream cut' },
    ];
    const { result, events } = await run([turn]);
    expect(result.stopReason).toBe('error');
    expect(result.error).toBe('stream cut');
    expect(events.some((e) => e.type === 'error')).toBe(true);
    expectPaired(result.messages);
    expect(results(result.messages)).toHaveLength(1);
  });

  it('continues a history that ended mid-turn (resume) by answering the dangling call', async () => {
    const h = harness();
    const provider = scriptedProvider([reply('resumed')]);
    const history: Message[] = [
      prompt('first'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'old', name: 'Note', input: { text: 'x' } }] },
      prompt('again'),
    ];
    const result = await runAgent({
      provider,
      model: 'm',
      messages: history,
      rt: h.rt,
      signal: new AbortController().signal,
    });
    expectPaired(provider.requests[0].messages);
    expect(provider.requests[0].messages).toHaveLength(3);
    expect(result.answer).toBe('resumed');
  });
});
