// Property: whatever clearing and compaction do to a history, each provider still gets a valid
// conversation — Anthropic: alternating turns, every tool_use answered by a tool_result in the
// next turn and no orphan results; Chat: tool messages right after their call; Responses: each
// function_call with exactly one function_call_output after it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideClearing, keptFrom, withCleared } from '../../../src/runtime/context/clearing.js';
import { compactedHistory, splitForCompaction } from '../../../src/runtime/context/compaction.js';
import { messagesTokens } from '../../../src/runtime/context/tokens.js';
import { toAnthropicMessages } from '../../../src/runtime/providers/anthropic-request.js';
import { toChatMessages } from '../../../src/runtime/providers/openai-chat-request.js';
import { toResponsesInput } from '../../../src/runtime/providers/openai-responses-request.js';
import type { Message, UserPart } from '../../../src/runtime/providers/types.js';

const turn = fc.record({
  prompt: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: undefined }),
  text: fc.string({ maxLength: 10 }),
  results: fc.array(fc.record({ size: fc.integer({ min: 0, max: 60_000 }), isError: fc.boolean() }), { maxLength: 3 }),
});

/** A history as the loop builds it: a prompt, then assistant turns, each call answered in the next message. */
type Turn = typeof turn extends fc.Arbitrary<infer T> ? T : never;

function build(turns: Turn[]): Message[] {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'start' }] }];
  let id = 0;
  for (const t of turns) {
    const calls = t.results.map(() => `call_${++id}`);
    messages.push({
      role: 'assistant',
      content: [
        ...(t.text !== '' ? [{ type: 'text' as const, text: t.text }] : []),
        ...calls.map((callId) => ({ type: 'tool_use' as const, id: callId, name: 'Read', input: { file_path: `/w/${callId}` } })),
      ],
    });
    const parts: UserPart[] = t.results.map((r, i) => ({
      type: 'tool_result',
      toolUseId: calls[i],
      toolName: 'Read',
      content: [{ type: 'text', text: 'x'.repeat(r.size) }],
      isError: r.isError,
    }));
    if (t.prompt !== undefined) parts.push({ type: 'text', text: t.prompt });
    if (parts.length > 0) messages.push({ role: 'user', content: parts });
  }
  return messages;
}

function expectValidAnthropic(history: Message[]): void {
  const messages = toAnthropicMessages(history);
  expect(messages[0]?.role).toBe('user');
  messages.forEach((message, i) => {
    if (i > 0) expect(message.role).not.toBe(messages[i - 1].role);
    const blocks = typeof message.content === 'string' ? [] : message.content;
    const uses = blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    if (uses.length > 0) {
      const next = messages[i + 1];
      const answered =
        next && typeof next.content !== 'string' ? next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : [];
      expect(answered).toEqual(uses);
    }
    const results = blocks.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []));
    if (results.length > 0) {
      const previous = messages[i - 1];
      const asked =
        previous && typeof previous.content !== 'string' ? previous.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [];
      expect(results).toEqual(asked);
    }
  });
}

function expectValidChat(history: Message[]): void {
  const messages = toChatMessages('sys', history);
  messages.forEach((message, i) => {
    if (message.role === 'assistant' && message.tool_calls) {
      const ids = message.tool_calls.map((c) => c.id);
      const following = messages.slice(i + 1, i + 1 + ids.length).map((m) => (m.role === 'tool' ? m.tool_call_id : undefined));
      expect(following).toEqual(ids);
    }
    if (message.role === 'tool') expect(['assistant', 'tool']).toContain(messages[i - 1]?.role);
  });
}

function expectValidResponses(history: Message[]): void {
  const items = toResponsesInput(history);
  const calls = items.flatMap((item, i) => ('type' in item && item.type === 'function_call' ? [{ id: item.call_id, at: i }] : []));
  const outputs = items.flatMap((item, i) => ('type' in item && item.type === 'function_call_output' ? [{ id: item.call_id, at: i }] : []));
  expect(outputs.map((o) => o.id).sort()).toEqual(calls.map((c) => c.id).sort());
  for (const output of outputs) expect(calls.find((c) => c.id === output.id)?.at ?? Infinity).toBeLessThan(output.at);
}

function expectValid(history: Message[]): void {
  expectValidAnthropic(history);
  expectValidChat(history);
  expectValidResponses(history);
}

describe('histories after clearing and compaction', () => {
  it('stay valid conversations for every provider', () => {
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 }), (turns, keep) => {
        const history = build(turns);
        expectValid(history);
        const tokens = messagesTokens(history);
        const decision = decideClearing(
          { messages: history, contextTokens: tokens, window: Math.max(1, Math.floor(tokens / 1.5)) },
          { trigger: 0.5, target: 0.1, keepTurns: keep + 1, minKeepTurns: keep, minStep: 0 },
        );
        const chosen = decision.clear ? decision.results : [];
        // The last minKeepTurns turns keep their results, whatever the sizes.
        expect(chosen.every((c) => c.messageIndex < keptFrom(history, keep))).toBe(true);
        const cleared = withCleared(history, chosen, new Map(chosen.map((c) => [c.toolUseId, `/s/${c.toolUseId}.txt`])));
        expectValid(cleared);
        expect(messagesTokens(cleared)).toBeLessThanOrEqual(tokens);
        const split = splitForCompaction(cleared, keep);
        if (split) {
          const compacted = compactedHistory(split, 'summary');
          expectValid(compacted);
          expect(compacted.slice(1)).toEqual(split.kept);
        }
      }),
      { numRuns: 150 },
    );
  });
});
