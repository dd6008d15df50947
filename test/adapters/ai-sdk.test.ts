// wield's tools inside the real AI SDK (ai 6): a scripted MockLanguageModelV3 sends good, damaged,
// denied and parallel calls; we check what the model gets back and what happened on disk.
import { existsSync, writeFileSync } from 'node:fs';
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromAISDKTool, toAISDKTools, wieldToolCallRepair } from '../../src/adapters/ai-sdk.js';
import { expectScheduled, expectWrappedRepairs, schedulingSteps } from './scenarios.js';
import { makeWorkspace, type Workspace } from './workspace.js';

type Script = ConstructorParameters<typeof MockLanguageModelV3>[0];
type ScriptedCall = { id: string; name: string; input: string | Record<string, unknown> };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model that replies with the given steps in turn: a list of tool calls, or a final text. */
function scriptedModel(steps: Array<ScriptedCall[] | string>): MockLanguageModelV3 {
  const replies = steps.map((step) =>
    typeof step === 'string'
      ? {
          content: [{ type: 'text' as const, text: step }],
          finishReason: { unified: 'stop' as const, raw: undefined },
          usage,
          warnings: [],
        }
      : {
          content: step.map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.id,
            toolName: call.name,
            input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
          })),
          finishReason: { unified: 'tool-calls' as const, raw: undefined },
          usage,
          warnings: [],
        },
  );
  return new MockLanguageModelV3({ doGenerate: replies as NonNullable<Script>['doGenerate'] });
}

/** The tool results the model was sent in its n-th request, by call id. */
function resultsSent(model: MockLanguageModelV3, request: number): Record<string, { type: string; value?: unknown; reason?: string }> {
  const sent: Record<string, { type: string; value?: unknown; reason?: string }> = {};
  for (const message of model.doGenerateCalls[request].prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') sent[part.toolCallId] = part.output as never;
  }
  return sent;
}

let ws: Workspace;
afterEach(() => ws?.cleanup());

