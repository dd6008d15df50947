// The context's pure decisions: prices, windows, turn budget shares, what clearing and
// compaction choose, and when a provider error means the window is full.
import { describe, expect, it } from 'vitest';
import {
  clearedStub,
  CLEARED_PREFIX,
  decideClearing,
  DEFAULT_CLEARING,
  keptFrom,
  withCleared,
  type ClearingDecision,
  type ClearingPolicy,
} from '../../../src/runtime/context/clearing.js';
import { compactedHistory, COMPACTED_HEADER, splitForCompaction, toolFacts } from '../../../src/runtime/context/compaction.js';
import { isContextLimitError } from '../../../src/runtime/context/limits.js';
import { contextWindowFor, FALLBACK_CONTEXT_WINDOW, knownModel } from '../../../src/runtime/context/models.js';
import { addUsage, costUsd, emptyUsage, priceFor } from '../../../src/runtime/context/pricing.js';
import { messageTokens as tokensOfMessage } from '../../../src/runtime/context/tokens.js';
import { fairShares, MIN_RESULT_CHARS, turnBudgetChars } from '../../../src/runtime/context/turn-budget.js';
import { ProviderError, type Message } from '../../../src/runtime/providers/types.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string, name = 'Read', input: unknown = { file_path: `/w/${id}.ts` }): Message => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name, input }],
});
const result = (id: string, text: string, name = 'Read', isError = false): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', toolUseId: id, toolName: name, content: [{ type: 'text', text }], isError }],
});

