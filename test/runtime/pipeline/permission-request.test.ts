// PermissionRequest hooks: allow, deny, and allow with a rewritten input (validated and decided again).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { parseRule } from '../../../src/coding/permissions/rules.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import { writeTool } from '../../../src/coding/tools/write.js';
import type { HookHandler, HookOutcome } from '../../../src/runtime/hooks/types.js';
import type { AnyTool } from '../../../src/runtime/tool/types.js';
import { makeRuntime, textOf } from './helpers.js';

const signal = new AbortController().signal;
const call = (name: string, input: unknown) => ({ id: 'c1', name, input });

function setup(answer: HookOutcome, tools: AnyTool[] = []) {
  const ran: string[] = [];
  const cmd = defineTool<{ command: string }>({
    name: 'Cmd',
    description: 'runs a command (fake)',
    inputSchema: z.object({ command: z.string() }),
    isReadOnly: () => false,
    permissionMatcher: (i) => (content) => (content.endsWith(' *') ? i.command.startsWith(content.slice(0, -1)) : i.command === content),
    validateInput: async (i) => (i.command.includes('\n') ? { ok: false, message: 'one line only' } : { ok: true }),
    call: async (i) => {
      ran.push(i.command);
      return `ran ${i.command}`;
    },
  });
  const seen: unknown[] = [];
  const hooks: HookHandler[] = [
    {
      event: 'PermissionRequest',
      run: async (input) => {
        seen.push(input.tool_input);
        return answer;
      },
    },
  ];
  const rt = makeRuntime([cmd, ...tools], { hooks });
  const settings = emptySettings();
  settings.permissions.deny = ['Cmd(rm *)'].map((text) => {
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return { ...parsed.rule, text, source: 'test', base: rt.session.cwd };
  }) as typeof settings.permissions.deny;
  rt.policy = createPolicy({ settings, cwd: rt.session.cwd, roots: [rt.session.cwd], home: '/nonexistent-home' });
  return { rt, ran, seen };
}

describe('PermissionRequest hooks', () => {
  it('allow without updatedInput runs the original input', async () => {
    const { rt, ran } = setup({ permissionDecision: 'allow' });
    expect(textOf(await runToolCall(call('Cmd', { command: 'echo orig' }), rt, signal))).toBe('ran echo orig');
    expect(ran).toEqual(['echo orig']);
    expect(rt.events.find((e) => e.type === 'permission_decided')).toMatchObject({ by: 'hook', decision: { behavior: 'allow' } });
  });

  it('allow with updatedInput runs the rewritten input, not the original', async () => {
    const { rt, ran, seen } = setup({ permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } });
    expect(textOf(await runToolCall(call('Cmd', { command: 'echo orig' }), rt, signal))).toBe('ran echo rewritten');
    expect(ran).toEqual(['echo rewritten']);
    expect(seen).toEqual([{ command: 'echo orig' }]);
  });

  it('allow with an updatedInput that fails the schema or validateInput: an error, nothing runs', async () => {
    for (const updatedInput of [{ command: { nested: true } }, { command: 'a\nb' }]) {
      const { rt, ran } = setup({ permissionDecision: 'allow', updatedInput });
      const result = await runToolCall(call('Cmd', { command: 'echo orig' }), rt, signal);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/rewritten by a PermissionRequest hook is invalid; the call was not run/);
      expect(textOf(result)).toMatch(typeof updatedInput.command === 'object' ? /Invalid input for Cmd/ : /one line only/);
      expect(ran).toEqual([]);
      expect(rt.events.find((e) => e.type === 'permission_decided')).toMatchObject({ decision: { behavior: 'deny' } });
    }
  });

  it('allow with an updatedInput a deny rule covers is denied; nothing runs', async () => {
    const { rt, ran } = setup({ permissionDecision: 'allow', updatedInput: { command: 'rm -rf x' } });
    const result = await runToolCall(call('Cmd', { command: 'echo orig' }), rt, signal);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /Permission denied for Cmd: .*rewritten by a PermissionRequest hook is refused: denied by rule `Cmd\(rm \*\)`/,
    );
    expect(ran).toEqual([]);
  });

  it('allow with an updatedInput a hard block covers (a write to .git/config) is denied; nothing is written', async () => {
    const { rt } = setup({ permissionDecision: 'allow', updatedInput: { file_path: '.git/config' } }, [writeTool()]);
    const result = await runToolCall(call('Write', { file_path: 'notes.txt', content: '[core]\n' }), rt, signal);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Permission denied for Write: .*rewritten by a PermissionRequest hook is refused/);
    expect(existsSync(path.join(rt.session.cwd, '.git', 'config'))).toBe(false);
    expect(existsSync(path.join(rt.session.cwd, 'notes.txt'))).toBe(false);
  });

  it('deny keeps its message and ignores updatedInput; exit 2 (block) denies', async () => {
    const { rt, ran } = setup({
      permissionDecision: 'deny',
      permissionDecisionReason: 'not today',
      updatedInput: { command: 'echo other' },
    });
    expect(textOf(await runToolCall(call('Cmd', { command: 'echo orig' }), rt, signal))).toMatch(/Permission denied for Cmd: not today/);
    const blocked = setup({ block: { reason: 'stderr says no' } });
    expect(textOf(await runToolCall(call('Cmd', { command: 'echo orig' }), blocked.rt, signal))).toMatch(
      /Permission denied for Cmd: a PermissionRequest hook denied it: stderr says no/,
    );
    expect([...ran, ...blocked.ran]).toEqual([]);
  });
});
