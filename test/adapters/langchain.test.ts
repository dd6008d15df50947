// wield's tools inside real LangChain (@langchain/core 1): a scripted chat model sends good,
// damaged, denied and parallel tool calls; the documented tool loop (bindTools → invoke each
// ToolCall → ToolMessages back) runs them, all of one step at once; we check what the model got
// back and the disk.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as langchainAdapter from '../../src/adapters/langchain.js';
import { fromLangChainTool, toLangChainTools } from '../../src/adapters/langchain.js';
import type { ToolCallResult } from '../../src/runtime/tool/types.js';
import { expectScheduled, expectWrappedRepairs, schedulingSteps } from './scenarios.js';
import { makeWorkspace, type Workspace } from './workspace.js';

type ScriptedCall = { id: string; name: string; args: Record<string, unknown> };

/** A chat model that replies with the given steps in turn and keeps every prompt it was sent. */
class ScriptedChatModel extends BaseChatModel {
  readonly prompts: BaseMessage[][] = [];
  private step = 0;
  constructor(private readonly steps: Array<ScriptedCall[] | string>) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  /** The script already knows its tools. */
  override bindTools(): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.prompts.push(messages);
    const step = this.steps[this.step++] ?? 'out of script';
    const message =
      typeof step === 'string'
        ? new AIMessage(step)
        : new AIMessage({ content: '', tool_calls: step.map((call) => ({ ...call, type: 'tool_call' as const })) });
    return { generations: [{ message, text: typeof step === 'string' ? step : '' }] };
  }
}

/** The LangChain tool loop from its docs; each step's calls are invoked together. */
async function runLoop(model: ScriptedChatModel, tools: ReturnType<typeof toLangChainTools>, prompt: string): Promise<BaseMessage[]> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const messages: BaseMessage[] = [new HumanMessage(prompt)];
  for (let turn = 0; turn < 5; turn++) {
    const reply = (await model.invoke(messages)) as AIMessage;
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    const results = await Promise.all(reply.tool_calls.map((call) => byName.get(call.name)?.invoke(call) as Promise<ToolMessage>));
    messages.push(...results);
  }
  return messages;
}

function toolMessages(messages: BaseMessage[]): Record<string, ToolMessage> {
  const found: Record<string, ToolMessage> = {};
  for (const message of messages) if (message instanceof ToolMessage) found[message.tool_call_id] = message;
  return found;
}

let ws: Workspace;
afterEach(() => ws?.cleanup());

/** README's LangChain snippet, its imports checked against the module and taken off, the rest as written. */
function readmeSnippet(): { imports: string[]; body: string } {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('### LangChain.js'));
  const start = section.indexOf('```js\n') + 6;
  const code = section.slice(start, section.indexOf('\n```', start));
  const importLine = /^import \{ ([^}]+) \} from 'wield\/langchain';\n/m;
  const match = importLine.exec(code);
  if (!match) throw new Error('README: the LangChain snippet has no import from wield/langchain');
  return { imports: match[1].split(',').map((name) => name.trim()), body: code.replace(importLine, '') };
}

describe("README's LangChain snippet, as pasted", () => {
  it('a misspelt tool name gets a ToolMessage with "did you mean", not a crash', async () => {
    ws = makeWorkspace();
    const { imports, body } = readmeSnippet();
    const exported = langchainAdapter as Record<string, unknown>;
    for (const name of imports) expect(exported[name], `wield/langchain exports ${name}`).toBeTypeOf('function');
    const model = new ScriptedChatModel([[{ id: 'm1', name: 'Wrte', args: { file_path: 'a.txt', content: 'x' } }]]);
    const run = new Function('runtime', 'model', 'messages', ...imports, `return (async () => {\n${body}\nreturn toolMessages;\n})();`);
    const sent: ToolMessage[] = await run(ws.runtime, model, [new HumanMessage('write')], ...imports.map((name) => exported[name]));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ tool_call_id: 'm1', status: 'error' });
    expect(sent[0].content).toMatch(/^No tool named "Wrte"\. Did you mean "Write"\?/);
    expect(existsSync(ws.file('a.txt'))).toBe(false);
  });
});

