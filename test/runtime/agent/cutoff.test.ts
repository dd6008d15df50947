// Replies cut off at the output-token limit or refused: the calls they cut are not run, and the
// run does not end as a finished answer.
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../src/runtime/agent/loop.js';
import { endOfReply, isCompleteJSON, releaseHeld } from '../../../src/runtime/agent/cutoff.js';
import { cutOffContent } from '../../../src/runtime/results/errors.js';
import { textBlocks } from '../../../src/runtime/agent/history.js';
import type { Message, StopReason } from '../../../src/runtime/providers/types.js';
import { callTools, expectPaired, harness, noteTool, prompt, reply, runScripted, scriptedProvider, type ScriptedTurn } from './scripted.js';

const cutOffCallMessage = (name: string): string => textBlocks(cutOffContent(name).content);

function results(messages: readonly Message[]) {
  return messages.flatMap((m) => (m.role === 'user' ? m.content.filter((p) => p.type === 'tool_result') : [])) as {
    toolUseId: string;
    isError: boolean;
    content: { type: string; text?: string }[];
  }[];
}

const textOf = (r: { content: { type: string; text?: string }[] }) => r.content.map((b) => b.text ?? '').join('');

/** A scripted turn ending with the given stop reason instead of tool_use / end_turn. */
function endingWith(turn: ScriptedTurn, stopReason: StopReason): ScriptedTurn {
  return turn.map((step) => (step.type === 'message_end' ? { ...step, stopReason } : step));
}

const run = (turns: ScriptedTurn[]) => runScripted(turns);

describe('cut-off decisions', () => {
  it('isCompleteJSON: whole values and no arguments are complete, a cut object is not', () => {
    expect(isCompleteJSON('{"a":1}')).toBe(true);
    expect(isCompleteJSON('')).toBe(true);
    expect(isCompleteJSON('  ')).toBe(true);
    expect(isCompleteJSON('[1]')).toBe(true);
    expect(isCompleteJSON('{"file_path":"t.txt","content":"abc')).toBe(false);
    expect(isCompleteJSON('{"a":1')).toBe(false);
  });

  it('releaseHeld: at the token limit incomplete calls get the cut-off result, the rest run', () => {
    const held = [
      { call: { id: 'a', name: 'Write', input: '{"content":"ab' }, complete: false },
      { call: { id: 'b', name: 'Read', input: { file_path: 'x' } }, complete: true },
    ];
    const cut = releaseHeld(held, 'max_tokens');
    expect(cut.run.map((call) => call.id)).toEqual(['b']);
    expect(cut.cutOff).toEqual([
      expect.objectContaining({
        toolUseId: 'a',
        toolName: 'Write',
        isError: true,
        errorKind: 'cut_off',
        content: [{ type: 'text', text: cutOffCallMessage('Write') }],
      }),
    ]);
    // Any other stop: everything runs (the pipeline repairs JSON as before).
    for (const reason of ['tool_use', 'end_turn', 'other', 'refusal'] as const) {
      expect(releaseHeld(held, reason)).toEqual({ run: held.map((h) => h.call), cutOff: [] });
    }
  });

  it('cutOffCallMessage says what happened and what to send instead', () => {
    const message = cutOffCallMessage('Write');
    expect(message).toMatch(/cut off at the output-token limit/);
    expect(message).toMatch(/nothing was run/);
    expect(message).toMatch(/Write.*Edit/);
  });

  it('endOfReply: only a finished reply is end_turn', () => {
    expect(endOfReply('end_turn')).toEqual({ stopReason: 'end_turn' });
    expect(endOfReply('other')).toEqual({ stopReason: 'end_turn' });
    expect(endOfReply('max_tokens')).toMatchObject({ stopReason: 'max_tokens', error: expect.stringMatching(/output-token limit/) });
    expect(endOfReply('refusal')).toMatchObject({ stopReason: 'refusal', error: expect.stringMatching(/declined|content filter/) });
  });
});

describe('runAgent with replies that stop short', () => {
  it('ends a reply cut off at the token limit as max_tokens, with the partial answer and an error', async () => {
    const { result, events } = await run([endingWith(reply('The answer is that'), 'max_tokens')]);
    expect(result.stopReason).toBe('max_tokens');
    expect(result.answer).toBe('The answer is that');
    expect(result.error).toMatch(/cut off at its output-token limit/);
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'done', result: { stopReason: 'max_tokens' } });
  });

  it('ends a refused or filtered reply as refusal', async () => {
    const { result } = await run([
      endingWith([{ type: 'message_end', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 0 } }], 'refusal'),
    ]);
    expect(result.stopReason).toBe('refusal');
    expect(result.answer).toBe('');
    expect(result.error).toMatch(/refusal/);
  });

  it('does not run a call cut off at the limit; the whole calls of that reply run, and the model hears why', async () => {
    const turn = endingWith(
      callTools([
        { id: 'whole', name: 'Note', input: '{"text":"first"}' },
        { id: 'cut', name: 'Note', input: '{"text":"sec' },
      ]),
      'max_tokens',
    );
    const { result, provider, events } = await run([turn, reply('Sent it again.')]);
    expect(result.stopReason).toBe('end_turn');
    expectPaired(result.messages);
    const [whole, cut] = results(result.messages);
    expect(whole).toMatchObject({ toolUseId: 'whole', isError: false });
    expect(textOf(whole)).toBe('noted first');
    expect(cut).toMatchObject({ toolUseId: 'cut', isError: true, errorKind: 'cut_off' });
    expect(textOf(cut)).toBe(cutOffCallMessage('Note'));
    // Only the whole call reached the pipeline.
    expect(events.filter((e) => e.type === 'tool_start').map((e) => (e as { toolUseId: string }).toolUseId)).toEqual(['whole']);
    expect(JSON.stringify(provider.requests[1].messages)).toContain('cut off at the output-token limit');
  });

  it("still repairs and runs damaged (closed) JSON when the reply was not cut off, keeping the model's order", async () => {
    const seen: string[] = [];
    const recording = {
      ...noteTool,
      call: async (input: { text: string }, ctx: Parameters<typeof noteTool.call>[1]) => {
        seen.push(input.text);
        return noteTool.call(input, ctx);
      },
    };
    const h = harness([recording]);
    const provider = scriptedProvider([
      callTools([
        { id: 'a', name: 'Note', input: '{"text":"one",}' },
        { id: 'b', name: 'Note', input: '{"text":"two"}' },
      ]),
      reply('ok'),
    ]);
    const result = await runAgent({
      provider,
      model: 'm',
      messages: [prompt('go')],
      rt: h.rt,
      signal: new AbortController().signal,
    });
    const [one, two] = results(result.messages).map(textOf);
    expect(one).toMatch(/^noted one.*repaired/);
    expect(two).toBe('noted two');
    expect(seen).toEqual(['one', 'two']);
  });
});
