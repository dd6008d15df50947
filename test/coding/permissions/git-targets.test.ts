// Write, Edit and apply_patch refuse what git's config makes git run or read, as the sandbox
// does for Bash (one list: sandbox/git-config-targets.ts). Shown first in real git: a hook in the
// core.hooksPath folder runs on the next commit, and an include.path file can name a hook folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { gitTargetWriteReason } from '../../../src/coding/permissions/git-targets.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import { applyPatchTool } from '../../../src/coding/tools/apply-patch.js';
import { editTool } from '../../../src/coding/tools/edit.js';
import { writeTool } from '../../../src/coding/tools/write.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import type { AnyTool, ToolContext } from '../../../src/runtime/tool/types.js';

let tmp: string;
let ws: string;
let env: NodeJS.ProcessEnv;
const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-gittargets-')));
  ws = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(ws, 'tools', 'hooks'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'config'));
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'export {};\n');
  fs.writeFileSync(path.join(ws, 'config', 'extra.inc'), '');
  env = { PATH: process.env.PATH, HOME: path.join(tmp, 'home'), GIT_CONFIG_NOSYSTEM: '1' };
  fs.mkdirSync(env.HOME as string);
  git('init', '-q', '.');
  git('config', 'core.hooksPath', 'tools/hooks');
  git('config', 'include.path', '../config/extra.inc');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init');
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function decide(tool: AnyTool, input: Record<string, unknown>) {
  const session = createSession({ cwd: ws });
  const ctx: ToolContext = { signal: new AbortController().signal, session, toolUseId: 't', onProgress: () => {} };
  const toolCheck = await tool.checkPermissions(input, ctx);
  const policy = createPolicy({ settings: emptySettings(), mode: 'acceptEdits', cwd: ws, roots: [ws], home: env.HOME });
  return policy.decide({ tool, input, toolCheck, session });
}

describe('git config targets for the file tools', () => {
  it('a file written into the core.hooksPath folder runs on the next commit (real git)', () => {
    const mark = path.join(tmp, 'hook-ran');
    const hook = path.join(ws, 'tools', 'hooks', 'pre-commit');
    fs.writeFileSync(hook, `#!/bin/sh\ntouch ${mark}\n`, { mode: 0o755 });
    try {
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x');
      expect(fs.existsSync(mark)).toBe(true);
    } finally {
      fs.rmSync(hook);
    }
  });

  it('Write, Edit and apply_patch may not write there in acceptEdits, nor the include.path file', async () => {
    expect(await decide(writeTool(), { file_path: 'tools/hooks/pre-commit', content: 'x' })).toMatchObject({
      behavior: 'deny',
      reason: expect.stringMatching(/git's config makes git run or read/),
    });
    expect(await decide(editTool(), { file_path: 'config/extra.inc', old_string: 'a', new_string: 'b' })).toMatchObject({
      behavior: 'deny',
    });
    const patch = '*** Begin Patch\n*** Add File: tools/hooks/post-checkout\n+#!/bin/sh\n*** End Patch';
    expect(await decide(applyPatchTool(), { input: patch })).toMatchObject({ behavior: 'deny' });
    expect(await decide(writeTool(), { file_path: 'src/b.ts', content: 'x' })).toMatchObject({ behavior: 'allow' });
  });

  it('pure: a folder target covers what is inside it, a file target only itself', () => {
    const targets = [
      { path: '/ws/tools/hooks', kind: 'dir' as const },
      { path: '/ws/config/extra.inc', kind: 'file' as const },
    ];
    expect(gitTargetWriteReason('/ws/tools/hooks/pre-push', targets)).toBeDefined();
    expect(gitTargetWriteReason('/ws/config/extra.inc', targets)).toBeDefined();
    expect(gitTargetWriteReason('/ws/config/extra.inc2', targets)).toBeUndefined();
    expect(gitTargetWriteReason('/ws/tools/hooks-old/x', targets)).toBeUndefined();
  });
});
