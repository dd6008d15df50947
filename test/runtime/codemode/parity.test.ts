// Every inner call is a call like any other: the same scenarios made directly and from inside a
// program end the same way — same outcome, same kind, same message.
import { describe, expect, it } from 'vitest';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import type { AskPermission } from '../../../src/runtime/pipeline/types.js';
import { textOf } from '../pipeline/helpers.js';
import { codeRuntime, runCode, type Effects } from './helpers.js';

const yes: AskPermission = async () => ({ behavior: 'allow' });
const no: AskPermission = async () => ({ behavior: 'deny', message: 'the person said no' });

const SCENARIOS: { name: string; tool: string; input: unknown; ask?: AskPermission }[] = [
  { name: 'an allowed call', tool: 'Lookup', input: { key: 'abc' } },
  { name: 'a call the policy denies', tool: 'Danger', input: {} },
  { name: 'an unknown tool', tool: 'Lookpu', input: { key: 'abc' } },
  { name: 'invalid input', tool: 'Lookup', input: { key: 7, depth: 9 } },
  { name: 'input repaired (a number as a string)', tool: 'Lookup', input: { key: 'k', depth: '2' } },
  { name: 'a hook that denies', tool: 'Hooked', input: {} },
  { name: 'a tool that fails as expected', tool: 'Boom', input: { expected: true } },
  { name: 'a tool that crashes', tool: 'Boom', input: { expected: false } },
  { name: 'an ask with nobody to answer', tool: 'Append', input: { text: 'x' } },
  { name: 'an ask the person approves', tool: 'Append', input: { text: 'x' }, ask: yes },
  { name: 'an ask the person refuses', tool: 'Append', input: { text: 'x' }, ask: no },
];

type Outcome = { ok: boolean; text: string; kind?: string };

async function direct(tool: string, input: unknown, ask?: AskPermission): Promise<Outcome & { effects: string[] }> {
  const effects: Effects = { appended: [] };
  const result = await runToolCall({ id: 'd', name: tool, input }, codeRuntime(effects, { askPermission: ask }));
  return { ok: !result.isError, text: textOf(result), kind: result.errorKind, effects: effects.appended };
}

async function inner(tool: string, input: unknown, ask?: AskPermission): Promise<Outcome & { effects: string[] }> {
  const effects: Effects = { appended: [] };
  const code = `
    try {
      const text = await tools[${JSON.stringify(tool)}](${JSON.stringify(input)});
      console.log(JSON.stringify({ ok: true, text }));
    } catch (error) {
      console.log(JSON.stringify({ ok: false, text: error.message, kind: error.kind }));
    }`;
  const { result, text } = await runCode(codeRuntime(effects, { askPermission: ask }), code);
  expect(result.isError).toBe(false);
  return { ...(JSON.parse(text.split('\n')[0]) as Outcome), effects: effects.appended };
}

describe('inner calls end exactly as direct calls', () => {
  it.each(SCENARIOS)('$name', async ({ tool, input, ask }) => {
    const [made, fromProgram] = await Promise.all([direct(tool, input, ask), inner(tool, input, ask)]);
    expect(fromProgram).toEqual(made);
  });

  it('the table covers every way a call can end before or while it runs', async () => {
    const kinds = new Set<string>();
    for (const { tool, input, ask } of SCENARIOS) kinds.add((await direct(tool, input, ask)).kind ?? 'ok');
    expect([...kinds].sort()).toEqual(['denied', 'hook_blocked', 'invalid_input', 'ok', 'tool_failed', 'unknown_tool']);
  });

  it('inner calls emit the events a direct call does, under ids of their own', async () => {
    const rt = codeRuntime({ appended: [] });
    await runCode(rt, 'await tools.Lookup({key: "a"}); try { await tools.Danger({}) } catch {}');
    const calls = rt.events
      .filter((e) => e.type === 'tool_start' || e.type === 'tool_end')
      .map((e) => `${e.type} ${e.toolUseId} ${e.toolName}`);
    expect(calls).toEqual([
      'tool_start prog RunCode',
      'tool_start prog.1 Lookup',
      'tool_end prog.1 Lookup',
      'tool_start prog.2 Danger',
      'tool_end prog.2 Danger',
      'tool_end prog RunCode',
    ]);
  });
});
