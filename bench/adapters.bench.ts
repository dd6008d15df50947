// Adapter overhead: one tool call through each adapter (wield's whole pipeline on the runtime's shared runner)
// vs the same work as the framework's own tool, each called the way its framework calls it
// (AI SDK: the input checked against its zod schema, then execute; Agents SDK: invoke with the
// argument text; LangChain: invoke with a ToolCall).
// Median µs per call over rounds, interleaved so both sides see the same machine load.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunContext, tool as agentsTool } from '@openai/agents';
import { tool as langChainTool } from '@langchain/core/tools';
import { tool as aiTool } from 'ai';
import { z } from 'zod';
import { toAISDKTools } from '../src/adapters/ai-sdk.js';
import { toLangChainTools } from '../src/adapters/langchain.js';
import { toOpenAIAgentsTools } from '../src/adapters/openai-agents.js';
import { runnerFor } from '../src/runtime/scheduler/runner.js';
import { allowAll } from '../src/runtime/pipeline/policies.js';
import { runToolCall } from '../src/runtime/pipeline/run.js';
import { createRuntime } from '../src/runtime/pipeline/runtime.js';
import { ToolRegistry } from '../src/runtime/registry/registry.js';
import { defineTool } from '../src/runtime/tool/define.js';
import { createSession } from '../src/runtime/tool/session.js';

const ROUNDS = 30;
const PER_ROUND = 500;
const schema = z.object({ a: z.string(), b: z.number().optional() });
const work = async ({ a }: { a: string }) => a;
const input = { a: 'x', b: 1 };

const registry = new ToolRegistry();
registry.register(
  defineTool({
    name: 'Echo',
    description: 'echoes',
    inputSchema: schema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    call: work,
  }),
);
const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-bench-adapters-'));
const runtime = createRuntime({ registry, session: createSession({ cwd: dir, dir: path.join(dir, 'session') }), policy: allowAll });

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function compare(native: (i: number) => Promise<unknown>, adapted: (i: number) => Promise<unknown>) {
  const nativeUs: number[] = [];
  const adaptedUs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [fn, into] of [
      [native, nativeUs],
      [adapted, adaptedUs],
    ] as const) {
      const start = performance.now();
      for (let i = 0; i < PER_ROUND; i++) await fn(i);
      into.push(((performance.now() - start) * 1000) / PER_ROUND);
    }
  }
  const nativeMedian = median(nativeUs);
  const adaptedMedian = median(adaptedUs);
  return {
    nativeUsPerCall: Number(nativeMedian.toFixed(1)),
    wieldUsPerCall: Number(adaptedMedian.toFixed(1)),
    overheadUsPerCall: Number((adaptedMedian - nativeMedian).toFixed(1)),
    ratio: Number((adaptedMedian / nativeMedian).toFixed(2)),
  };
}

const aiNative = aiTool({ description: 'echoes', inputSchema: schema, execute: work });
const aiWield = toAISDKTools(runtime).Echo;
const aiOptions = (i: number) => ({ toolCallId: `c${i}`, messages: [] });

const agentsNative = agentsTool({ name: 'Echo', description: 'echoes', parameters: schema, execute: work });
const [agentsWield] = toOpenAIAgentsTools(runtime);
const runContext = new RunContext();
const json = JSON.stringify(input);

const lcNative = langChainTool(work, { name: 'Echo', description: 'echoes', schema });
const [lcWield] = toLangChainTools(runtime);
const toolCall = (i: number) => ({ id: `c${i}`, name: 'Echo', args: input, type: 'tool_call' as const });

const signal = new AbortController().signal;
const figures = {
  rounds: ROUNDS,
  callsPerRound: PER_ROUND,
  // What the shared runner's scheduling adds to wield's own entry point: runToolCall vs the same call scheduled.
  gate: await compare(
    (i) => runToolCall({ id: `c${i}`, name: 'Echo', input }, runtime, signal),
    (i) => runnerFor(runtime).run({ id: `c${i}`, name: 'Echo', input }, signal),
  ),
  aiSdk: await compare(
    (i) => aiNative.execute?.(schema.parse(input), aiOptions(i)) as Promise<unknown>,
    (i) => aiWield.execute?.(input, aiOptions(i)) as Promise<unknown>,
  ),
  openaiAgents: await compare(
    () => agentsNative.invoke(runContext, json),
    (i) => agentsWield.invoke(runContext, json, { toolCall: { type: 'function_call', callId: `c${i}`, name: 'Echo', arguments: json } }),
  ),
  langchain: await compare(
    (i) => lcNative.invoke(toolCall(i)),
    (i) => lcWield.invoke(toolCall(i)),
  ),
};
console.log(JSON.stringify(figures, null, 2));
