// One table, every entry point: the same calls through runBatch, runToolCall, the real AI SDK
// (generateText), the real Agents SDK (run), LangChain's tools and the MCP gateway (the SDK's
// client) end the same way — aborts, hooks, permission asks with and without a person, unknown
// tools, invalid input, a throwing tool and a throwing callback. Only the model is scripted.
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { Agent, type Model, type ModelResponse, run, setTracingDisabled, Usage } from '@openai/agents';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAISDKTools, wieldToolCallRepair } from '../../src/adapters/ai-sdk.js';
import { invokeToolCall, toLangChainTools } from '../../src/adapters/langchain.js';
import { toOpenAIAgentsTools, wieldRunOptions } from '../../src/adapters/openai-agents.js';
import { resultText } from '../../src/adapters/pool.js';
import type { HookHandler } from '../../src/runtime/hooks/types.js';
import { createGatewayServer } from '../../src/runtime/mcp/gateway.js';
import { runToolCall } from '../../src/runtime/pipeline/run.js';
import { createRuntime } from '../../src/runtime/pipeline/runtime.js';
import type { AskPermission, PermissionPolicy, RuntimeContext, ToolEvent } from '../../src/runtime/pipeline/types.js';
import { ToolRegistry } from '../../src/runtime/registry/registry.js';
import { runBatch } from '../../src/runtime/scheduler/batch.js';
import { defineTool } from '../../src/runtime/tool/define.js';
import { createSession } from '../../src/runtime/tool/session.js';
import type { AnyTool } from '../../src/runtime/tool/types.js';

/** What the model reads back: the text, and whether it is an error (the Agents SDK passes text only). */
interface Outcome {
  isError?: boolean;
  text: string;
}

/** Who answers an ask: nobody, a person who allows, or a person who presses Esc (aborts) instead. */
type Person = 'none' | 'allows' | 'aborts';

interface Scenario {
  call: { name: string; input: Record<string, unknown> };
  person?: Person;
  hooks?: HookHandler[];
  /** Aborts the call once the Slow tool started. */
  abortWhileRunning?: boolean;
  emitThrows?: boolean;
  expected: { isError: boolean; text: RegExp };
  /** Where an entry point's framework words the same result its own way: the text it must show. */
  framed?: Record<string, (reference: string) => string>;
}

interface Harness {
  rt: RuntimeContext;
  signal: AbortSignal;
  /** The runtime's askPermission as a person would answer, `abort` standing for Esc. */
  person: Person;
  abort: () => void;
  /** The result as the runtime reported it (for an entry whose client gave up on the call). */
  lastResult: () => Outcome | undefined;
}

type Entry = (scenario: Scenario, h: Harness) => Promise<Outcome>;

let onStarted: () => void = () => undefined;
const tools: AnyTool[] = [
  defineTool({
    name: 'Echo',
    description: 'Echoes its text',
    inputSchema: z.object({ text: z.string() }),
    isReadOnly: () => true,
    call: async (input) => input.text,
  }),
  defineTool({
    name: 'Slow',
    description: 'Runs until aborted',
    inputSchema: z.object({}),
    interruptBehavior: () => 'cancel',
    call: (_input, ctx) =>
      new Promise<string>((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
        onStarted();
      }),
  }),
  defineTool({
    name: 'Boom',
    description: 'Always throws',
    inputSchema: z.object({}),
    call: async (): Promise<string> => {
      throw new Error('disk on fire');
    },
  }),
  defineTool({ name: 'Gated', description: 'The policy asks about it', inputSchema: z.object({}), call: async () => 'gated ran' }),
];

/** Allows everything but Gated, which it asks about. */
const policy: PermissionPolicy = {
  decide: async ({ tool }) =>
    tool.name === 'Gated' ? { behavior: 'ask', reason: 'Gated needs a yes' } : { behavior: 'allow', reason: 'ok' },
};

function harness(scenario: Scenario): Harness {
  const controller = new AbortController();
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-entry-'));
  let last: Outcome | undefined;
  const person = scenario.person ?? 'none';
  const askPermission: AskPermission | undefined =
    person === 'none'
      ? undefined
      : async () => {
          if (person === 'allows') return { behavior: 'allow' };
          controller.abort();
          return { behavior: 'deny', message: 'pressed Esc' };
        };
  const emit = (event: ToolEvent): void => {
    if (event.type === 'tool_end') last = { isError: event.result.isError, text: resultText(event.result) };
    if (scenario.emitThrows) throw new Error('the UI broke');
  };
  const rt = createRuntime({
    registry,
    session: createSession({ cwd: dir, dir: path.join(dir, '.session') }),
    policy,
    hooks: scenario.hooks,
    askPermission,
    emit,
  });
  if (scenario.abortWhileRunning) onStarted = () => controller.abort();
  return { rt, signal: controller.signal, person, abort: () => controller.abort(), lastResult: () => last };
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** One model step that makes the scenario's call. */
function aiModel(scenario: Scenario): MockLanguageModelV3 {
  const content = [
    { type: 'tool-call' as const, toolCallId: 'c1', toolName: scenario.call.name, input: JSON.stringify(scenario.call.input) },
  ];
  return new MockLanguageModelV3({ doGenerate: { content, finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] } });
}

