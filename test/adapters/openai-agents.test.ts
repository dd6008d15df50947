// wield's tools inside the real OpenAI Agents SDK (@openai/agents 0.14): a scripted Model sends
// good, damaged, denied and parallel calls; we check what the model gets back and the disk.
import { existsSync, writeFileSync } from 'node:fs';
import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  run,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromOpenAIAgentsTool, toOpenAIAgentsTools } from '../../src/adapters/openai-agents.js';
import { expectScheduled, expectWrappedRepairs, schedulingSteps } from './scenarios.js';
import { makeWorkspace, type Workspace } from './workspace.js';

type ScriptedCall = { id: string; name: string; input: string | Record<string, unknown> };

/** A Model that replies with the given steps in turn (tool calls, or a final text) and keeps every request. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  private step = 0;
  constructor(private readonly steps: Array<ScriptedCall[] | string>) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const step = this.steps[this.step++] ?? 'out of script';
    const output =
      typeof step === 'string'
        ? [
            {
              type: 'message' as const,
              role: 'assistant' as const,
              status: 'completed' as const,
              content: [{ type: 'output_text' as const, text: step }],
            },
          ]
        : step.map((call) => ({
            type: 'function_call' as const,
            callId: call.id,
            name: call.name,
            status: 'completed' as const,
            arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
          }));
    return { usage: new Usage(), output };
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the scripted model does not stream');
  }
}

/** The function outputs the model was sent in its n-th request, by call id. */
function outputsSent(model: ScriptedModel, request: number): Record<string, string> {
  const sent: Record<string, string> = {};
  const input = model.requests[request].input as AgentInputItem[];
  for (const item of input) {
    if (item.type !== 'function_call_result') continue;
    const output = item.output;
    sent[item.callId] =
      typeof output === 'string' ? output : !Array.isArray(output) && output.type === 'text' ? output.text : JSON.stringify(output);
  }
  return sent;
}

let ws: Workspace;
beforeAll(() => setTracingDisabled(true)); // the SDK's own tracing would try to reach OpenAI
afterEach(() => ws?.cleanup());

