import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { makeRuntime, textOf } from './helpers.js';

// Every input here is wrong in some way; the tool itself would succeed for valid input.
const strict = defineTool({
  name: 'Strict',
  description: 's',
  inputSchema: z.object({ path: z.string().min(1), count: z.number().int().min(0), mode: z.enum(['a', 'b']) }),
  call: async () => 'ran',
});
const raw = defineTool({
  name: 'RawStrict',
  description: 'r',
  inputJSONSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id', 'must'], additionalProperties: false },
  call: async () => 'ran',
});

const HUGE = ['y'.repeat(2_000_000), `{"path": "${'z'.repeat(500_000)}", "count": 1,,}`, '{'.repeat(50_000)];
const deep = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

const garbageInput = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    '{',
    '{"path":',
    '{"path": "a", "count": -1, "mode": "c"}',
    '[]',
    'null',
    '{"count": "x"}',
    deep(5000),
    `{"path": "${'x'.repeat(100_000)}"`,
  ),
  fc.constantFrom(...HUGE),
  fc.record({ path: fc.oneof(fc.integer(), fc.constant('')), count: fc.string(), mode: fc.string() }),
);

const names = fc.oneof(fc.constantFrom('Strict', 'RawStrict', 'strict'), fc.string({ maxLength: 30 }), fc.constant(''));

describe('fuzz: random tool calls through the pipeline', () => {
  it('100,000 calls: no crash, no unhandled rejection, every result an error with a specific message', async () => {
    const rt = makeRuntime([strict, raw], { emit: undefined });
    const signal = new AbortController().signal;
    let checked = 0;
    // Sampled in chunks so 100,000 inputs never sit in memory at once.
    for (let chunk = 0; chunk < 100; chunk++)
      for (const [name, input] of fc.sample(fc.tuple(names, garbageInput), { numRuns: 1000, seed: 42 + chunk })) {
        const result = await runToolCall({ id: `f${checked}`, name, input }, rt, signal);
        if (!result.isError) {
          // A random input may happen to be valid for Strict; then the tool ran for real.
          expect(textOf(result)).toBe('ran');
          continue;
        }
        const text = textOf(result);
        expect(text.length).toBeGreaterThan(15);
        expect(text).toMatch(
          /No tool named|Tool call has no tool name|Invalid input|must be a JSON object|not valid JSON|were cut off|nest \d+ levels deep/,
        );
        checked++;
      }
    expect(checked).toBeGreaterThan(90_000);
  }, 240_000);
});
