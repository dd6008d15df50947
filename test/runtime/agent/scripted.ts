// An in-process scripted model (the only thing these tests fake) and small test tools.
import { z } from 'zod';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { expect } from 'vitest';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { ToolError, type AnyTool } from '../../../src/runtime/tool/types.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import type { RuntimeContext } from '../../../src/runtime/pipeline/types.js';
import type { AgentRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { runAgent, type RunAgentOptions } from '../../../src/runtime/agent/loop.js';
import type { AgentEvent } from '../../../src/runtime/agent/events.js';
import {
  ProviderError,
  type Message,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
} from '../../../src/runtime/providers/types.js';

export type Step =
  | ModelStreamEvent
  | { type: 'wait'; ms: number }
  /** Waits until the request is aborted, then throws as an SDK would. */
  | { type: 'hang' }
  | { type: 'fail'; message: string };

export type ScriptedTurn = Step[];

export function reply(text: string): ScriptedTurn {
  return [
    { type: 'text_delta', text },
    { type: 'message_end', stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 5 } },
  ];
}

export function callTools(calls: { id: string; name: string; input: string }[], text = ''): ScriptedTurn {
  const steps: Step[] = text ? [{ type: 'text_delta', text }] : [];
  calls.forEach((call, index) => {
    steps.push({ type: 'tool_call_start', index, id: call.id, name: call.name });
    steps.push({ type: 'tool_call_delta', index, json: call.input });
    steps.push({ type: 'tool_call_end', index, id: call.id, name: call.name, input: call.input });
  });
  steps.push({ type: 'message_end', stopReason: 'tool_use', usage: { inputTokens: 10, outputTokens: 5 } });
  return steps;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });
}

export interface ScriptedProvider extends ModelProvider {
  requests: ModelRequest[];
  /** Time (ms since creation) at which each stream event was yielded. */
  log: { at: number; type: string }[];
}

/** Plays one scripted turn per request; past the end it answers "done". */
export function scriptedProvider(turns: ScriptedTurn[]): ScriptedProvider {
  const started = Date.now();
  const requests: ModelRequest[] = [];
  const log: { at: number; type: string }[] = [];
  return {
    name: 'anthropic',
    requests,
    log,
    async *stream(request, signal) {
      requests.push(structuredClone(request));
      const turn = turns[requests.length - 1] ?? reply('done');
      for (const step of turn) {
        if (signal.aborted) throw new ProviderError('The model request was aborted.');
        if (step.type === 'wait') await sleep(step.ms, signal).catch(() => undefined);
        else if (step.type === 'hang') {
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          throw new ProviderError('The model request was aborted.');
        } else if (step.type === 'fail') throw new ProviderError(step.message, 500);
        else {
          log.push({ at: Date.now() - started, type: step.type });
          yield step;
        }
      }
    },
  };
}

export const sleepTool = defineTool({
  name: 'Sleep',
  description: 'Waits',
  prompt: 'Use Sleep to wait.',
  inputSchema: z.object({ ms: z.number().int().min(0) }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  interruptBehavior: () => 'cancel',
  call: async (input, ctx) => {
    await sleep(input.ms, ctx.signal).catch(() => {
      throw new ToolError('sleep interrupted');
    });
    return `slept ${input.ms}`;
  },
});

export const noteTool = defineTool({
  name: 'Note',
  description: 'Writes a note (not concurrency-safe)',
  inputSchema: z.object({ text: z.string() }),
  call: async (input) => `noted ${input.text}`,
});

export interface Harness {
  registry: ToolRegistry;
  rt: AgentRuntime;
  cwd: string;
}

export function harness(tools: AnyTool[] = [sleepTool, noteTool], overrides: Partial<RuntimeContext> = {}): Harness {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'wield-agent-'));
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const rt = createRuntime({ registry, session: createSession({ cwd, dir: path.join(cwd, '.session') }), policy: allowAll, ...overrides });
  return { registry, rt, cwd };
}

export function prompt(text: string): Message {
  return { role: 'user', content: [{ type: 'text', text }] };
}

/** Runs the agent loop over a scripted model, collecting its events; `options` adds to or overrides the defaults. */
export async function runScripted(turns: ScriptedTurn[], options: Partial<RunAgentOptions> & { h?: Harness } = {}) {
  const { h = harness(), ...overrides } = options;
  const provider = scriptedProvider(turns);
  const events: AgentEvent[] = [];
  const result = await runAgent({
    provider,
    model: 'test-model',
    messages: [prompt('go')],
    rt: h.rt,
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
    ...overrides,
  });
  return { result, provider, events, h };
}

/** The history invariant: every tool_use is answered by exactly one tool_result in the next message, and no result is orphaned. */
export function expectPaired(messages: readonly Message[]): void {
  messages.forEach((message, index) => {
    if (message.role === 'user') {
      const previous = messages[index - 1];
      const uses =
        previous?.role === 'assistant' ? previous.content.filter((p) => p.type === 'tool_use').map((p) => (p as { id: string }).id) : [];
      const results = message.content.filter((p) => p.type === 'tool_result').map((p) => (p as { toolUseId: string }).toolUseId);
      expect(results).toEqual(uses);
    } else {
      const uses = message.content.filter((p) => p.type === 'tool_use');
      if (uses.length > 0) expect(messages[index + 1]?.role).toBe('user');
    }
  });
}
