// A reply that breaks off part-way: no call with effects runs from it, and a retried reply
// replaces it whole (the provider announces the retry with a `retry` event).
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../src/runtime/tool/define.js';
import type { ModelStreamEvent } from '../../../src/runtime/providers/types.js';
import { callTools, expectPaired, harness, reply, runScripted, sleepTool, type ScriptedTurn } from './scripted.js';

function countingWrite() {
  const written: string[] = [];
  const tool = defineTool({
    name: 'Append',
    description: 'Appends a line (has effects)',
    inputSchema: z.object({ line: z.string() }),
    call: async (input) => {
      written.push(input.line);
      return `appended ${input.line}`;
    },
  });
  return { tool, written };
}

const retry: ModelStreamEvent = { type: 'retry', attempt: 1, maxRetries: 3, delayMs: 1, reason: 'The connection broke.' };
/** A reply's events up to (not including) its message_end. */
const unfinished = (turn: ScriptedTurn): ScriptedTurn => turn.filter((step) => step.type !== 'message_end');

describe('a reply that breaks off', () => {
  it('runs no call with effects from a reply that did not end', async () => {
    const { tool, written } = countingWrite();
    const broken: ScriptedTurn = [
      ...unfinished(callTools([{ id: 'w1', name: 'Append', input: '{"line":"once"}' }])),
      { type: 'wait', ms: 50 },
      { type: 'fail', message: 'The stream broke.' },
    ];
    const { result } = await runScripted([broken], { h: harness([tool, sleepTool]) });
    expect(written).toEqual([]);
    expect(result.stopReason).toBe('error');
    expectPaired(result.messages);
  });

  it('drops the broken reply and keeps the retried one whole: text once, each call run once', async () => {
    const { tool, written } = countingWrite();
    const first = unfinished(callTools([{ id: 'w1', name: 'Append', input: '{"line":"a"}' }], 'Writing. '));
    const again = callTools([{ id: 'w1', name: 'Append', input: '{"line":"a"}' }], 'Writing. ');
    const { result, events } = await runScripted([[...first, retry, ...again], reply('done')], { h: harness([tool, sleepTool]) });
    expect(written).toEqual(['a']);
    expect(result.stopReason).toBe('end_turn');
    const assistant = result.messages[1];
    expect(assistant).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Writing. ' },
        { type: 'tool_use', id: 'w1', name: 'Append', input: { line: 'a' } },
      ],
    });
    expect(events.filter((e) => e.type === 'model_retry')).toEqual([{ ...retry, type: 'model_retry' }]);
    expectPaired(result.messages);
  });

  it('stops a read-only call the broken reply started early and answers only the retried calls', async () => {
    const first: ScriptedTurn = [...unfinished(callTools([{ id: 's1', name: 'Sleep', input: '{"ms":5000}' }])), { type: 'wait', ms: 50 }];
    const again = callTools([{ id: 's2', name: 'Sleep', input: '{"ms":1}' }]);
    const started = Date.now();
    const { result, events } = await runScripted([[...first, retry, ...again], reply('done')]);
    expect(Date.now() - started).toBeLessThan(4000);
    const starts = events.filter((e) => e.type === 'tool_start').map((e) => (e as { toolUseId: string }).toolUseId);
    expect(starts).toEqual(['s1', 's2']);
    const uses = result.messages[1].content.filter((p) => p.type === 'tool_use').map((p) => (p as { id: string }).id);
    expect(uses).toEqual(['s2']);
    expectPaired(result.messages);
  });
});
