// Class 10: files a command writes now that run later outside the sandbox. Git's config names a
// hooks folder and included files in the work tree; an editor runs what .vscode/ says. Each hole is
// shown with plain bash (the planted file runs on the next plain git), then refused in the sandbox.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxWrap, sandboxStatus } from '../../../src/coding/sandbox/index.js';
import { targetsOf } from '../../../src/coding/sandbox/git-config-targets.js';
import type { AllowBasis } from '../../../src/runtime/tool/types.js';
import { bash, git, makeFixture, runWrapped, type Fixture, type RunResult } from './helpers.js';

describe('targetsOf (pure)', () => {
  const entry = (key: string, value: string, file = '.git/config') => ({ scope: 'local', file, key, value });
  it('reads hooks folders, includes and the programs config runs', () => {
    expect(targetsOf(entry('core.hooksPath', '.githooks'), '/r', '/h')).toEqual([{ path: '/r/.githooks', kind: 'dir' }]);
    expect(targetsOf(entry('core.hooksPath', '.husky/_'), '/r', '/h').map((t) => t.path)).toEqual(['/r/.husky/_', '/r/.husky']);
    // Relative to the including file's folder.
    expect(targetsOf(entry('include.path', '../team.gitconfig'), '/r', '/h')).toEqual([
      { path: '/r/team.gitconfig', kind: 'file', placeholder: '' },
    ]);
    expect(targetsOf(entry('includeIf.gitdir:/r/.path', '~/work.gitconfig', '/h/.gitconfig'), '/r', '/h')[0].path).toBe(
      '/h/work.gitconfig',
    );
    expect(targetsOf(entry('core.fsmonitor', './tools/fsmon --fast'), '/r', '/h')).toEqual([{ path: '/r/tools/fsmon', kind: 'file' }]);
    expect(targetsOf(entry('filter.lfs.clean', 'git-lfs clean -- %f'), '/r', '/h')).toEqual([]);
    expect(targetsOf(entry('alias.x', '!sh scripts/x.sh'), '/r', '/h').map((t) => t.path)).toEqual(['/r/scripts/x.sh']);
    expect(targetsOf(entry('alias.lg', 'log --format=%h/%s'), '/r', '/h')).toEqual([]);
    expect(targetsOf(entry('user.email', 'a/b@example.com'), '/r', '/h')).toEqual([]);
  });
});

const status = await sandboxStatus();
const title = status.available ? 'with bubblewrap' : `with bubblewrap (skipped: ${status.reason})`;

describe.skipIf(!status.available)(`files that run later, ${title}`, () => {
  let f: Fixture;
  const marker = (): string => path.join(f.base, 'ran');
  const plant = (file: string) => `printf '#!/bin/sh\\ntouch ${marker()}\\n' > ${file} && chmod +x ${file}`;
  const run = async (script: string, allowedBy: AllowBasis | undefined, enabled = allowedBy === undefined): Promise<RunResult> => {
    const wrap = createSandboxWrap({ enabled }, f.session, { home: f.home });
    const cmd = await wrap(bash(script), { ...f.ctx, allowedBy }, { command: script });
    const result = await runWrapped(cmd, f.ws);
    const undone = await cmd.afterRun?.();
    return { ...result, stdout: `${result.stdout}${undone ?? ''}` };
  };
  const plain = (script: string): Promise<RunResult> => runWrapped({ file: 'bash', args: ['-c', script], sandboxed: false }, f.ws);

  beforeEach(() => {
    f = makeFixture();
  });
  afterEach(() => rmSync(f.base, { recursive: true, force: true }));

  it('core.hooksPath pointing at a tracked folder: a hook planted there runs on the next git commit', async () => {
    mkdirSync(path.join(f.ws, '.githooks'));
    writeFileSync(path.join(f.ws, '.githooks', 'README'), 'hooks\n');
    git(f.ws, 'config', 'core.hooksPath', '.githooks');
    // The hole, in plain bash: plant, then a plain commit runs it.
    await plain(plant('.githooks/pre-commit'));
    git(f.ws, 'commit', '-q', '--allow-empty', '-m', 'x');
    expect(existsSync(marker())).toBe(true);
    rmSync(marker());
    rmSync(path.join(f.ws, '.githooks', 'pre-commit'));
    for (const allowedBy of [undefined, 'mode'] as const) {
      const r = await run(`${plant('.githooks/pre-commit')}; echo "planted=$?"`, allowedBy);
      expect(r.stdout).toMatch(/planted=1/);
      expect(r.stderr).toMatch(/Read-only file system/);
    }
    git(f.ws, 'commit', '-q', '--allow-empty', '-m', 'y');
    expect(existsSync(marker())).toBe(false);
  });

  it("husky's hooksPath (.husky/_): the scripts beside it are protected too", async () => {
    mkdirSync(path.join(f.ws, '.husky', '_'), { recursive: true });
    git(f.ws, 'config', 'core.hooksPath', '.husky/_');
    const r = await run(`${plant('.husky/pre-commit')}; echo "planted=$?"`, undefined);
    expect(r.stdout).toMatch(/planted=1/);
  });

  it('include.path naming a file in the work tree: config written there runs on the next git status', async () => {
    git(f.ws, 'config', 'include.path', '../team.gitconfig');
    const fsmonitor = `printf '[core]\\n\\tfsmonitor = ${path.join(f.ws, 'mon.sh')}\\n' > team.gitconfig && ${plant('mon.sh')}`;
    await plain(fsmonitor);
    git(f.ws, 'status', '--short');
    expect(existsSync(marker())).toBe(true);
    rmSync(marker());
    rmSync(path.join(f.ws, 'team.gitconfig'));
    const r = await run(`${fsmonitor}; echo "written=$?"`, undefined);
    expect(r.stdout).toMatch(/written=1/);
    // The missing include was created empty (git reads it as no config) and mounted read-only.
    expect(readFileSync(path.join(f.ws, 'team.gitconfig'), 'utf8')).toBe('');
    git(f.ws, 'status', '--short');
    expect(existsSync(marker())).toBe(false);
  });

  it('.vscode: an existing settings.json stays read-only; a missing .vscode cannot be created, and nothing is left', async () => {
    const made = await run('mkdir -p .vscode && echo "{}" > .vscode/tasks.json; echo "made=$?"', 'mode');
    expect(made.stdout).toMatch(/made=1/);
    expect(made.stderr).toMatch(/Read-only file system/);
    expect(existsSync(path.join(f.ws, '.vscode'))).toBe(false);
    mkdirSync(path.join(f.ws, '.vscode'));
    writeFileSync(path.join(f.ws, '.vscode', 'settings.json'), '{}\n');
    const r = await run('echo \'{"python.defaultInterpreterPath": "./evil"}\' > .vscode/settings.json; echo "written=$?"', undefined);
    expect(r.stdout).toMatch(/written=1/);
    expect(readFileSync(path.join(f.ws, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n');
  });
});
