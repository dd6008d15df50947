// A small pool for code-mode tests: tools with effects that can be counted, a policy that allows,
// asks and denies by tool, a PreToolUse hook that denies one tool, and RunCode over all of it.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../../../src/runtime/tool/define.js';
import { type AnyTool, ToolError } from '../../../src/runtime/tool/types.js';
import type { PermissionPolicy, RuntimeContext } from '../../../src/runtime/pipeline/types.js';
import type { HookHandler } from '../../../src/runtime/hooks/types.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { createRunCodeTool } from '../../../src/runtime/codemode/tool.js';
import type { ProgramLimits } from '../../../src/runtime/codemode/types.js';
import { makeRuntime, textOf } from '../pipeline/helpers.js';

export interface Effects {
  /** Each Append call's text, in the order they ran. */
  appended: string[];
}

export function pool(effects: Effects): AnyTool[] {
  const lookup = defineTool({
    name: 'Lookup',
    description: 'Looks a key up. Returns JSON.',
    inputSchema: z.object({ key: z.string(), depth: z.number().int().min(1).max(3).optional() }),
    ...READ_ONLY,
    call: async ({ key }) => ({ key, value: key.length }),
  });
  const append = defineTool({
    name: 'Append',
    description: 'Appends a line (a side effect the tests count).',
    inputSchema: z.object({ text: z.string() }),
    call: async ({ text }) => {
      effects.appended.push(text);
      return `appended ${text}`;
    },
  });
  const danger = defineTool({
    name: 'Danger',
    description: 'Always denied by the policy.',
    inputSchema: z.object({}),
    call: async () => 'ran',
  });
  const hooked = defineTool({ name: 'Hooked', description: 'Denied by a hook.', inputSchema: z.object({}), call: async () => 'ran' });
  const boom = defineTool<{ expected: boolean }, string>({
    name: 'Boom',
    description: 'Throws.',
    inputSchema: z.object({ expected: z.boolean() }),
    call: async ({ expected }) => {
      if (expected) throw new ToolError('boom: the widget is missing');
      throw new Error('unexpected crash');
    },
  });
  return [lookup, append, danger, hooked, boom];
}

/** Append asks a person; Danger is denied; the rest is allowed. */
export const policy: PermissionPolicy = {
  decide: ({ tool }) =>
    tool.name === 'Append'
      ? { behavior: 'ask', reason: 'Append changes things' }
      : tool.name === 'Danger'
        ? { behavior: 'deny', reason: 'Danger is never allowed' }
        : { behavior: 'allow', reason: 'allowed' },
};

export const denyHooked: HookHandler = {
  event: 'PreToolUse',
  matcher: 'Hooked',
  run: async () => ({ permissionDecision: 'deny', permissionDecisionReason: 'hooks say no' }),
};

export function codeRuntime(effects: Effects, overrides: Partial<RuntimeContext> = {}, limits: Partial<ProgramLimits> = {}) {
  const tools = pool(effects);
  const runCode = createRunCodeTool({ tools: () => tools, limits });
  return makeRuntime([...tools, runCode], { policy, hooks: [denyHooked], ...overrides });
}

/** Runs a program as the model would: one RunCode call. */
export async function runCode(rt: RuntimeContext, code: string, signal?: AbortSignal) {
  const result = await runToolCall({ id: 'prog', name: 'RunCode', input: { code } }, rt, signal);
  return { result, text: textOf(result) };
}
