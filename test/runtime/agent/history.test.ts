import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pairResults, repairHistory, uniqueCallId } from '../../../src/runtime/agent/history.js';
import { errorContent, syntheticResult } from '../../../src/runtime/results/errors.js';
import type { Message } from '../../../src/runtime/providers/types.js';
import { expectPaired } from './scripted.js';

const id = fc.constantFrom('a', 'b', 'c', 'd');
const toolUse = fc.record({ type: fc.constant('tool_use' as const), id, name: fc.constant('T'), input: fc.constant({}) });
const toolResult = fc.record({
  type: fc.constant('tool_result' as const),
  toolUseId: id,
  toolName: fc.constant('T'),
  content: fc.constant([]),
  isError: fc.boolean(),
});
const text = fc.record({ type: fc.constant('text' as const), text: fc.string({ maxLength: 3 }) });
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constant('assistant' as const), content: fc.array(fc.oneof(text, toolUse), { maxLength: 3 }) }),
  fc.record({ role: fc.constant('user' as const), content: fc.array(fc.oneof(text, toolResult), { maxLength: 3 }) }),
) as fc.Arbitrary<Message>;

describe('repairHistory', () => {
  it('always yields a history where every tool_use has exactly one result (property)', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        // Ids must be unique in a valid history; the loop guarantees it for what it appends.
        let n = 0;
        const unique = messages.map((m) =>
          m.role === 'assistant' ? { ...m, content: m.content.map((p) => (p.type === 'tool_use' ? { ...p, id: `u${n++}` } : p)) } : m,
        ) as Message[];
        const repaired = repairHistory(unique);
        expectPaired(repaired);
        // Roles alternate after repair.
        for (const [i, m] of repaired.entries()) if (i > 0 && m.role === 'user') expect(repaired[i - 1].role).toBe('assistant');
      }),
    );
  });

  it('keeps a valid history as it is', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'T', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'x', toolName: 'T', content: [], isError: false }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ];
    expect(repairHistory(history)).toEqual(history);
  });
});

describe('pairResults / uniqueCallId', () => {
  it('returns one result per call in call order, filling gaps and dropping strays', () => {
    const calls = [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' },
    ];
    const out = pairResults(
      calls,
      [
        syntheticResult({ id: 'z', name: 'Z' }, errorContent('tool_failed', 'stray')),
        syntheticResult({ id: 'b', name: 'B' }, errorContent('tool_failed', 'B1')),
        syntheticResult({ id: 'b', name: 'B' }, errorContent('tool_failed', 'B2')),
      ],
      errorContent('interrupted', 'missing'),
    );
    expect(out.map((r) => [r.toolUseId, r.content[0], r.errorKind])).toEqual([
      ['a', { type: 'text', text: 'missing' }, 'interrupted'],
      ['b', { type: 'text', text: 'B1' }, 'tool_failed'],
    ]);
  });

  it('never hands out the same id twice (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(''), fc.constant('x'), fc.constant('x_2'), fc.string({ maxLength: 4 }))), (ids) => {
        const seen = new Set<string>();
        const out = ids.map((i) => uniqueCallId(i, seen));
        expect(new Set(out).size).toBe(out.length);
        for (const o of out) expect(o.trim()).not.toBe('');
      }),
    );
  });
});
