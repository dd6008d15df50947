// Code mode: interpreter start (a fresh QuickJS instance per program, the WASM already compiled),
// and the cost of a tool call made from a program beyond the same call made directly
// (runToolCall, measured in the same run as the baseline).
import { z } from 'zod';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { defineTool } from '../src/runtime/tool/define.js';
import { createSession } from '../src/runtime/tool/session.js';
import { ToolRegistry } from '../src/runtime/registry/registry.js';
import { createRuntime } from '../src/runtime/pipeline/runtime.js';
import { runToolCall } from '../src/runtime/pipeline/run.js';
import { allowAll } from '../src/runtime/pipeline/policies.js';
import { createRunCodeTool } from '../src/runtime/codemode/tool.js';

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const CALLS = 200;
const ROUNDS = 15;

const noop = defineTool({
  name: 'Noop',
  description: 'does nothing',
  inputSchema: z.object({ a: z.string() }),
  isReadOnly: () => true,
  call: async ({ a }) => a,
});
const registry = new ToolRegistry();
registry.register(noop);
registry.register(createRunCodeTool({ tools: () => registry.pool() }));
const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-bench-'));
const rt = createRuntime({ registry, session: createSession({ cwd: dir, dir: path.join(dir, 'session') }), policy: allowAll });
const program = (code: string) => runToolCall({ id: 'p', name: 'RunCode', input: { code } }, rt);

let started = performance.now();
await program('0');
const coldMs = performance.now() - started;

const startMs: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  started = performance.now();
  await program('0');
  startMs.push(performance.now() - started);
}

const directMs: number[] = [];
const innerMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  started = performance.now();
  for (let i = 0; i < CALLS; i++) await runToolCall({ id: `d${i}`, name: 'Noop', input: { a: 'x' } }, rt);
  directMs.push(performance.now() - started);
  started = performance.now();
  const result = await program(`for (let i = 0; i < ${CALLS}; i++) await tools.Noop({ a: 'x' })`);
  innerMs.push(performance.now() - started);
  if (result.isError) throw new Error(JSON.stringify(result.content));
}
const start = median(startMs);
const perDirect = median(directMs) / CALLS;
const perInner = (median(innerMs) - start) / CALLS;
console.log(
  JSON.stringify(
    {
      load: os.loadavg()[0].toFixed(1),
      firstProgramMs: +coldMs.toFixed(1),
      interpreterStartMs: +start.toFixed(2),
      directCallMs: +perDirect.toFixed(3),
      innerCallMs: +perInner.toFixed(3),
      overheadPerInnerCallMs: +(perInner - perDirect).toFixed(3),
    },
    null,
    2,
  ),
);
