// git beyond .git/config keys (issue class 4): hooks that read-only commands run, a hooks folder
// the repository tracks, a work tree elsewhere, partial-clone lazy fetches, and a nested
// repository reached with `cd`. Each hole is shown first with real git in a temp folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { gitConfigRisk, isRiskyGitKey } from '../../../src/coding/tools/git-config-risk.js';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-gitread-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
beforeAll(async () => {
  await loadBashAnalyzer();
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });

function repo(name: string): string {
  const root = path.join(tmp, name);
  fs.mkdirSync(root, { recursive: true });
  git(root, 'init', '-q', '.');
  fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
  git(root, 'add', 'a.txt');
  git(root, 'commit', '-q', '-m', 'init');
  return root;
}

/** A hook that leaves a mark where it ran. */
function hook(file: string, mark: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\ntouch '${mark}'\n`, { mode: 0o755 });
}

describe('git runs what the repository says even for read-only commands', () => {
  it('a post-index-change hook runs on git status, so git status asks there', async () => {
    const root = repo('hooked');
    const mark = path.join(tmp, 'hook-ran');
    hook(path.join(root, '.git', 'hooks', 'post-index-change'), mark);
    fs.utimesSync(path.join(root, 'a.txt'), new Date(), new Date());
    git(root, 'status');
    expect(fs.existsSync(mark)).toBe(true);
    expect(analyzeBash('git status', { cwd: root, contained: true }).readOnly).toBe(true);
    expect(await gitConfigRisk(['git status'], root)).toMatch(/hook .*post-index-change/);
  });

  it('core.hooksPath pointing at a tracked folder is seen too', async () => {
    const root = repo('hookspath');
    hook(path.join(root, 'tools', 'hooks', 'post-index-change'), path.join(tmp, 'tracked-hook-ran'));
    git(root, 'config', 'core.hooksPath', 'tools/hooks');
    expect(await gitConfigRisk(['git diff'], root)).toMatch(/core\.hookspath|hook/i);
  });

  it('hooks folders, pagers, partial clones and ext:: transports are risky keys', () => {
    for (const key of [
      'core.hooksPath',
      'core.pager',
      'pager.log',
      'extensions.partialClone',
      'remote.origin.promisor',
      'remote.origin.uploadpack',
      'protocol.ext.allow',
      'url.ext::sh -c x.insteadOf',
    ]) {
      expect(isRiskyGitKey(key), key).toBe(true);
    }
  });

  // Submodules set core.worktree in their own config, so where it points is what tells: git is
  // asked for its work tree and git folder, and either outside the workspace is a risk unless it
  // points back at this checkout (a linked worktree or a submodule opened on its own).
  it('a work tree outside the workspace makes git diff print files there', async () => {
    const root = repo('worktree');
    const outside = path.join(tmp, 'elsewhere');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'a.txt'), 'SECRET OUTSIDE\n');
    git(root, 'config', 'core.worktree', outside);
    expect(git(root, 'diff')).toContain('SECRET OUTSIDE');
    expect(await gitConfigRisk(['git diff'], root)).toMatch(/core\.worktree|outside the workspace/);
  });

  it('a .git file naming a repository outside the workspace makes git show print its files', async () => {
    const other = repo('other-project');
    fs.writeFileSync(path.join(other, 'secret.txt'), 'OTHER PROJECT SECRET\n');
    git(other, 'add', 'secret.txt');
    git(other, 'commit', '-q', '-m', 'secret');
    const root = path.join(tmp, 'from-tarball');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, '.git'), `gitdir: ${path.join(other, '.git')}\n`);
    expect(git(root, 'show', 'HEAD:secret.txt')).toContain('OTHER PROJECT SECRET');
    expect(analyzeBash('git show HEAD:secret.txt', { cwd: root, roots: [root], contained: true }).readOnly).toBe(true);
    expect(await gitConfigRisk(['git show HEAD:secret.txt'], root, [], [root])).toMatch(/outside the workspace/);
  });

  it('a linked worktree and a submodule opened on their own point back at the checkout: no risk', async () => {
    const main = repo('main-of-worktree');
    const linked = path.join(tmp, 'linked-worktree');
    git(main, 'worktree', 'add', '-q', linked);
    expect(await gitConfigRisk(['git status'], linked, [], [linked])).toBeUndefined();
    const sub = repo('sub-source');
    const parent = repo('parent');
    git(parent, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'lib');
    const checkout = path.join(parent, 'lib');
    expect(await gitConfigRisk(['git status'], checkout, [], [checkout])).toBeUndefined();
    // A workspace that is one folder of a larger repository: its work tree holds the workspace.
    const pkg = path.join(parent, 'packages', 'app');
    fs.mkdirSync(pkg, { recursive: true });
    expect(await gitConfigRisk(['git status'], pkg, [], [pkg])).toBeUndefined();
  });

  it('a nested repository reached with cd is checked, not only the session folder', async () => {
    const outer = repo('outer');
    const inner = path.join(outer, 'vendor', 'lib');
    fs.mkdirSync(inner, { recursive: true });
    git(inner, 'init', '-q', '.');
    git(inner, 'config', 'core.fsmonitor', 'touch fsmonitor-ran;false');
    const a = analyzeBash('cd vendor/lib && git status', { cwd: outer, roots: [outer], contained: true });
    expect(a.readOnly).toBe(true);
    expect(a.gitDirs).toContain(inner);
    expect(await gitConfigRisk(a.commands, outer)).toBeUndefined();
    expect(await gitConfigRisk(a.commands, outer, a.gitDirs)).toMatch(/core\.fsmonitor/);
  });

  it('rev-parse and show-ref read objects, so git -C elsewhere asks for them too', () => {
    const opts = { cwd: tmp, roots: [tmp], contained: true };
    expect(analyzeBash('git -C sub rev-parse HEAD^{tree}', opts).readOnly).toBe(false);
    expect(analyzeBash('git -C sub show-ref --dereference', opts).readOnly).toBe(false);
    expect(analyzeBash('git -C sub config --get user.name', opts).readOnly).toBe(true);
  });
});
