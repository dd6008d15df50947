import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitConfigRisk, isRiskyGitKey, parseGitConfigList } from '../../../src/coding/tools/git-config-risk.js';
import { bashTool } from '../../../src/coding/tools/bash.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { emptySettings } from '../../../src/coding/settings/load.js';

describe('isRiskyGitKey / parseGitConfigList', () => {
  it('knows the keys that make git run programs, in any case git accepts, and nothing else', () => {
    for (const key of [
      'core.fsmonitor',
      'core.fsMonitor',
      'diff.PDF.textconv',
      'filter.lfs.clean',
      'include.path',
      'includeIf.gitdir:~/w/.path',
      'credential.https://x.example.helper',
    ]) {
      expect(isRiskyGitKey(key)).toBe(true);
    }
    for (const key of ['core.bare', 'remote.origin.url', 'user.name', 'diff.renames', 'core.fsmonitorhookversion'])
      expect(isRiskyGitKey(key)).toBe(false);
  });

  it('reads scope, file and key from the NUL-separated listing (values may hold newlines or be absent)', () => {
    const out =
      'global\0file:/home/u/.gitconfig\0user.name\nU\0local\0file:.git/config\0core.bare\0local\0file:.git/config\0alias.x\n!a\nb\0';
    expect(parseGitConfigList(out)).toEqual([
      { scope: 'global', file: '/home/u/.gitconfig', key: 'user.name', value: 'U' },
      { scope: 'local', file: '.git/config', key: 'core.bare', value: '' },
      { scope: 'local', file: '.git/config', key: 'alias.x', value: '!a\nb' },
    ]);
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (text) => Array.isArray(parseGitConfigList(text))));
  });
});

describe('gitConfigRisk follows every config git would read', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  const repo = (): string => {
    const root = path.join(mkdtempSync(path.join(os.tmpdir(), 'wield-gitcfg-')), 'repo');
    made.push(path.dirname(root));
    mkdirSync(root);
    git(root, 'init', '-q', '.');
    git(root, 'commit', '-q', '--allow-empty', '-m', 'init');
    return root;
  };
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'protocol.file.allow=always', ...args], {
      cwd,
      encoding: 'utf8',
    });
  const runsProgram = '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch PWNED; false"\n';
  /** Runs `check` with GIT_CONFIG_GLOBAL naming a file with this text: the user's own config. */
  const withGlobalConfig = async (root: string, text: string, check: () => Promise<void>): Promise<void> => {
    const global = path.join(path.dirname(root), 'global.gitconfig');
    writeFileSync(global, text);
    const saved = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = global;
    try {
      await check();
    } finally {
      if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved;
    }
  };

  it('a commondir that moves the common folder to a copy whose config runs a program', async () => {
    const root = repo();
    cpSync(path.join(root, '.git'), path.join(root, '.evil'), { recursive: true });
    writeFileSync(path.join(root, '.evil', 'config'), runsProgram);
    writeFileSync(path.join(root, '.git', 'commondir'), '../.evil\n');
    expect(await gitConfigRisk(['git status'], root)).toMatch(/core\.fsmonitor/);
    expect(await gitConfigRisk(['git status'], root)).toMatch(/\.evil/);
  });

  it('config.worktree, only when extensions.worktreeConfig makes git read it', async () => {
    const root = repo();
    writeFileSync(path.join(root, '.git', 'config.worktree'), runsProgram);
    expect(await gitConfigRisk(['git status'], root)).toBeUndefined();
    git(root, 'config', 'extensions.worktreeConfig', 'true');
    expect(await gitConfigRisk(['git status'], root)).toMatch(/config\.worktree\) sets core\.fsmonitor/);
  });

  it("a linked worktree's own config.worktree", async () => {
    const root = repo();
    const wt = path.join(path.dirname(root), 'wt');
    git(root, 'worktree', 'add', '-q', wt);
    git(root, 'config', 'extensions.worktreeConfig', 'true');
    expect(await gitConfigRisk(['git status'], wt)).toBeUndefined();
    writeFileSync(path.join(root, '.git', 'worktrees', 'wt', 'config.worktree'), runsProgram);
    expect(await gitConfigRisk(['git status'], wt)).toMatch(/config\.worktree\) sets core\.fsmonitor/);
    expect(await gitConfigRisk(['git status'], root)).toBeUndefined();
  });

  it("a file inside the repository that the user's own config includes, but not the user's own settings", async () => {
    const root = repo();
    await withGlobalConfig(root, `[credential]\n\thelper = store\n[include]\n\tpath = ${path.join(root, 'team.gitconfig')}\n`, async () => {
      expect(await gitConfigRisk(['git status'], root)).toBeUndefined();
      writeFileSync(path.join(root, 'team.gitconfig'), runsProgram);
      expect(await gitConfigRisk(['git status'], root)).toMatch(/team\.gitconfig\) sets core\.fsmonitor/);
    });
  });

  it('submodules git status recurses into: their git folder under .git/modules, or a repository added as a gitlink', async () => {
    const upstream = repo();
    const root = repo();
    git(root, 'submodule', 'add', '-q', upstream, 'lib');
    git(root, 'commit', '-qm', 'lib');
    expect(await gitConfigRisk(['git status'], root)).toBeUndefined();
    writeFileSync(path.join(root, '.git', 'modules', 'lib', 'config'), runsProgram);
    expect(await gitConfigRisk(['git status'], path.join(root, 'lib'))).toMatch(/core\.fsmonitor/);
    expect(await gitConfigRisk(['git status'], root)).toMatch(/\.git\/modules\/lib\/config\) sets core\.fsmonitor/);

    const other = repo();
    const nested = path.join(other, 'nested');
    mkdirSync(nested);
    git(nested, 'init', '-q', '.');
    git(nested, 'commit', '-q', '--allow-empty', '-m', 'n');
    git(other, 'add', 'nested');
    writeFileSync(path.join(nested, '.git', 'config'), runsProgram);
    expect(await gitConfigRisk(['git status'], path.join(other, 'sub-folder-that-does-not-exist'))).toMatch(/core\.fsmonitor/);
  });

  it('asks when git cannot read the config at all, rather than guess', async () => {
    const root = repo();
    writeFileSync(path.join(root, '.git', 'config'), '[core\n\tbroken\n');
    expect(await gitConfigRisk(['git status'], root)).toMatch(/could not/);
  });

  it("never runs a program while checking, not even the user's own fsmonitor", async () => {
    const root = repo();
    git(root, 'update-index', '--add', '--cacheinfo', `160000,${git(root, 'rev-parse', 'HEAD').trim()},lib`);
    await withGlobalConfig(root, `[core]\n\tfsmonitor = "touch ${path.join(root, 'PWNED')}; false"\n`, async () => {
      expect(await gitConfigRisk(['git status'], root)).toBeUndefined();
    });
    writeFileSync(path.join(root, '.git', 'config'), runsProgram.replace('PWNED', path.join(root, 'PWNED')));
    expect(await gitConfigRisk(['git status'], root)).toMatch(/core\.fsmonitor/);
    expect(existsSync(path.join(root, 'PWNED'))).toBe(false);
  });
});