/** The Agents SDK's Model: the scenario's call, then a closing text. */
function agentsModel(scenario: Scenario): Model {
  let step = 0;
  return {
    async getResponse(): Promise<ModelResponse> {
      const output =
        step++ === 0
          ? [
              {
                type: 'function_call' as const,
                callId: 'c1',
                name: scenario.call.name,
                status: 'completed' as const,
                arguments: JSON.stringify(scenario.call.input),
              },
            ]
          : [
              {
                type: 'message' as const,
                role: 'assistant' as const,
                status: 'completed' as const,
                content: [{ type: 'output_text' as const, text: 'done' }],
              },
            ];
      return { usage: new Usage(), output };
    },
    getStreamedResponse(): AsyncIterable<never> {
      throw new Error('not streamed');
    },
  };
}

const request = (scenario: Scenario) => ({ id: 'c1', ...scenario.call });
const outcome = (result: { isError: boolean; content: Array<{ type: string; text?: string }> }): Outcome => ({
  isError: result.isError,
  text: result.content.map((block) => block.text ?? '').join('\n'),
});

const entries: Record<string, Entry> = {
  runBatch: async (scenario, h) => outcome((await runBatch([request(scenario)], h.rt, { signal: h.signal }))[0]),
  runToolCall: async (scenario, h) => outcome(await runToolCall(request(scenario), h.rt, h.signal)),
  'AI SDK generateText': async (scenario, h) => {
    const result = await generateText({
      model: aiModel(scenario),
      prompt: 'go',
      tools: toAISDKTools(h.rt, { approvals: 'runtime' }),
      experimental_repairToolCall: wieldToolCallRepair(h.rt),
      abortSignal: h.signal,
      stopWhen: stepCountIs(1),
    });
    for (const part of result.steps[0].content) {
      if (part.type === 'tool-result') return outcome(part.output as Parameters<typeof outcome>[0]);
      if (part.type === 'tool-error') return { isError: true, text: String(part.error) };
    }
    throw new Error('no tool result');
  },
  'Agents SDK run': async (scenario, h) => {
    const agent = new Agent({ name: 'a', model: agentsModel(scenario), tools: toOpenAIAgentsTools(h.rt, { approvals: 'runtime' }) });
    try {
      const result = await run(agent, 'go', { signal: h.signal, maxTurns: 3, ...wieldRunOptions(h.rt) });
      for (const item of result.newItems) if (item.type === 'tool_call_output_item') return { text: String(item.output) };
      throw new Error('no tool output');
    } catch (error) {
      // The SDK ends an aborted run with an error of its own; the call's result is the runtime's.
      const last = h.lastResult();
      if (h.signal.aborted && last) return { text: last.text };
      throw error;
    }
  },
  'LangChain invokeToolCall': async (scenario, h) => {
    const call = { id: 'c1', name: scenario.call.name, args: scenario.call.input, type: 'tool_call' as const };
    const message = await invokeToolCall(h.rt, toLangChainTools(h.rt), call, { signal: h.signal });
    return { isError: message.status === 'error', text: String(message.content) };
  },
  'MCP gateway': async (scenario, h) => {
    const server = createGatewayServer({ registry: registryOf(h.rt), rt: h.rt, deferral: false });
    const client = new Client({ name: 'table', version: '1' }, { capabilities: h.person === 'none' ? {} : { elicitation: {} } });
    // The person is the MCP client's user; Esc is the client cancelling the call.
    if (h.person !== 'none')
      client.setRequestHandler('elicitation/create', async () => {
        if (h.person === 'allows') return { action: 'accept', content: { allow: true } };
        h.abort();
        return { action: 'cancel' };
      });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const result = await client.callTool({ name: scenario.call.name, arguments: scenario.call.input }, { signal: h.signal });
      return outcome(result as Parameters<typeof outcome>[0]);
    } catch (error) {
      // A cancelled call gets no answer (MCP spec); what the runtime made of it is in its events.
      if (!h.signal.aborted) throw error;
      return await settledResult(h);
    } finally {
      await client.close();
    }
  },
};

