// Planning looks at the file system only; no bubblewrap needed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSandbox, type PlanInput } from '../../../src/coding/sandbox/plan.js';
import { DEFAULT_DENY_READ } from '../../../src/coding/sandbox/settings.js';
import { StandIns } from '../../../src/coding/sandbox/stand-ins.js';
import { makeFixture, type Fixture } from './helpers.js';

describe('planSandbox', () => {
  let f: Fixture;
  let input: PlanInput;
  beforeAll(() => {
    f = makeFixture();
    mkdirSync(path.join(f.ws, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(path.join(f.ws, 'node_modules', 'pkg', '.env'), 'x');
    mkdirSync(path.join(f.ws, 'config.env.d'));
    writeFileSync(path.join(f.ws, '.env.production'), 'x');
    const support = path.join(f.base, 'support');
    input = {
      roots: [f.ws, path.join(f.base, 'gone')],
      writableRoots: [f.outside],
      denyRead: [...DEFAULT_DENY_READ],
      cwd: f.ws,
      supportDir: support,
      tmpDir: path.join(support, 'tmp'),
      deniedFileSource: path.join(support, 'denied'),
      home: f.home,
      standIns: new StandIns(),
    };
  });
  afterAll(() => rmSync(f.base, { recursive: true, force: true }));

  it('makes existing roots and the repository folder writable, skipping roots that do not exist', async () => {
    const { plan } = await planSandbox(input);
    expect(plan.writable).toEqual([f.ws, f.outside, path.join(f.ws, '.git')]);
  });

  it('protects existing paths, mounts empty folders for missing ones, and reports missing files', async () => {
    const { plan, unprotected } = await planSandbox(input);
    const git = (rel: string) => path.join(f.ws, '.git', rel);
    expect(plan.readOnly).toEqual([git('hooks'), git('config'), git('config.worktree'), git('commondir')]);
    expect(plan.emptyReadOnlyDirs).toEqual([path.join(f.ws, '.wield')]);
    // A missing .vscode gets no mount point (it would appear in every project): unprotected, and removed if a command makes it.
    expect(unprotected).toEqual([path.join(f.ws, '.mcp.json'), path.join(f.ws, '.vscode')]);
  });

  it('creates the missing git files git reads as absent (empty config, commondir "."), never overwriting one', async () => {
    const git = (rel: string) => path.join(f.ws, '.git', rel);
    writeFileSync(git('config.worktree'), '[user]\n\tname = kept\n');
    rmSync(git('commondir'), { force: true });
    await planSandbox(input);
    expect(readFileSync(git('commondir'), 'utf8')).toBe('.\n');
    expect(readFileSync(git('config.worktree'), 'utf8')).toBe('[user]\n\tname = kept\n');
  });

  it('reports a protected path that is a symbolic link: its target is read-only, the link is not', async () => {
    const target = path.join(f.ws, 'hooks-elsewhere');
    mkdirSync(target);
    const hooks = path.join(f.ws, '.git', 'hooks');
    rmSync(hooks, { recursive: true, force: true });
    symlinkSync(target, hooks);
    const { plan, unprotected } = await planSandbox(input);
    expect(plan.readOnly).toContain(target);
    expect(unprotected).toContain(hooks);
    rmSync(hooks);
    mkdirSync(hooks);
  });

  it('protects the .git file of a linked worktree and the git folders it leads to, when they are writable', async () => {
    const wt = path.join(f.outside, 'wt');
    execFileSync('git', ['worktree', 'add', '-q', wt], { cwd: f.ws });
    const admin = path.join(f.ws, '.git', 'worktrees', 'wt');
    const { plan } = await planSandbox({ ...input, roots: [wt], writableRoots: [f.ws] });
    expect(plan.readOnly).toContain(path.join(wt, '.git'));
    expect(plan.writable).toEqual([wt, f.ws, admin, path.join(f.ws, '.git')]);
    expect(plan.readOnly).toEqual(
      expect.arrayContaining([path.join(admin, 'commondir'), path.join(admin, 'config.worktree'), path.join(f.ws, '.git', 'config')]),
    );
    // Its config and hooks are the common folder's: no placeholders there.
    expect(existsSync(path.join(admin, 'config'))).toBe(false);
    // Outside the writable folders the git folder is read-only anyway: nothing to add.
    const alone = await planSandbox({ ...input, roots: [wt], writableRoots: [] });
    expect(alone.plan.writable).toEqual([wt]);
    execFileSync('git', ['worktree', 'remove', '--force', wt], { cwd: f.ws });
  });

  it('hides home secrets and .env files but not templates, dependencies or folders named like them', async () => {
    const { plan } = await planSandbox(input);
    expect(plan.deniedDirs).toEqual([path.join(f.home, '.ssh')]);
    expect([...plan.deniedFiles].sort()).toEqual(
      [
        path.join(f.home, '.netrc'),
        path.join(f.ws, '.env'),
        path.join(f.ws, '.env.production'),
        path.join(f.ws, 'sub', '.env.local'),
      ].sort(),
    );
  });
});
