// `"sandbox": false` runs a shell command outside every containment, so the engine itself asks
// for it in every mode, whatever the tool's own check, a hook or the sandbox's auto-allow say;
// only a rule that names the command lets it through (the person wrote that rule).
import { beforeAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../../src/coding/tools/bash.js';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { parseRule } from '../../../src/coding/permissions/rules.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import type { PermissionCheck, ToolContext } from '../../../src/runtime/tool/types.js';
import type { PermissionMode } from '../../../src/runtime/pipeline/types.js';

const cwd = '/nonexistent-ws/project';
const tool = bashTool({ wrap: async (argv) => ({ file: argv[0], args: argv.slice(1), sandboxed: false }) });
const session = createSession({ cwd, dir: '/nonexistent-ws/session', contained: true });

async function decide(
  command: string,
  opts: { mode?: PermissionMode; allow?: string[]; hook?: 'allow'; toolCheck?: PermissionCheck; autoAllow?: boolean } = {},
) {
  const settings = emptySettings();
  settings.permissions.allow = (opts.allow ?? []).map((text) => {
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return { ...parsed.rule, text, source: 'test', base: cwd };
  });
  const input = { command, sandbox: false };
  const ctx: ToolContext = { signal: new AbortController().signal, session, toolUseId: 't', onProgress: () => {} };
  await tool.validateInput?.(input, ctx);
  const toolCheck = opts.toolCheck ?? (await tool.checkPermissions(input, ctx));
  const sandbox = opts.autoAllow ? { autoAllowBash: true, available: true } : undefined;
  const policy = createPolicy({ settings, mode: opts.mode, cwd, roots: [cwd], home: '/nonexistent-home', sandbox });
  const hookDecision = opts.hook ? { behavior: opts.hook, reason: 'hook' } : undefined;
  return policy.decide({ tool, input, toolCheck, hookDecision, session });
}

beforeAll(async () => {
  await loadBashAnalyzer();
});

describe('"sandbox": false', () => {
  const passthrough: PermissionCheck = { behavior: 'passthrough' };

  it.each(['default', 'acceptEdits', 'bypassPermissions'] as const)('asks in %s mode, even for a read-only command', async (mode) => {
    // The engine alone: a shell tool whose own check passes the input through.
    expect(await decide('ls', { mode, toolCheck: passthrough })).toMatchObject({ behavior: 'ask' });
    expect(await decide('npm install', { mode, toolCheck: passthrough })).toMatchObject({ behavior: 'ask' });
    expect(await decide('ls', { mode })).toMatchObject({ behavior: 'ask' });
  });

  it('asks whatever a hook or the sandbox auto-allow say; dontAsk refuses', async () => {
    expect(await decide('ls', { hook: 'allow', toolCheck: passthrough })).toMatchObject({ behavior: 'ask' });
    expect(await decide('npm install', { autoAllow: true, toolCheck: passthrough })).toMatchObject({ behavior: 'ask' });
    expect(await decide('ls', { mode: 'dontAsk', toolCheck: passthrough })).toMatchObject({ behavior: 'deny' });
    expect(await decide('ls', { mode: 'plan', toolCheck: passthrough })).toMatchObject({ behavior: 'ask' });
  });

  it('runs when a rule names the command, and not when the rule names another', async () => {
    expect(await decide('npm test', { allow: ['Bash(npm test)'] })).toMatchObject({ behavior: 'allow', allowedBy: 'rule' });
    expect(await decide('npm test', { allow: ['Bash(npm test)'], mode: 'bypassPermissions' })).toMatchObject({ behavior: 'allow' });
    expect(await decide('npm install', { allow: ['Bash(npm test)'], mode: 'bypassPermissions' })).toMatchObject({ behavior: 'ask' });
    expect(await decide('ls && npm test', { allow: ['Bash(npm test)'] })).toMatchObject({ behavior: 'ask' });
  });
});