const registries = new WeakMap<RuntimeContext, ToolRegistry>();
function registryOf(rt: RuntimeContext): ToolRegistry {
  let registry = registries.get(rt);
  if (!registry) {
    registry = new ToolRegistry();
    for (const name of rt.toolNames()) {
      const tool = rt.resolveTool(name);
      if (tool) registry.register(tool);
    }
    registries.set(rt, registry);
  }
  return registry;
}

/** Waits for the runtime's tool_end after the client gave up (the server finishes the call on its own). */
async function settledResult(h: Harness): Promise<Outcome> {
  for (;;) {
    const last = h.lastResult();
    if (last) return last;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const hook = (run: HookHandler['run']): HookHandler[] => [{ event: 'PreToolUse', name: 'table', run }];

const scenarios: Record<string, Scenario> = {
  'Esc at the permission prompt: interrupted before it ran': {
    call: { name: 'Gated', input: {} },
    person: 'aborts',
    expected: { isError: true, text: /^Interrupted by the user before this call ran/ },
  },
  'abort while it runs: interrupted': {
    call: { name: 'Slow', input: {} },
    abortWhileRunning: true,
    expected: { isError: true, text: /^Interrupted by the user: this call was stopped/ },
  },
  'a hook asks, nobody to ask: denied': {
    call: { name: 'Echo', input: { text: 'a' } },
    hooks: hook(async () => ({ permissionDecision: 'ask' })),
    expected: { isError: true, text: /^Permission denied for Echo: a PreToolUse hook asks for approval/ },
  },
  'a hook asks, a person allows: it runs': {
    call: { name: 'Echo', input: { text: 'a' } },
    person: 'allows',
    hooks: hook(async () => ({ permissionDecision: 'ask' })),
    expected: { isError: false, text: /^a$/ },
  },
  'a hook denies: blocked with its reason': {
    call: { name: 'Echo', input: { text: 'a' } },
    hooks: hook(async () => ({ permissionDecision: 'deny', permissionDecisionReason: 'not today' })),
    expected: { isError: true, text: /^Denied by a PreToolUse hook: not today$/ },
  },
  'a hook rewrites the input: the rewrite runs': {
    call: { name: 'Echo', input: { text: 'a' } },
    hooks: hook(async () => ({ updatedInput: { text: 'rewritten' } })),
    expected: { isError: false, text: /^rewritten$/ },
  },
  'the policy asks, a person allows: it runs': {
    call: { name: 'Gated', input: {} },
    person: 'allows',
    expected: { isError: false, text: /^gated ran$/ },
  },
  'the policy asks, nobody to ask: denied': {
    call: { name: 'Gated', input: {} },
    expected: { isError: true, text: /^Permission denied for Gated: Gated needs a yes/ },
    // The gateway also tells a client without elicitation how its user can allow such calls.
    framed: {
      'MCP gateway': (reference) =>
        reference
          .replace(
            'a yes;',
            'a yes; this MCP client cannot answer permission questions (it declared no elicitation capability), so the call is refused; start the gateway with --allow "Gated" to allow such calls;',
          )
          .replace('run.', 'run. To allow it, the user can add the rule "Gated" to permissions.allow.'),
    },
  },
  'a misspelt tool: did you mean': {
    call: { name: 'Ecko', input: { text: 'a' } },
    expected: { isError: true, text: /^No tool named "Ecko"\. Did you mean "Echo"\?/ },
    // The AI SDK reports the repair function's answer with a prefix of its own.
    framed: { 'AI SDK generateText': (reference) => `Error repairing tool call: ${reference}` },
  },
  'invalid input: what to send': {
    call: { name: 'Echo', input: { txt: 'a' } },
    expected: { isError: true, text: /text/ },
  },
  'a throwing tool: its error': {
    call: { name: 'Boom', input: {} },
    expected: { isError: true, text: /^Boom failed: disk on fire$/ },
  },
  'a throwing event callback: the call still gets its result': {
    call: { name: 'Echo', input: { text: 'a' } },
    emitThrows: true,
    expected: { isError: false, text: /^a$/ },
  },
};

beforeAll(() => setTracingDisabled(true));

describe.each(Object.entries(scenarios))('%s', (_name, scenario) => {
  it('ends the same way through every entry point', async () => {
    const results: Record<string, Outcome> = {};
    for (const [name, entry] of Object.entries(entries)) results[name] = await entry(scenario, harness(scenario));
    const reference = results.runBatch;
    expect(reference.isError).toBe(scenario.expected.isError);
    expect(reference.text).toMatch(scenario.expected.text);
    for (const [name, result] of Object.entries(results)) {
      const text = scenario.framed?.[name]?.(reference.text) ?? reference.text;
      const isError = result.isError === undefined ? {} : { isError: reference.isError };
      expect({ entry: name, ...result }).toEqual({ entry: name, text, ...isError });
    }
  });
});
