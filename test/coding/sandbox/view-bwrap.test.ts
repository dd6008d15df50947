// The view with real bubblewrap: canary secrets planted in a fake home, outside the workspace,
// in another repository and in the workspace itself. Each read is shown reaching its canary
// through the whole-machine profile a rule-allowed command gets (what a command nobody approved
// got before the view), then not reaching it in the view; daily commands still work there.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDenyPredicate } from '../../../src/coding/permissions/read-deny.js';
import { createSandboxWrap, sandboxStatus } from '../../../src/coding/sandbox/index.js';
import { stdioWith } from '../../../src/coding/sandbox/inherit.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import type { AllowBasis, SessionState, ToolContext } from '../../../src/runtime/tool/types.js';
import { bash, git, makeFixture, runWrapped, type Fixture, type RunResult } from './helpers.js';

const status = await sandboxStatus();
const title = status.available ? 'with bubblewrap' : `with bubblewrap (skipped: ${status.reason})`;

describe.skipIf(!status.available)(`the view ${title}`, () => {
  let f: Fixture;
  let session: SessionState;
  let other: string;
  const run = async (script: string, allowedBy: AllowBasis): Promise<RunResult> => {
    const wrap = createSandboxWrap({}, session, { home: f.home });
    const ctx: ToolContext = { ...f.ctx, session, allowedBy };
    const cmd = await wrap(bash(script), ctx, { command: script });
    expect(cmd.sandboxed).toBe(true);
    const result = await runWrapped(cmd, f.ws);
    await cmd.afterRun?.();
    return result;
  };
  /** The hole, then the fix: the rule-allowed profile (whole machine readable) reads the canary; the view does not. */
  const holeThenClosed = async (script: string, canary: string): Promise<void> => {
    expect((await run(script, 'rule')).stdout, `control: ${script}`).toContain(canary);
    for (const allowedBy of ['verdict', 'mode'] as const) {
      const r = await run(script, allowedBy);
      expect(`${r.stdout}${r.stderr}`, `${allowedBy}: ${script}`).not.toContain(canary);
    }
  };

  beforeAll(() => {
    f = makeFixture();
    // Outside the workspace, reached through a link below it.
    writeFileSync(path.join(f.outside, 'secret'), 'CANARY-outside\n');
    symlinkSync(f.outside, path.join(f.ws, 'link'));
    // The home: git credentials, wield's own folder.
    writeFileSync(
      path.join(f.home, '.gitconfig'),
      '[user]\n\tname = Ada\n\temail = ada@example.org\n[url "https://u:CANARY-gitconfig@example.com/"]\n\tinsteadOf = https://example.com/\n',
    );
    mkdirSync(path.join(f.home, '.wield', 'sessions'), { recursive: true });
    writeFileSync(path.join(f.home, '.wield', 'sessions', 's.jsonl'), '{"token":"CANARY-wield"}\n');
    mkdirSync(path.join(f.home, '.config', 'git'), { recursive: true });
    writeFileSync(path.join(f.home, '.config', 'git', 'ignore'), 'ignored-by-global\n');
    // The workspace: a key file the analyser refuses, a folder a Read deny rule covers, a package.
    writeFileSync(path.join(f.ws, 'server.key'), 'CANARY-key\n');
    mkdirSync(path.join(f.ws, 'private'));
    writeFileSync(path.join(f.ws, 'private', 'notes.txt'), 'CANARY-denied\n');
    writeFileSync(path.join(f.ws, 'package.json'), '{"name":"p","version":"1.2.3"}\n');
    writeFileSync(path.join(f.ws, 'ignored-by-global'), 'x\n');
    // Another repository next to the workspace.
    other = path.join(f.base, 'other-repo');
    mkdirSync(other);
    git(other, 'init', '-q', '.');
    writeFileSync(path.join(other, 'plan.txt'), 'CANARY-other\n');
    git(other, 'add', '.');
    git(other, 'commit', '-qm', 'other');
    const deny = [{ tool: 'Read', content: './private/**', text: 'Read(./private/**)', source: 'test', base: f.ws }];
    session = createSession({ cwd: f.ws, dir: path.join(f.base, 'view-session'), readDenied: readDenyPredicate(deny, f.home) });
  });
  afterAll(() => rmSync(f.base, { recursive: true, force: true }));

  it('a link out of the workspace resolves to nothing, also for a recursion that follows links', async () => {
    await holeThenClosed('cat link/secret', 'CANARY-outside');
    await holeThenClosed('grep -rR CANARY . 2>/dev/null', 'CANARY-outside');
  });

  it("the home's credentials and wield's folder are not there", async () => {
    await holeThenClosed(`cat ${f.home}/.gitconfig; git config --global --list`, 'CANARY-gitconfig');
    await holeThenClosed(`cat ${f.home}/.wield/sessions/s.jsonl; grep -r CANARY ${f.home}`, 'CANARY-wield');
  });

  it('secret files in the workspace (the analyser’s list) and Read-denied files are masked', async () => {
    await holeThenClosed('cat server.key', 'CANARY-key');
    await holeThenClosed('cat private/notes.txt; grep -r CANARY-denied .', 'CANARY-denied');
    // .env: the whole-machine profile masks it already; plain bash is the control.
    const plain = await runWrapped({ file: 'bash', args: ['-c', 'cat .env'], sandboxed: false }, f.ws);
    expect(plain.stdout).toContain('workspace-secret');
    expect((await run('cat .env sub/.env.local', 'verdict')).stdout).toBe('');
  });

  it("another repository's files and history are not there", async () => {
    await holeThenClosed(`cat ${other}/plan.txt`, 'CANARY-other');
    await holeThenClosed(`git -C ${other} log -p`, 'CANARY-other');
  });

  it("a linked worktree's own repository is shown; a planted .git file naming another one is not", async () => {
    const worktree = path.join(f.base, 'wt');
    git(other, 'worktree', 'add', '-q', worktree);
    const planted = path.join(f.base, 'planted');
    mkdirSync(planted);
    writeFileSync(path.join(planted, '.git'), `gitdir: ${path.join(other, '.git')}\n`);
    const inRoot = async (root: string, script: string, allowedBy: AllowBasis): Promise<RunResult> => {
      const s = createSession({ cwd: root, dir: path.join(f.base, `session-${path.basename(root)}`) });
      const cmd = await createSandboxWrap({}, s, { home: f.home })(bash(script), { ...f.ctx, session: s, allowedBy }, {});
      return runWrapped(cmd, root);
    };
    const log = 'git log -p 2>&1';
    expect((await inRoot(worktree, log, 'verdict')).stdout).toContain('CANARY-other');
    // The hole: through the whole-machine profile the planted file reads the other repository.
    expect((await inRoot(planted, log, 'rule')).stdout).toContain('CANARY-other');
    expect((await inRoot(planted, log, 'verdict')).stdout).not.toContain('CANARY-other');
  });

  it('/etc is there without its secrets', async () => {
    const control = await run('cat /etc/shadow', 'rule');
    // Readable where the tests run as root; elsewhere the file is unreadable anyway.
    if (control.stdout !== '') await holeThenClosed('cat /etc/shadow', control.stdout.split('\n')[0]);
    expect((await run('cat /etc/shadow', 'verdict')).stdout).toBe('');
    expect((await run('head -1 /etc/passwd', 'verdict')).stdout).toMatch(/^root:/);
  });

  it('daily commands work: git status and log, node, ls, cat, npm pkg get; HOME is empty but for the harmless files', async () => {
    const r = await run(
      'git status --short; git log --oneline; node -v; ls; cat notes.txt; npm pkg get version; echo "home=$(ls -A "$HOME" | tr "\\n" " ")"',
      'verdict',
    );
    expect(r.stdout).toMatch(/\?\? package\.json/);
    // ~/.config/git/ignore is shown, so git ignores what it names as it does outside.
    expect(r.stdout).not.toMatch(/^\?\? ignored-by-global/m);
    expect(r.stdout).toMatch(/[0-9a-f]{7} notes/);
    expect(r.stdout).toMatch(/^v\d+\.\d+\.\d+$/m);
    expect(r.stdout).toMatch(/^notes\.txt$/m);
    expect(r.stdout).toContain('alpha\nbeta\ngamma\n');
    expect(r.stdout).toContain('"1.2.3"');
    // npm writes its cache into the (private, discarded) home; nothing else is there.
    expect(r.stdout).toMatch(/^home=\.config (\.npm )?$/m);
  });

  it('confined (a mode allowed it): the workspace is writable, what runs later stays read-only', async () => {
    const r = await run('echo w > confined.txt; echo "ws=$?"; echo evil > .git/hooks/post-checkout; echo "hook=$?"', 'mode');
    expect(r.stdout).toMatch(/ws=0/);
    expect(r.stdout).toMatch(/hook=1/);
    expect(readFileSync(path.join(f.ws, 'confined.txt'), 'utf8')).toBe('w\n');
    const ro = await run('echo x > contained.txt; echo "ws=$?"', 'verdict');
    expect(ro.stdout).toMatch(/ws=1/);
  });

  it("wield's support folder stays read-only in the view, its temp folder writable", async () => {
    const support = path.join(session.dir, 'sandbox');
    for (const allowedBy of ['verdict', 'mode'] as const) {
      const r = await run(`echo x > ${support}/planted; echo "support=$?"; echo x > $TMPDIR/t; echo "tmp=$?"`, allowedBy);
      expect(r.stdout, allowedBy).toMatch(/support=1/);
      expect(r.stdout, allowedBy).toMatch(/tmp=0/);
    }
  });

  it("confined: git commit works with the identity from the user's git config, which stays hidden", async () => {
    // As on a machine whose identity is only in ~/.gitconfig (the test runner sets it in the environment).
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^GIT_(AUTHOR|COMMITTER)_/.test(name)));
    Object.assign(env, { HOME: f.home, XDG_CONFIG_HOME: path.join(f.home, '.config') });
    const wrap = createSandboxWrap({}, session, { home: f.home, env });
    const script = `echo more >> notes.txt && git commit -qam more && git log -1 --format=%an; cat ${f.home}/.gitconfig`;
    const cmd = await wrap(bash(script), { ...f.ctx, session, allowedBy: 'mode' }, {});
    const stdio = stdioWith(['ignore', 'pipe', 'pipe'], cmd.inherit);
    const r = spawnSync(cmd.file, cmd.args, { cwd: f.ws, env, encoding: 'utf8', stdio: stdio.stdio });
    stdio.close();
    expect(r.stdout).toBe('Ada\n');
    expect(r.stderr).toMatch(/No such file or directory/);
  });
});

describe('without bubblewrap', () => {
  it('nothing is contained: the command runs as it is, and says why', async () => {
    const f = makeFixture();
    const saved = process.env.PATH;
    try {
      // A PATH without bwrap, as on a machine where it is not installed.
      process.env.PATH = path.join(f.base, 'no-bin');
      const wrap = createSandboxWrap({}, f.session, { home: f.home });
      for (const allowedBy of ['verdict', 'mode'] as const) {
        const cmd = await wrap(bash('true'), { ...f.ctx, allowedBy }, { command: 'true' });
        expect(cmd).toMatchObject({ file: 'bash', sandboxed: false });
        expect(cmd.reason).toMatch(/the sandbox is unavailable: bubblewrap \(bwrap\) is not on PATH/);
      }
    } finally {
      process.env.PATH = saved;
      rmSync(f.base, { recursive: true, force: true });
    }
  });
});