describe('toAISDKTools', () => {
  it('offers the runtime pool, or the tools named', () => {
    ws = makeWorkspace();
    expect(Object.keys(toAISDKTools(ws.runtime)).sort()).toEqual(['Edit', 'Probe', 'Read', 'Write']);
    expect(Object.keys(toAISDKTools(ws.runtime, { tools: ['Read'] }))).toEqual(['Read']);
    expect(() => toAISDKTools(ws.runtime, { tools: ['Nope'] })).toThrow(/no tool named "Nope".*Read/);
  });

  it('good, damaged, invalid, denied and hook-blocked calls: one result each, with wield’s text', async () => {
    ws = makeWorkspace();
    const model = scriptedModel([
      [
        { id: 'good', name: 'Write', input: { file_path: 'a.txt', content: 'hello' } },
        { id: 'damaged', name: 'Write', input: '{"file_path": "b.txt", "content": "bee",}' },
        { id: 'invalid', name: 'Write', input: { file_path: 'c.txt' } },
        { id: 'denied', name: 'Write', input: { file_path: 'secret.txt', content: 'x' } },
        { id: 'blocked', name: 'Write', input: { file_path: 'x.tmp', content: 'x' } },
        { id: 'renamed', name: 'write', input: { file_path: 'd.txt', content: 'dee' } },
      ],
      'done',
    ]);
    const result = await generateText({
      model,
      prompt: 'write files',
      tools: toAISDKTools(ws.runtime),
      experimental_repairToolCall: wieldToolCallRepair(ws.runtime),
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('done');
    const sent = resultsSent(model, 1);
    expect(Object.keys(sent).sort()).toEqual(['blocked', 'damaged', 'denied', 'good', 'invalid', 'renamed']);
    expect(sent.good).toMatchObject({ type: 'text', value: expect.stringContaining('a.txt') });
    expect(sent.damaged.type).toBe('text');
    expect(sent.damaged.value).toMatch(/\[wield: .*repaired/i);
    expect(sent.invalid).toMatchObject({ type: 'error-text', value: expect.stringContaining('content') });
    expect(sent.denied).toMatchObject({ type: 'error-text', value: expect.stringMatching(/^Permission denied for Write: .*Do not retry/) });
    expect(sent.blocked).toMatchObject({ type: 'error-text', value: 'Blocked by a PreToolUse hook: no .tmp files here' });
    expect(sent.renamed.type).toBe('text');
    expect(ws.read('a.txt')).toBe('hello');
    expect(ws.read('b.txt')).toBe('bee');
    expect(ws.read('d.txt')).toBe('dee');
    for (const absent of ['c.txt', 'secret.txt', 'x.tmp']) expect(existsSync(ws.file(absent))).toBe(false);
  });

  it('an ask becomes the SDK approval flow: approved runs, refused does not', async () => {
    ws = makeWorkspace();
    writeFileSync(ws.file('ask-me.txt'), 'one two\n');
    const tools = toAISDKTools(ws.runtime);
    const edit = (id: string, from: string, to: string) => ({
      id,
      name: 'Edit',
      input: { file_path: 'ask-me.txt', old_string: from, new_string: to },
    });
    const model = scriptedModel([
      [{ id: 'r', name: 'Read', input: { file_path: 'ask-me.txt' } }],
      [edit('e1', 'one', 'ONE'), edit('e2', 'two', 'TWO')],
      'edited',
    ]);
    const first = await generateText({ model, prompt: 'edit', tools, stopWhen: stepCountIs(5) });
    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests.map((part) => part.toolCall.toolCallId)).toEqual(['e1', 'e2']);
    expect(ws.read('ask-me.txt')).toBe('one two\n');

    const messages: ModelMessage[] = [
      { role: 'user', content: 'edit' },
      ...first.response.messages,
      {
        role: 'tool',
        content: requests.map((part) => ({
          type: 'tool-approval-response' as const,
          approvalId: part.approvalId,
          approved: part.toolCall.toolCallId === 'e1',
          reason: part.toolCall.toolCallId === 'e1' ? undefined : 'not that one',
        })),
      },
    ];
    const second = await generateText({ model, messages, tools, stopWhen: stepCountIs(5) });
    expect(second.text).toBe('edited');
    expect(ws.read('ask-me.txt')).toBe('ONE two\n');
    const sent = resultsSent(model, 2);
    expect(sent.e1).toMatchObject({ type: 'text' });
    expect(sent.e2).toMatchObject({ type: 'execution-denied', reason: 'not that one' });
  });

  it("approvals: 'runtime' asks the runtime; with nobody to ask the model gets the denial text", async () => {
    ws = makeWorkspace();
    writeFileSync(ws.file('ask-me.txt'), 'one\n');
    const model = scriptedModel([
      [{ id: 'r', name: 'Read', input: { file_path: 'ask-me.txt' } }],
      [{ id: 'e', name: 'Edit', input: { file_path: 'ask-me.txt', old_string: 'one', new_string: 'ONE' } }],
      'ok',
    ]);
    await generateText({ model, prompt: 'edit', tools: toAISDKTools(ws.runtime, { approvals: 'runtime' }), stopWhen: stepCountIs(5) });
    expect(resultsSent(model, 2).e).toMatchObject({ type: 'error-text', value: expect.stringMatching(/no one can approve it/) });
    expect(ws.read('ask-me.txt')).toBe('one\n');
  });

  it('parallel calls of one step keep the scheduling rules: safe together, unsafe alone, one file at a time', async () => {
    ws = makeWorkspace();
    const model = scriptedModel([...schedulingSteps(ws), 'ok']);
    await generateText({ model, prompt: 'go', tools: toAISDKTools(ws.runtime), stopWhen: stepCountIs(5) });
    const { s1, s2, u1 } = expectScheduled(ws);
    expect(u1.start).toBeGreaterThanOrEqual(Math.max(s1.end, s2.end));
    const sent = resultsSent(model, 2);
    expect(Object.values(sent).every((output) => output.type === 'text')).toBe(true);
  });
});

describe('fromAISDKTool', () => {
  it('an AI SDK tool joins a wield pool and gets wield’s repair, validation and permission', async () => {
    ws = makeWorkspace();
    const shout = tool({
      description: 'Shouts a word',
      inputSchema: z.object({ word: z.string(), times: z.number().int() }),
      execute: async ({ word, times }) => word.toUpperCase().repeat(times),
    });
    const wrapped = await fromAISDKTool('Shout', shout, { isReadOnly: () => true });
    await expectWrappedRepairs(ws, wrapped);
  });
});
