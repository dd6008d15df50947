// Many concurrent calls in one batch must not pile abort listeners on one signal (Node warns at
// 11: "MaxListenersExceededWarning: Possible EventTarget memory leak detected"), and none may
// remain on the caller's signal once the batch is done.
import { getEventListeners } from 'node:events';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bashTool } from '../../../src/coding/tools/bash.js';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { runBatch } from '../../../src/runtime/scheduler/batch.js';
import type { AnyTool } from '../../../src/runtime/tool/types.js';
import { tempDir, textOf } from '../pipeline/helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function runtimeWith(tools: AnyTool[]) {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const dir = tempDir('wield-sched-');
  dirs.push(dir);
  return createRuntime({ registry, session: createSession({ cwd: dir, dir: path.join(dir, '.session') }), policy: allowAll });
}

/** Collects the process warnings emitted while `task` runs (and the tick after). */
async function warningsDuring<T>(task: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  try {
    const value = await task();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
    return { value, warnings };
  } finally {
    process.off('warning', onWarning);
  }
}

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

describe('abort listeners in a batch', () => {
  const controllers: AbortController[] = [];
  afterEach(() => {
    for (const c of controllers.splice(0)) c.abort();
  });

  it('12 parallel read-only Bash calls: no MaxListeners warning, no listener left', async () => {
    const rt = runtimeWith([bashTool()]);
    const controller = new AbortController();
    controllers.push(controller);
    const calls = Array.from({ length: 12 }, (_, i) => ({ id: `b${i}`, name: 'Bash', input: { command: `sleep 0.3 && echo call-${i}` } }));
    const { value: results, warnings } = await warningsDuring(() => runBatch(calls, rt, { signal: controller.signal, maxConcurrency: 12 }));
    expect(warnings).toEqual([]);
    expect(results.map((r) => r.isError)).toEqual(Array(12).fill(false));
    for (const [i, r] of results.entries()) expect(textOf(r)).toContain(`call-${i}`);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('listeners a tool adds to its own ctx.signal stay on that call, and a batch abort still reaches every call', async () => {
    const seen: AbortSignal[] = [];
    let started = 0;
    const wait = defineTool({
      name: 'Wait',
      description: 'waits until aborted',
      inputSchema: z.object({}),
      isConcurrencySafe: () => true,
      interruptBehavior: () => 'cancel',
      call: (_input, ctx) =>
        new Promise<string>((resolve) => {
          seen.push(ctx.signal);
          started++;
          ctx.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
        }),
    });
    const rt = runtimeWith([wait]);
    const controller = new AbortController();
    const calls = Array.from({ length: 16 }, (_, i) => ({ id: `w${i}`, name: 'Wait', input: {} }));
    const { value: results, warnings } = await warningsDuring(async () => {
      const pending = runBatch(calls, rt, { signal: controller.signal, maxConcurrency: 16 });
      try {
        while (started < 16) await new Promise((resolve) => setTimeout(resolve, 5));
        expect(abortListeners(controller.signal)).toBe(1); // the batch's own relay
      } finally {
        controller.abort(); // also when the expectation fails, so the waiting calls end
      }
      return pending;
    });
    expect(warnings).toEqual([]);
    expect(results).toHaveLength(16);
    expect(results.every((r) => r.isError)).toBe(true);
    expect(seen.every((signal) => signal.aborted)).toBe(true);
  });

  it('a long-lived signal shared by many batches keeps no listener from finished batches', async () => {
    const rt = runtimeWith([bashTool()]);
    const controller = new AbortController();
    controllers.push(controller);
    const { warnings } = await warningsDuring(async () => {
      for (let turn = 0; turn < 12; turn++) {
        await runBatch([{ id: `t${turn}`, name: 'Bash', input: { command: 'true' } }], rt, { signal: controller.signal });
      }
    });
    expect(warnings).toEqual([]);
    expect(abortListeners(controller.signal)).toBe(0);
  });
});
