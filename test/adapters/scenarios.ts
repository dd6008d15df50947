// The scenarios every adapter's tests run, whatever the framework: the scheduling step (calls a
// framework starts together keep wield's rules) and a framework's own tool wrapped into a pool.
import { writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { runToolCall } from '../../src/runtime/pipeline/run.js';
import type { AnyTool } from '../../src/runtime/tool/types.js';
import { overlapped, span, type ProbeSpan, type Workspace } from './workspace.js';

export interface ScriptCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/**
 * Two model steps: a Read of same.txt, then two safe probes, one unsafe, two safe ones sharing a
 * write key, and two Edits of that file. Writes the file.
 */
export function schedulingSteps(ws: Workspace): ScriptCall[][] {
  writeFileSync(ws.file('same.txt'), 'alpha beta\n');
  const probe = (id: string, safe: boolean, key?: string): ScriptCall => ({
    id,
    name: 'Probe',
    input: { id, safe, ms: 60, ...(key ? { key } : {}) },
  });
  const edit = (id: string, from: string, to: string): ScriptCall => ({
    id,
    name: 'Edit',
    input: { file_path: 'same.txt', old_string: from, new_string: to },
  });
  return [
    [{ id: 'r', name: 'Read', input: { file_path: 'same.txt' } }],
    [
      probe('s1', true),
      probe('s2', true),
      probe('u1', false),
      probe('k1', true, 'k'),
      probe('k2', true, 'k'),
      edit('e1', 'alpha', 'A'),
      edit('e2', 'beta', 'B'),
    ],
  ];
}

/** Safe probes overlapped, the unsafe one ran alone, one write key at a time, and both edits landed. */
export function expectScheduled(ws: Workspace): Record<'s1' | 's2' | 'u1' | 'k1' | 'k2', ProbeSpan> {
  const [s1, s2, u1, k1, k2] = ['s1', 's2', 'u1', 'k1', 'k2'].map((id) => span(ws.spans, id));
  expect(overlapped(s1, s2)).toBe(true);
  for (const other of [s1, s2, k1, k2]) expect(overlapped(u1, other)).toBe(false);
  expect(overlapped(k1, k2)).toBe(false);
  // Both edits of one file landed: the second saw the first (Edit refuses a file changed since it was read).
  expect(ws.read('same.txt')).toBe('A B\n');
  return { s1, s2, u1, k1, k2 };
}

/** A framework's `Shout(word, times)` tool, wrapped as a wield tool, gets wield's repair and validation. */
export async function expectWrappedRepairs(ws: Workspace, wrapped: AnyTool): Promise<void> {
  const runtime = { ...ws.runtime, resolveTool: (name: string) => (name === wrapped.name ? wrapped : ws.runtime.resolveTool(name)) };
  const signal = new AbortController().signal;
  const repaired = await runToolCall({ id: '1', name: wrapped.name, input: '{"word": "hi", "times": "2",}' }, runtime, signal);
  expect(repaired.isError).toBe(false);
  expect(repaired.content[0]).toEqual({ type: 'text', text: 'HIHI' });
  const invalid = await runToolCall({ id: '2', name: wrapped.name, input: { word: 'hi' } }, runtime, signal);
  expect(invalid.isError).toBe(true);
  expect(invalid.content[0]).toMatchObject({ text: expect.stringContaining('times') });
}