describe('prices and windows', () => {
  it('knows common ids by prefix, dated or not, and falls back for unknown ones', () => {
    expect(knownModel('claude-haiku-4-5-20251001')?.price?.input).toBe(1);
    expect(knownModel('claude-sonnet-4-5')?.contextWindow).toBe(200_000);
    expect(knownModel('gpt-5.4-pro')?.price?.input).toBe(30);
    expect(knownModel('gpt-5.4')?.price?.cacheRead).toBe(0.25);
    expect(knownModel('llama3.1:8b')).toBeUndefined();
    expect(contextWindowFor('llama3.1:8b')).toBe(FALLBACK_CONTEXT_WINDOW);
    expect(contextWindowFor('claude-sonnet-4-5', 50_000)).toBe(50_000);
  });

  it('bills uncached input, cache reads and writes and output at their own rates', () => {
    const price = priceFor('claude-sonnet-4-5');
    // 1,000 plain + 10,000 read + 2,000 written; 500 out. Sonnet 4.5: $3 in, $0.30 read, $3.75 write, $15 out.
    const usage = { inputTokens: 13_000, outputTokens: 500, cacheReadTokens: 10_000, cacheWriteTokens: 2_000 };
    expect(costUsd(usage, price)).toBeCloseTo((1_000 * 3 + 10_000 * 0.3 + 2_000 * 3.75 + 500 * 15) / 1e6, 12);
    expect(costUsd(usage, price, '1h')).toBeCloseTo((1_000 * 3 + 10_000 * 0.3 + 2_000 * 6 + 500 * 15) / 1e6, 12);
    expect(costUsd(usage, undefined)).toBeUndefined();
    expect(priceFor('my-local', { 'my-local': { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 0 } })?.output).toBe(2);
    expect(addUsage(emptyUsage(), { inputTokens: 3, outputTokens: 1 })).toEqual({
      inputTokens: 3,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });
});

describe('turn budget', () => {
  it('keeps small results whole and cuts the large ones to an equal share', () => {
    expect(fairShares([100, 200], 1_000)).toEqual([100, 200]);
    expect(fairShares([10_000, 500_000, 1_000_000], 100_000)).toEqual([10_000, 45_000, 45_000]);
    const eight = fairShares(new Array(8).fill(1_000_000), 180_000);
    expect(eight.every((cap) => cap === 22_500)).toBe(true);
    expect(fairShares([1e6, 1e6], 10)).toEqual([MIN_RESULT_CHARS, MIN_RESULT_CHARS]);
  });

  it('is a share of the room left: window minus context minus the output reserve', () => {
    expect(turnBudgetChars({ window: 200_000, contextTokens: 20_000, reserveTokens: 16_000 }, 0.25)).toBe(164_000);
    expect(turnBudgetChars({ window: 200_000, contextTokens: 199_000, reserveTokens: 16_000 })).toBe(0);
  });
});

const toolResults = (messages: readonly Message[]): string[] =>
  messages.flatMap((m) =>
    m.role === 'user'
      ? m.content.flatMap((p) => (p.type === 'tool_result' ? p.content.map((b) => (b.type === 'text' ? b.text : '')) : []))
      : [],
  );

describe('clearing', () => {
  /** A prompt, `n` answered Reads of `size` characters, and the call whose results are being added. */
  const history = (n: number, size: number): Message[] => {
    const out: Message[] = [user('read them')];
    for (let i = 0; i < n; i++) out.push(call(`c${i}`), result(`c${i}`, 'x'.repeat(size)));
    out.push(call(`c${n}`));
    return out;
  };
  const cleared = (decision: ClearingDecision) => (decision.clear ? decision.results.map((c) => c.toolUseId) : []);

  it('does nothing under the trigger, then clears oldest first down to the target, keeping the last turns', () => {
    const messages = history(10, 40_000); // ~10k tokens a result
    expect(decideClearing({ messages, contextTokens: 99_000, window: 200_000 })).toMatchObject({ clear: false, reason: 'under_trigger' });
    const decision = decideClearing({ messages, contextTokens: 110_000, window: 200_000 }, { ...DEFAULT_CLEARING, keepTurns: 3 });
    // 110k → 50k: six results of ~10k; c8 and c9 (and the incoming batch) are the last three turns.
    expect(cleared(decision)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
    expect(decision).toMatchObject({ clear: true, protectedTurns: 3 });
    const kept = keptFrom(messages, 3);
    expect(decision.clear && decision.results.every((c) => c.messageIndex < kept)).toBe(true);
  });

  it('shrinks the protection when the last turns hold too much to reach the target, down to the last two', () => {
    // ~25k tokens a result: 4 in the history + the incoming one = 128k. Keeping c2 and c3 (the
    // last three turns) would free 50k and leave ~78k, above the 50k target, for the next read
    // to pass the trigger again.
    const messages = history(4, 100_000);
    const decision = decideClearing({ messages, contextTokens: 128_000, window: 200_000 });
    expect(cleared(decision)).toEqual(['c0', 'c1', 'c2']);
    expect(decision).toMatchObject({ clear: true, protectedTurns: 2 });
    const lower = decideClearing({ messages, contextTokens: 128_000, window: 200_000 }, { ...DEFAULT_CLEARING, minKeepTurns: 1 });
    expect(cleared(lower)).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(lower).toMatchObject({ clear: true, protectedTurns: 1 });
  });

  it('takes no step that frees less than the minimum: the prefix would be rebuilt for little', () => {
    // 110k of context, but only ~5k of it in old results (the rest is the prompt and the incoming batch).
    const messages = [user('y'.repeat(300_000)), call('a'), result('a', 'x'.repeat(20_000)), call('b'), result('b', 'x'), call('c')];
    expect(decideClearing({ messages, contextTokens: 110_000, window: 200_000 })).toEqual({
      clear: false,
      reason: 'step_too_small',
      freeableTokens: 5_008,
    });
  });

  it('in a session of large reads, clears only in full steps and far fewer times than there are reads', () => {
    // 40 reads of ~25k tokens in a 200k window: the context after each read as the loop tracks it.
    const window = 200_000;
    const session = (policy: ClearingPolicy) => {
      let messages: Message[] = [user('read them')];
      let clearings = 0;
      for (let i = 0; i < 40; i++) {
        messages.push(call(`r${i}`));
        const contextTokens = 3_000 + messages.reduce((sum, m) => sum + tokensOfMessage(m), 0) + 25_000;
        const decision = decideClearing({ messages, contextTokens, window }, policy);
        if (decision.clear) {
          clearings++;
          expect(decision.freedTokens).toBeGreaterThanOrEqual(window * policy.minStep);
          messages = withCleared(messages, decision.results, new Map(decision.results.map((r) => [r.toolUseId, `/s/${r.toolUseId}`])));
        }
        messages.push(result(`r${i}`, 'x'.repeat(100_000)));
        expect(
          toolResults(messages)
            .slice(-policy.minKeepTurns)
            .some((t) => t.startsWith(CLEARED_PREFIX)),
        ).toBe(false);
      }
      return clearings;
    };
    // Without the minimum step (any clearing that gets under the trigger), two results a clearing.
    expect(session({ ...DEFAULT_CLEARING, minStep: 0 })).toBe(19);
    expect(session(DEFAULT_CLEARING)).toBe(12);
    expect(session({ ...DEFAULT_CLEARING, minKeepTurns: 1 })).toBe(13);
  });

  it('never clears a result twice, and its stub names the call and the file', () => {
    const stub = clearedStub('Read {"file_path":"/w/a.ts"}', '/s/cleared-Read-1.txt');
    expect(stub.startsWith(CLEARED_PREFIX)).toBe(true);
    expect(stub).toContain('Read {"file_path":"/w/a.ts"}');
    expect(stub).toContain('/s/cleared-Read-1.txt');
    const messages = [
      user('go'),
      call('a'),
      result('a', stub),
      call('b'),
      result('b', 'y'.repeat(400_000)),
      call('c'),
      result('c', 'z'),
      call('d'),
    ];
    expect(cleared(decideClearing({ messages, contextTokens: 150_000, window: 200_000 }, { ...DEFAULT_CLEARING, keepTurns: 2 }))).toEqual([
      'b',
    ]);
  });
});

describe('compaction', () => {
  const messages: Message[] = [
    user('fix the bug'),
    call('r1', 'Read', { file_path: '/w/a.ts' }),
    result('r1', 'code… The full output is saved in /s/Read-1.txt. Read more with Read'),
    call('b1', 'Bash', { command: 'npm test' }),
    result('b1', 'FAIL\n[exit code 1]', 'Bash', true),
    call('e1', 'Edit', { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' }),
    result('e1', 'edited', 'Edit'),
    user('now run it again'),
    call('b2', 'Bash', { command: 'npm test' }),
    result('b2', 'ok\n[exit code 0]', 'Bash'),
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
  ];

  it('splits before an assistant turn, so every call and its result stay on one side', () => {
    const split = splitForCompaction(messages, 2);
    expect(split?.kept[0].role).toBe('assistant');
    expect(split?.older.at(-1)?.role).toBe('user');
    expect(splitForCompaction([user('hi')], 2)).toBeUndefined();
  });

  it('keeps the prompts verbatim and the facts of each call: files, spill files, commands and exit codes', () => {
    expect(toolFacts(messages.slice(0, 7))).toEqual([
      '- read /w/a.ts — full output in /s/Read-1.txt',
      '- ran `npm test` (exit code 1) — failed: FAIL',
      '- edited /w/a.ts',
    ]);
    const split = splitForCompaction(messages, 2);
    if (!split) throw new Error('expected a split');
    const compacted = compactedHistory(split, 'The bug is in a.ts.');
    const head = compacted[0].content[0];
    expect(head.type === 'text' && head.text.startsWith(COMPACTED_HEADER)).toBe(true);
    const text = head.type === 'text' ? head.text : '';
    expect(text).toContain('> fix the bug');
    expect(text).toContain('- edited /w/a.ts');
    expect(text).toContain('The bug is in a.ts.');
    expect(compacted.slice(1)).toEqual(split.kept);
    // A second compaction carries the first one's prompts and facts forward.
    const again = splitForCompaction(
      [
        ...compacted,
        user('and the docs'),
        call('w1', 'Write', { file_path: '/w/d.md' }),
        result('w1', 'ok', 'Write'),
        call('x', 'LS', {}),
        result('x', '.'),
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      ],
      2,
    );
    if (!again) throw new Error('expected a second split');
    const second = compactedHistory(again, 'More.').at(0)?.content[0];
    const secondText = second?.type === 'text' ? second.text : '';
    expect(secondText).toContain('> fix the bug');
    expect(secondText).toContain('> and the docs');
    expect(secondText).toContain('- edited /w/a.ts');
    expect(secondText).toContain('- wrote /w/d.md');
    expect(secondText.split(COMPACTED_HEADER)).toHaveLength(2);
  });
});

describe('isContextLimitError', () => {
  it('recognises each provider’s prompt-too-long answer and nothing else', () => {
    expect(isContextLimitError(new ProviderError('HTTP 400: prompt is too long: 210000 tokens > 200000 maximum.', 400))).toBe(true);
    expect(isContextLimitError(new ProviderError("HTTP 400: This model's maximum context length is 128000 tokens.", 400))).toBe(true);
    expect(isContextLimitError(new ProviderError('HTTP 400: Your input exceeds the context window of this model.', 400))).toBe(true);
    expect(isContextLimitError(new ProviderError('HTTP 400: max_tokens: must be positive', 400))).toBe(false);
    expect(isContextLimitError(new ProviderError('HTTP 429: too many tokens per minute', 429))).toBe(false);
  });
});