describe('toLangChainTools', () => {
  it('offers the runtime pool, or the tools named', () => {
    ws = makeWorkspace();
    expect(
      toLangChainTools(ws.runtime)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['Edit', 'Probe', 'Read', 'Write']);
    expect(toLangChainTools(ws.runtime, { tools: ['Read'] }).map((t) => t.name)).toEqual(['Read']);
  });

  it('good, damaged, invalid, denied, unanswered and hook-blocked calls: one ToolMessage each, with wield’s text', async () => {
    ws = makeWorkspace();
    writeFileSync(ws.file('ask-me.txt'), 'one\n');
    const model = new ScriptedChatModel([
      [
        { id: 'good', name: 'Write', args: { file_path: 'a.txt', content: 'hello' } },
        { id: 'coerced', name: 'Probe', args: { id: 'p', safe: 'true', ms: '1' } },
        { id: 'invalid', name: 'Write', args: { file_path: 'c.txt' } },
        { id: 'denied', name: 'Write', args: { file_path: 'secret.txt', content: 'x' } },
        { id: 'blocked', name: 'Write', args: { file_path: 'x.tmp', content: 'x' } },
        { id: 'read', name: 'Read', args: { file_path: 'ask-me.txt' } },
      ],
      [{ id: 'unanswered', name: 'Edit', args: { file_path: 'ask-me.txt', old_string: 'one', new_string: 'ONE' } }],
      'done',
    ]);
    const messages = await runLoop(model, toLangChainTools(ws.runtime), 'write files');
    expect(messages.at(-1)?.content).toBe('done');
    const sent = toolMessages(messages);
    expect(Object.keys(sent).sort()).toEqual(['blocked', 'coerced', 'denied', 'good', 'invalid', 'read', 'unanswered']);
    expect(sent.good).toMatchObject({ status: 'success', content: expect.stringContaining('a.txt') });
    expect(sent.coerced).toMatchObject({ status: 'success', content: expect.stringMatching(/probe p done[\s\S]*\[wield: /) });
    expect(sent.invalid).toMatchObject({ status: 'error', content: expect.stringContaining('content') });
    expect(sent.denied).toMatchObject({ status: 'error', content: expect.stringMatching(/^Permission denied for Write: .*Do not retry/) });
    expect(sent.blocked).toMatchObject({ status: 'error', content: 'Blocked by a PreToolUse hook: no .tmp files here' });
    expect(sent.unanswered).toMatchObject({ status: 'error', content: expect.stringMatching(/no one can approve it/) });
    expect((sent.good.artifact as ToolCallResult).toolUseId).toBe('good');
    expect(ws.read('a.txt')).toBe('hello');
    expect(ws.read('ask-me.txt')).toBe('one\n');
    for (const absent of ['c.txt', 'secret.txt', 'x.tmp']) expect(existsSync(ws.file(absent))).toBe(false);
    // What the model was sent in its next request is those same messages.
    expect(model.prompts[1].filter((message) => message instanceof ToolMessage)).toHaveLength(6);
  });

  it("an ask goes to the runtime's askPermission", async () => {
    const asked: string[] = [];
    ws = makeWorkspace({
      askPermission: async (request) => {
        asked.push(request.toolUseId);
        return { behavior: 'allow' };
      },
    });
    writeFileSync(ws.file('ask-me.txt'), 'one\n');
    const model = new ScriptedChatModel([
      [{ id: 'r', name: 'Read', args: { file_path: 'ask-me.txt' } }],
      [{ id: 'e', name: 'Edit', args: { file_path: 'ask-me.txt', old_string: 'one', new_string: 'ONE' } }],
      'ok',
    ]);
    const sent = toolMessages(await runLoop(model, toLangChainTools(ws.runtime), 'edit'));
    expect(asked).toEqual(['e']);
    expect(sent.e.status).toBe('success');
    expect(ws.read('ask-me.txt')).toBe('ONE\n');
  });

  it('parallel calls of one step keep the scheduling rules: safe together, unsafe alone, one file at a time', async () => {
    ws = makeWorkspace();
    const model = new ScriptedChatModel([
      ...schedulingSteps(ws).map((step) => step.map(({ input, ...call }) => ({ ...call, args: input }))),
      'ok',
    ]);
    const sent = toolMessages(await runLoop(model, toLangChainTools(ws.runtime), 'go'));
    expectScheduled(ws);
    expect(Object.values(sent).map((message) => message.status)).toEqual(Array(8).fill('success'));
  });
});

describe('fromLangChainTool', () => {
  it('a LangChain tool joins a wield pool and gets wield’s repair and validation', async () => {
    ws = makeWorkspace();
    const shout = tool(async ({ word, times }) => word.toUpperCase().repeat(times), {
      name: 'Shout',
      description: 'Shouts a word',
      schema: z.object({ word: z.string(), times: z.number().int() }),
    });
    const wrapped = await fromLangChainTool(shout, { isReadOnly: () => true });
    await expectWrappedRepairs(ws, wrapped);
  });
});