describe('Bash in a repository whose own config runs programs', () => {
  const makeRepo = (fsmonitor: boolean) => {
    const root = path.join(mkdtempSync(path.join(os.tmpdir(), 'wield-gitcfg-')), 'repo');
    mkdirSync(root);
    execFileSync('git', ['init', '-q', root]);
    if (fsmonitor) {
      writeFileSync(path.join(root, 'evil.sh'), '#!/bin/sh\ntouch "$(dirname "$0")/PWNED"\n', { mode: 0o755 });
      execFileSync('git', ['-C', root, 'config', 'core.fsmonitor', path.join(root, 'evil.sh')]);
    }
    return root;
  };

  it('asks before git status instead of auto-approving it, so the hook never runs', async () => {
    const root = makeRepo(true);
    expect(await gitConfigRisk(['git status'], path.join(root, 'sub'))).toMatch(/core\.fsmonitor/);
    expect(await gitConfigRisk(['ls -la'], root)).toBeUndefined();
    const registry = new ToolRegistry();
    registry.register(bashTool());
    const session = createSession({ cwd: root });
    const rt = createRuntime({
      registry,
      session,
      policy: createPolicy({ settings: emptySettings(), mode: 'default', cwd: root, roots: [root] }),
    });
    const result = await runToolCall({ id: 'g', name: 'Bash', input: { command: 'git status' } }, rt, new AbortController().signal);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/core\.fsmonitor/);
    expect(existsSync(path.join(root, 'PWNED'))).toBe(false);
  });

  it('leaves git status auto-approved in an ordinary repository', async () => {
    const root = makeRepo(false);
    const registry = new ToolRegistry();
    registry.register(bashTool());
    const rt = createRuntime({
      registry,
      // Where containment works; without it git is outside the audited core and asks anyway.
      session: createSession({ cwd: root, contained: true }),
      policy: createPolicy({ settings: emptySettings(), mode: 'default', cwd: root, roots: [root] }),
    });
    const result = await runToolCall({ id: 'g', name: 'Bash', input: { command: 'git status' } }, rt, new AbortController().signal);
    expect(result.isError).toBe(false);
    expect(JSON.stringify(result.content)).toMatch(/No commits yet|On branch/);
  });
});
