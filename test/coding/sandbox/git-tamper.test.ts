// A sandboxed command must not be able to make git, run later outside the sandbox, run a
// program: every file in a git folder that sets or redirects git's config stays read-only, and
// the missing ones cannot be created. Real bubblewrap, real git.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxWrap, sandboxStatus } from '../../../src/coding/sandbox/index.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import type { ToolContext } from '../../../src/runtime/tool/types.js';
import { bash, git, makeFixture, runWrapped, type Fixture, type RunResult } from './helpers.js';

const status = await sandboxStatus();
const title = status.available ? 'git folders in the sandbox' : `git folders in the sandbox (skipped: ${status.reason})`;

describe.skipIf(!status.available)(title, () => {
  let f: Fixture;
  let marker: string;

  const runIn = async (script: string, roots: string[], cwd: string): Promise<RunResult> => {
    const session = createSession({ cwd, roots, dir: f.session.dir });
    const ctx: ToolContext = { ...f.ctx, session };
    const cmd = await createSandboxWrap({ enabled: true }, session, { home: f.home })(bash(script), ctx, {});
    expect(cmd.sandboxed).toBe(true);
    return runWrapped(cmd, cwd);
  };
  const run = (script: string): Promise<RunResult> => runIn(script, [f.ws], f.ws);
  /** git status as a person would run it afterwards, outside the sandbox. */
  const statusOutside = (cwd: string = f.ws): void => {
    execFileSync('git', ['status', '--short'], { cwd, stdio: 'ignore' });
  };

  beforeEach(() => {
    f = makeFixture();
    marker = path.join(f.base, 'ran');
  });
  afterEach(() => rmSync(f.base, { recursive: true, force: true }));

  it('cannot redirect the common git folder with a new .git/commondir', async () => {
    // The review's repro: a copy of .git whose config runs a program, made the common folder.
    const evil = `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch ${marker}; false"\\n' > .evil/config`;
    const r = await run(`cp -r .git .evil && ${evil} && echo ../.evil > .git/commondir; echo "commondir=$?"`);
    expect(r.stdout).toMatch(/commondir=[1-9]/);
    statusOutside();
    expect(existsSync(marker)).toBe(false);
    // What stands in for the missing file reads, to git, as "the common folder is this one".
    expect(readFileSync(path.join(f.ws, '.git', 'commondir'), 'utf8').trim()).toBe('.');
  });

  it('cannot write .git/config.worktree, which git reads when extensions.worktreeConfig is on', async () => {
    git(f.ws, 'config', 'extensions.worktreeConfig', 'true');
    const r = await run(`printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' > .git/config.worktree; echo "worktree=$?"`);
    expect(r.stdout).toMatch(/worktree=[1-9]/);
    statusOutside();
    expect(existsSync(marker)).toBe(false);
  });

  it("cannot change a linked worktree's or a submodule's git files, while git still works in the submodule", async () => {
    const wt = path.join(f.outside, 'wt');
    git(f.ws, 'worktree', 'add', '-q', wt);
    git(f.ws, 'config', 'extensions.worktreeConfig', 'true');
    const upstream = path.join(f.outside, 'upstream');
    mkdirSync(upstream);
    git(upstream, 'init', '-q', '.');
    git(upstream, 'commit', '-q', '--allow-empty', '-m', 'u');
    git(f.ws, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', upstream, 'lib');
    git(f.ws, 'commit', '-qm', 'sub');
    const admin = path.join('.git', 'worktrees', 'wt');
    const r = await run(
      [
        `echo '[core] fsmonitor = x' > ${admin}/config.worktree; echo "wtconfig=$?"`,
        `echo ../.. > ${admin}/commondir; echo "wtcommon=$?"`,
        `echo '[core] fsmonitor = x' >> .git/modules/lib/config; echo "subconfig=$?"`,
        `echo x > .git/modules/lib/hooks/post-checkout; echo "subhook=$?"`,
        `echo 'gitdir: ../.evil' > lib/.git; echo "subgitfile=$?"`,
        'cd lib && echo y > y && git add y && git -c user.name=t -c user.email=t@example.invalid commit -qm y; echo "subcommit=$?"',
      ].join('\n'),
    );
    for (const what of ['wtconfig', 'wtcommon', 'subconfig', 'subhook', 'subgitfile'])
      expect(r.stdout).toMatch(new RegExp(`${what}=[1-9]`));
    expect(r.stdout).toMatch(/subcommit=0/);
    expect(readFileSync(path.join(f.ws, admin, 'config.worktree'), 'utf8')).toBe('');
    expect(readFileSync(path.join(f.ws, '.git', 'modules', 'lib', 'config'), 'utf8')).not.toMatch(/fsmonitor/);
    statusOutside(wt);
    statusOutside();
    expect(existsSync(marker)).toBe(false);
  });

  it("protects every repository in the workspace, not only the root's (a folder of checkouts)", async () => {
    const parent = path.join(f.base, 'checkouts');
    for (const name of ['a', 'b']) {
      mkdirSync(path.join(parent, name), { recursive: true });
      git(path.join(parent, name), 'init', '-q', '.');
    }
    const r = await runIn(
      [
        `git -C a config core.fsmonitor "touch ${marker}; false"; echo "config=$?"`,
        `echo ../../a/.git > b/.git/commondir; echo "commondir=$?"`,
        'mv a/.git a/.git-moved; echo "move=$?"',
        'git -C b commit -q --allow-empty -m b; echo "commit=$?"',
      ].join('\n'),
      [parent],
      parent,
    );
    for (const what of ['config', 'commondir', 'move']) expect(r.stdout).toMatch(new RegExp(`${what}=[1-9]`));
    expect(r.stdout).toMatch(/commit=0/);
    statusOutside(path.join(parent, 'a'));
    statusOutside(path.join(parent, 'b'));
    expect(existsSync(marker)).toBe(false);
  });

  it('keeps ordinary git working inside, and git outside sees the same repository', async () => {
    const r = await run(
      [
        'git status --short >/dev/null; echo "status=$?"',
        'echo more >> notes.txt && git add notes.txt && git -c user.name=t -c user.email=t@example.invalid commit -qm more; echo "commit=$?"',
        'git branch topic && git switch -q topic && git switch -q -; echo "branch=$?"',
        'git stash list >/dev/null; echo "stash=$?"',
      ].join('\n'),
    );
    expect(r.stdout).toMatch(/status=0[\s\S]*commit=0[\s\S]*branch=0[\s\S]*stash=0/);
    expect(git(f.ws, 'log', '--format=%s')).toBe('more\nnotes\n');
    expect(git(f.ws, 'rev-parse', '--path-format=absolute', '--git-common-dir').trim()).toBe(path.join(f.ws, '.git'));
  });

  it('protects the repository a .git file points to (a bare repository with worktrees beside it)', async () => {
    const proj = path.join(f.base, 'proj');
    mkdirSync(proj);
    execFileSync('git', ['clone', '-q', '--bare', f.ws, path.join(proj, '.bare')]);
    writeFileSync(path.join(proj, '.git'), 'gitdir: ./.bare\n');
    git(proj, 'worktree', 'add', '-q', 'main');
    const main = path.join(proj, 'main');
    const r = await runIn(
      [
        `echo 'gitdir: ./evil' > .git; echo "gitfile=$?"`,
        `echo '[core] fsmonitor = x' >> .bare/config; echo "config=$?"`,
        `echo x > .bare/hooks/pre-commit; echo "hook=$?"`,
        `echo ../evil > .bare/commondir; echo "commondir=$?"`,
        'cd main && echo z > z && git add z && git -c user.name=t -c user.email=t@example.invalid commit -qm z; echo "commit=$?"',
      ].join('\n'),
      [proj],
      proj,
    );
    for (const what of ['gitfile', 'config', 'hook', 'commondir']) expect(r.stdout).toMatch(new RegExp(`${what}=[1-9]`));
    expect(r.stdout).toMatch(/commit=0/);
    expect(readFileSync(path.join(proj, '.git'), 'utf8')).toBe('gitdir: ./.bare\n');
    expect(git(main, 'log', '-1', '--format=%s').trim()).toBe('z');
  });
});