describe('toOpenAIAgentsTools', () => {
  it('offers the runtime pool, or the tools named', () => {
    ws = makeWorkspace();
    expect(
      toOpenAIAgentsTools(ws.runtime)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['Edit', 'Probe', 'Read', 'Write']);
    expect(toOpenAIAgentsTools(ws.runtime, { tools: ['Write'] }).map((t) => t.name)).toEqual(['Write']);
  });

  it('good, damaged, invalid, denied and hook-blocked calls: one output each, with wield’s text', async () => {
    ws = makeWorkspace();
    const model = new ScriptedModel([
      [
        { id: 'good', name: 'Write', input: { file_path: 'a.txt', content: 'hello' } },
        { id: 'damaged', name: 'Probe', input: '{"id": "p", "safe": "true", "ms": "1"}' },
        { id: 'invalid', name: 'Write', input: { file_path: 'c.txt' } },
        { id: 'denied', name: 'Write', input: { file_path: 'secret.txt', content: 'x' } },
        { id: 'blocked', name: 'Write', input: { file_path: 'x.tmp', content: 'x' } },
      ],
      'done',
    ]);
    const agent = new Agent({ name: 'writer', instructions: 'write', model, tools: toOpenAIAgentsTools(ws.runtime) });
    const result = await run(agent, 'write files');
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('done');
    const sent = outputsSent(model, 1);
    expect(Object.keys(sent).sort()).toEqual(['blocked', 'damaged', 'denied', 'good', 'invalid']);
    expect(sent.good).toContain('a.txt');
    expect(sent.damaged).toMatch(/^probe p done[\s\S]*\[wield: /);
    expect(sent.invalid).toMatch(/content/);
    expect(sent.denied).toMatch(/^Permission denied for Write: .*Do not retry/);
    expect(sent.blocked).toBe('Blocked by a PreToolUse hook: no .tmp files here');
    expect(ws.read('a.txt')).toBe('hello');
    for (const absent of ['c.txt', 'secret.txt', 'x.tmp']) expect(existsSync(ws.file(absent))).toBe(false);
  });

  it('arguments that are not JSON at all are refused by the SDK itself, before any tool runs', async () => {
    ws = makeWorkspace();
    const model = new ScriptedModel([[{ id: 'broken', name: 'Write', input: '{"file_path": "b.txt", "content": "bee",}' }], 'done']);
    const agent = new Agent({
      name: 'writer',
      instructions: 'write',
      model,
      tools: toOpenAIAgentsTools(ws.runtime, { approvals: 'runtime' }),
    });
    await run(agent, 'write');
    expect(outputsSent(model, 1).broken).toMatch(/^An error occurred while parsing tool arguments\. Please try again with valid JSON\./);
    expect(existsSync(ws.file('b.txt'))).toBe(false);
  });

  it('an ask becomes the SDK interruption: approved runs, rejected does not', async () => {
    ws = makeWorkspace();
    writeFileSync(ws.file('ask-me.txt'), 'one two\n');
    const edit = (id: string, from: string, to: string) => ({
      id,
      name: 'Edit',
      input: { file_path: 'ask-me.txt', old_string: from, new_string: to },
    });
    const model = new ScriptedModel([
      [{ id: 'r', name: 'Read', input: { file_path: 'ask-me.txt' } }],
      [edit('e1', 'one', 'ONE'), edit('e2', 'two', 'TWO')],
      'edited',
    ]);
    const agent = new Agent({ name: 'editor', instructions: 'edit', model, tools: toOpenAIAgentsTools(ws.runtime) });
    const first = await run(agent, 'edit');
    expect(first.interruptions.map((item) => (item.rawItem as { callId: string }).callId)).toEqual(['e1', 'e2']);
    expect(ws.read('ask-me.txt')).toBe('one two\n');
    for (const item of first.interruptions) {
      if ((item.rawItem as { callId: string }).callId === 'e1') first.state.approve(item);
      else first.state.reject(item);
    }
    const second = await run(agent, first.state);
    expect(second.finalOutput).toBe('edited');
    expect(ws.read('ask-me.txt')).toBe('ONE two\n');
    const sent = outputsSent(model, 2);
    expect(sent.e1).toMatch(/ask-me\.txt/);
    expect(sent.e2).not.toMatch(/TWO/);
  });

  it("approvals: 'runtime' asks the runtime; with nobody to ask the model gets the denial text", async () => {
    ws = makeWorkspace();
    writeFileSync(ws.file('ask-me.txt'), 'one\n');
    const model = new ScriptedModel([
      [{ id: 'r', name: 'Read', input: { file_path: 'ask-me.txt' } }],
      [{ id: 'e', name: 'Edit', input: { file_path: 'ask-me.txt', old_string: 'one', new_string: 'ONE' } }],
      'ok',
    ]);
    const agent = new Agent({
      name: 'editor',
      instructions: 'edit',
      model,
      tools: toOpenAIAgentsTools(ws.runtime, { approvals: 'runtime' }),
    });
    await run(agent, 'edit');
    expect(outputsSent(model, 2).e).toMatch(/no one can approve it/);
    expect(ws.read('ask-me.txt')).toBe('one\n');
  });

  it('parallel calls of one turn keep the scheduling rules: safe together, unsafe alone, one file at a time', async () => {
    ws = makeWorkspace();
    const model = new ScriptedModel([...schedulingSteps(ws), 'ok']);
    const agent = new Agent({ name: 'p', instructions: 'go', model, tools: toOpenAIAgentsTools(ws.runtime) });
    await run(agent, 'go');
    expectScheduled(ws);
    expect(Object.keys(outputsSent(model, 2)).sort()).toEqual(['e1', 'e2', 'k1', 'k2', 'r', 's1', 's2', 'u1']);
  });
});

describe('fromOpenAIAgentsTool', () => {
  it('an Agents SDK tool joins a wield pool and gets wield’s repair and validation', async () => {
    ws = makeWorkspace();
    const shout = tool({
      name: 'Shout',
      description: 'Shouts a word',
      parameters: z.object({ word: z.string(), times: z.number().int() }),
      execute: async ({ word, times }) => word.toUpperCase().repeat(times),
    });
    const wrapped = fromOpenAIAgentsTool(shout, { isReadOnly: () => true });
    await expectWrappedRepairs(ws, wrapped);
  });
});
