import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { createBatch, runBatch } from '../../../src/runtime/scheduler/batch.js';
import type { AnyTool } from '../../../src/runtime/tool/types.js';
import { makeRuntime, textOf } from '../pipeline/helpers.js';

interface Trace {
  active: Set<string>;
  maxActive: number;
  log: Array<{ id: string; event: 'start' | 'end'; activeAtStart: string[] }>;
}

const workInput = z.object({ id: z.string(), safe: z.boolean(), ms: z.number(), fail: z.boolean() });

function workTools(trace: Trace): AnyTool[] {
  const make = (name: string, interrupt: 'cancel' | 'block') =>
    defineTool({
      name,
      description: 'waits',
      inputSchema: workInput,
      isConcurrencySafe: (input) => input.safe,
      interruptBehavior: () => interrupt,
      call: async (input, ctx) => {
        trace.log.push({ id: input.id, event: 'start', activeAtStart: [...trace.active] });
        trace.active.add(input.id);
        trace.maxActive = Math.max(trace.maxActive, trace.active.size);
        try {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, input.ms);
            ctx.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(new Error('aborted'));
            });
          });
          if (input.fail) throw new Error(`failure of ${input.id}`);
          return `done ${input.id}`;
        } finally {
          trace.active.delete(input.id);
          trace.log.push({ id: input.id, event: 'end', activeAtStart: [] });
        }
      },
    });
  return [make('WorkCancel', 'cancel'), make('WorkBlock', 'block')];
}

const callSpec = fc.record({
  safe: fc.boolean(),
  ms: fc.integer({ min: 0, max: 15 }),
  fail: fc.boolean(),
  block: fc.boolean(),
  badInput: fc.boolean(),
});

describe('scheduler', () => {
  it('property: one result per call in call order; safe calls overlap; unsafe calls run alone; abort anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(callSpec, { minLength: 1, maxLength: 12 }),
        fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
        fc.integer({ min: 1, max: 4 }),
        async (specs, abortAfter, cap) => {
          const trace: Trace = { active: new Set(), maxActive: 0, log: [] };
          const rt = makeRuntime(workTools(trace));
          const controller = new AbortController();
          const calls = specs.map((spec, i) => ({
            id: `t${i}`,
            name: spec.block ? 'WorkBlock' : 'WorkCancel',
            input: spec.badInput && i % 3 === 0 ? { id: `t${i}` } : { id: `t${i}`, safe: spec.safe, ms: spec.ms, fail: spec.fail },
          }));
          if (abortAfter !== undefined) setTimeout(() => controller.abort(), abortAfter);
          const results = await runBatch(calls, rt, { signal: controller.signal, maxConcurrency: cap });

          expect(results.map((r) => r.toolUseId)).toEqual(calls.map((c) => c.id));
          for (const [i, result] of results.entries()) {
            const spec = specs[i];
            const text = textOf(result);
            expect(text.length).toBeGreaterThan(0);
            const invalid = spec.badInput && i % 3 === 0;
            if (invalid) expect(text).toMatch(/Invalid input/);
            else if (!result.isError) expect(text).toBe(`done t${i}`);
            else expect(text).toMatch(new RegExp(`failure of t${i}|Interrupted`));
            // a blocking tool that started always finishes with its own result
            const started = trace.log.some((e) => e.id === `t${i}` && e.event === 'start');
            if (spec.block && started && !invalid) expect(text).toMatch(new RegExp(`done t${i}|failure of t${i}`));
          }
          expect(trace.maxActive).toBeLessThanOrEqual(cap);
          const safeById = new Map(calls.map((c, i) => [c.id, specs[i].safe]));
          for (const entry of trace.log.filter((e) => e.event === 'start')) {
            // an unsafe call never starts while anything runs, and nothing starts beside it
            if (!safeById.get(entry.id)) expect(entry.activeAtStart).toEqual([]);
            for (const other of entry.activeAtStart) expect(safeById.get(other) && safeById.get(entry.id)).toBe(true);
          }
          if (abortAfter === undefined) {
            // consecutive valid safe calls overlap up to the cap
            let run = 0;
            let best = 0;
            for (const [i, spec] of specs.entries()) {
              const valid = !(spec.badInput && i % 3 === 0);
              if (!valid) continue;
              run = spec.safe ? run + 1 : 0;
              best = Math.max(best, run);
            }
            expect(trace.maxActive).toBeGreaterThanOrEqual(Math.min(best, cap));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('runs four 100 ms safe calls together and commits results in call order whatever order they finish', async () => {
    const trace: Trace = { active: new Set(), maxActive: 0, log: [] };
    const rt = makeRuntime(workTools(trace));
    const durations = [120, 30, 90, 10];
    const started = performance.now();
    const results = await runBatch(
      durations.map((ms, i) => ({ id: `c${i}`, name: 'WorkCancel', input: { id: `c${i}`, safe: true, ms, fail: false } })),
      rt,
      { signal: new AbortController().signal },
    );
    expect(performance.now() - started).toBeLessThan(250);
    expect(results.map(textOf)).toEqual(['done c0', 'done c1', 'done c2', 'done c3']);
    expect(trace.maxActive).toBe(4);
  });

  it('one failing call never cancels its siblings', async () => {
    const trace: Trace = { active: new Set(), maxActive: 0, log: [] };
    const results = await runBatch(
      [
        { id: 'a', name: 'WorkCancel', input: { id: 'a', safe: true, ms: 5, fail: true } },
        { id: 'b', name: 'WorkCancel', input: { id: 'b', safe: true, ms: 20, fail: false } },
      ],
      makeRuntime(workTools(trace)),
      { signal: new AbortController().signal },
    );
    expect(results.map((r) => r.isError)).toEqual([true, false]);
  });

  it('never runs two writes to the same resource at once, even when they claim to be safe', async () => {
    const active = new Set<string>();
    let overlap = false;
    const writer = defineTool({
      name: 'Writer',
      description: 'w',
      inputSchema: z.object({ file: z.string() }),
      isConcurrencySafe: () => true,
      writeKey: (input) => input.file,
      call: async (input) => {
        if (active.has(input.file)) overlap = true;
        active.add(input.file);
        await new Promise((r) => setTimeout(r, 10));
        active.delete(input.file);
        return 'ok';
      },
    });
    await runBatch(
      ['a', 'a', 'b', 'a'].map((file, i) => ({ id: `${i}`, name: 'Writer', input: { file } })),
      makeRuntime([writer]),
      { signal: new AbortController().signal },
    );
    expect(overlap).toBe(false);
  });

  it('starts a safe call as soon as it is pushed, before the batch ends', async () => {
    const trace: Trace = { active: new Set(), maxActive: 0, log: [] };
    const batch = createBatch(makeRuntime(workTools(trace)), { signal: new AbortController().signal });
    batch.push({ id: 'x', name: 'WorkCancel', input: { id: 'x', safe: true, ms: 5, fail: false } });
    await new Promise((r) => setTimeout(r, 2));
    expect(trace.log[0]).toMatchObject({ id: 'x', event: 'start' });
    batch.end();
    expect((await batch.results).map(textOf)).toEqual(['done x']);
  });
});
