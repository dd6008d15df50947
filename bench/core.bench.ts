// Core runtime figures: pipeline overhead per call (vs schema.parse + the function directly),
// a batch of 4 concurrency-safe 1 s calls (wall time), and memory growth for a 50 MB result.
import { z } from 'zod';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { defineTool } from '../src/runtime/tool/define.js';
import { createSession } from '../src/runtime/tool/session.js';
import { ToolRegistry } from '../src/runtime/registry/registry.js';
import { createRuntime } from '../src/runtime/pipeline/runtime.js';
import { runToolCall } from '../src/runtime/pipeline/run.js';
import { runBatch } from '../src/runtime/scheduler/batch.js';
import { allowAll } from '../src/runtime/pipeline/policies.js';
import type { AnyTool } from '../src/runtime/tool/types.js';

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function runtimeWith(tools: AnyTool[]) {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-bench-'));
  return createRuntime({ registry, session: createSession({ cwd: dir, dir: path.join(dir, 'session') }), policy: allowAll });
}

async function pipelineOverhead() {
  const schema = z.object({ a: z.string(), b: z.number().optional() });
  const fn = async (input: { a: string; b?: number }) => input.a;
  const noop = defineTool({ name: 'Noop', description: 'does nothing', inputSchema: schema, isReadOnly: () => true, call: fn });
  const rt = runtimeWith([noop]);
  const signal = new AbortController().signal;
  const input = { a: 'x', b: 1 };
  const rounds = 40;
  const perRound = 2000;
  const direct: number[] = [];
  const piped: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let start = performance.now();
    for (let i = 0; i < perRound; i++) await fn(schema.parse(input));
    direct.push(((performance.now() - start) * 1000) / perRound);
    start = performance.now();
    for (let i = 0; i < perRound; i++) await runToolCall({ id: 'b', name: 'Noop', input }, rt, signal);
    piped.push(((performance.now() - start) * 1000) / perRound);
  }
  // Discard the first rounds: JIT warm-up.
  const d = median(direct.slice(5));
  const p = median(piped.slice(5));
  return {
    directMedianUs: +d.toFixed(3),
    pipelineMedianUs: +p.toFixed(3),
    overheadUs: +(p - d).toFixed(3),
    ratio: +(p / d).toFixed(2),
    goal: 'pipeline overhead ≤ 5 µs per call',
  };
}

async function parallelBatch() {
  const wait = defineTool({
    name: 'Wait',
    description: 'waits',
    inputSchema: z.object({ ms: z.number() }),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    call: (input) => new Promise((resolve) => setTimeout(() => resolve('ok'), input.ms)),
  });
  const rt = runtimeWith([wait]);
  const start = performance.now();
  await runBatch(
    [0, 1, 2, 3].map((i) => ({ id: `w${i}`, name: 'Wait', input: { ms: 1000 } })),
    rt,
    { signal: new AbortController().signal },
  );
  const wall = (performance.now() - start) / 1000;
  return { calls: 4, eachSeconds: 1, wallSeconds: +wall.toFixed(3), goal: '≤ 1.05 s' };
}

async function bigResult() {
  const size = 50 * 2 ** 20;
  const big = defineTool({ name: 'Big', description: 'big', inputSchema: z.object({}), call: async () => `${'a'.repeat(size - 1)}z` });
  const rt = runtimeWith([big]);
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  const result = await runToolCall({ id: 'big', name: 'Big', input: {} }, rt, new AbortController().signal);
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(sampler);
  const text = result.content[0].type === 'text' ? result.content[0].text : '';
  return {
    resultBytes: size,
    peakGrowthBytes: peak - base,
    growthRatio: +((peak - base) / size).toFixed(2),
    modelChars: text.length,
    goal: 'growth ≤ 2× the result; output within the 30,000-char budget',
  };
}

const figures = { pipeline: await pipelineOverhead(), batch: await parallelBatch(), bigResult: await bigResult() };
console.log(JSON.stringify(figures, null, 2));
