// Protected files that do not exist yet, for commands nobody approved (bypassPermissions, a hook's
// allow: confined; `contain: false`: guarded). A mount needs something to mount over, so these
// were left writable: a command could create `.mcp.json`, `.vscode/tasks.json`, a shell start-up
// file or `~/.config/git/config` in a workspace at $HOME, or wield's user settings when guarded.
// Each is shown created first (plain bash, and the rule-allowed profile, which still only removes
// it once the command ends), then refused through real bubblewrap, with nothing left behind.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxWrap, sandboxStatus } from '../../../src/coding/sandbox/index.js';
import { stdioWith } from '../../../src/coding/sandbox/inherit.js';
import { StandIns } from '../../../src/coding/sandbox/stand-ins.js';
import type { SandboxSettings } from '../../../src/coding/sandbox/settings.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import type { AllowBasis, SessionState } from '../../../src/runtime/tool/types.js';
import { bash, makeFixture, runWrapped, type Fixture, type RunResult } from './helpers.js';

describe('StandIns', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'wield-stand-ins-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('makes the first missing folder on the way, and removes it when the last holder lets go', () => {
    const standIns = new StandIns();
    const target = path.join(dir, '.config', 'git');
    expect(standIns.hold(target, true)).toBe(path.join(dir, '.config'));
    // A second command finds it held: counted, not made again.
    expect(standIns.hold(target, true)).toBe(path.join(dir, '.config'));
    standIns.release([path.join(dir, '.config')]);
    expect(existsSync(path.join(dir, '.config'))).toBe(true);
    standIns.release([path.join(dir, '.config')]);
    expect(existsSync(path.join(dir, '.config'))).toBe(false);
  });

  it('reuses a held folder for a path inside it; makes none unless asked; keeps what was put there meanwhile', () => {
    const standIns = new StandIns();
    const wield = path.join(dir, '.wield');
    expect(standIns.hold(path.join(dir, '.mcp.json'), false)).toBeUndefined();
    expect(existsSync(path.join(dir, '.mcp.json'))).toBe(false);
    expect(standIns.hold(wield, true)).toBe(wield);
    expect(standIns.hold(path.join(wield, 'settings.json'), false)).toBe(wield);
    // A person writes there from outside while commands run: theirs is kept.
    writeFileSync(path.join(wield, 'settings.json'), '{}\n');
    standIns.release([wield, wield]);
    expect(readFileSync(path.join(wield, 'settings.json'), 'utf8')).toBe('{}\n');
  });

  it('makes none where something is already (another program made it first)', () => {
    const standIns = new StandIns();
    mkdirSync(path.join(dir, '.vscode'));
    expect(standIns.hold(path.join(dir, '.vscode'), true)).toBeUndefined();
  });
});

const status = await sandboxStatus();
const title = status.available ? 'with bubblewrap' : `with bubblewrap (skipped: ${status.reason})`;

describe.skipIf(!status.available)(`protected files that do not exist yet, ${title}`, () => {
  let f: Fixture;
  const leftover = (paths: readonly string[]): string[] => paths.filter((p) => existsSync(p));
  const write = (file: string): string => `mkdir -p "${path.dirname(file)}" 2>/dev/null; echo evil > "${file}"; echo "made=$?"`;
  const run = async (script: string, allowedBy: AllowBasis, session: SessionState, settings: SandboxSettings = {}): Promise<RunResult> => {
    const wrap = createSandboxWrap(settings, session, { home: f.home });
    const cmd = await wrap(bash(script), { ...f.ctx, session, allowedBy }, { command: script });
    expect(cmd.sandboxed).toBe(true);
    return runWrapped(cmd, session.cwd).finally(cmd.afterRun);
  };
  /** Plain bash and the rule-allowed profile create it (the hole); the profile under test does not, and nothing is left. */
  const holeThenClosed = async (file: string, allowedBy: AllowBasis, session: SessionState, settings: SandboxSettings = {}) => {
    let top = file;
    while (!existsSync(path.dirname(top))) top = path.dirname(top);
    execFileSync('bash', ['-c', write(file)], { cwd: session.cwd });
    expect(readFileSync(file, 'utf8'), `plain bash: ${file}`).toBe('evil\n');
    rmSync(top, { recursive: true });
    if (settings.contain !== false) {
      const old = await run(write(file), 'rule', session);
      expect(old.stdout, `rule-allowed: ${file}`).toMatch(/made=0/);
      expect(existsSync(top), `rule-allowed: ${file} removed once the command ended`).toBe(false);
    }
    const r = await run(write(file), allowedBy, session, settings);
    expect(r.stdout, `${allowedBy}: ${file}`).toMatch(/made=1/);
    expect(existsSync(file), `${allowedBy}: ${file} after the command`).toBe(false);
  };

  beforeEach(() => {
    f = makeFixture();
  });
  afterEach(() => rmSync(f.base, { recursive: true, force: true }));

  it('confined (bypassPermissions): .mcp.json and .vscode/tasks.json cannot be created; no stand-in stays', async () => {
    for (const rel of ['.mcp.json', path.join('.vscode', 'tasks.json')]) {
      await holeThenClosed(path.join(f.ws, rel), 'mode', f.session);
      rmSync(path.join(f.ws, '.vscode'), { recursive: true, force: true });
    }
    expect(leftover([path.join(f.ws, '.mcp.json'), path.join(f.ws, '.vscode')])).toEqual([]);
    // The workspace itself stays writable.
    const r = await run('echo ok > made.txt', 'mode', f.session);
    expect(r.code).toBe(0);
  });

  it('confined in a workspace at $HOME: shell start-up files and git config, existing or not, stay as they are', async () => {
    const session = createSession({ cwd: f.home, dir: path.join(f.base, 'home-session') });
    mkdirSync(path.join(f.home, '.config'));
    for (const rel of ['.bashrc', '.profile', '.gitconfig', path.join('.config', 'git', 'config')]) {
      await holeThenClosed(path.join(f.home, rel), 'mode', session);
    }
    writeFileSync(path.join(f.home, '.zshrc'), '# mine\n');
    const r = await run('echo evil >> .zshrc; echo "made=$?"', 'mode', session);
    expect(r.stdout).toMatch(/made=1/);
    expect(readFileSync(path.join(f.home, '.zshrc'), 'utf8')).toBe('# mine\n');
    expect(leftover([path.join(f.home, '.config', 'git')])).toEqual([]);
  });

  it("guarded (containment off): git's user config and wield's user settings and projects record cannot be created", async () => {
    const files = [
      path.join(f.home, '.config', 'git', 'config'),
      path.join(f.home, '.wield', 'settings.json'),
      path.join(f.home, '.wield', 'projects.json'),
      path.join(f.home, '.bash_profile'),
    ];
    for (const file of files) await holeThenClosed(file, 'mode', f.session, { contain: false });
    expect(leftover([path.join(f.home, '.config'), path.join(f.home, '.wield')])).toEqual([]);
  });

  it('a command that ends first does not take the stand-in away from one still running', async () => {
    const wrap = createSandboxWrap({}, f.session, { home: f.home });
    const ctx = { ...f.ctx, allowedBy: 'mode' as const };
    const fifo = path.join(f.ws, 'go');
    execFileSync('mkfifo', [fifo]);
    const script = `echo started; read -r _ < go; echo evil > .mcp.json; echo "made=$?"`;
    const long = await wrap(bash(script), ctx, { command: script });
    const stdio = stdioWith(['ignore', 'pipe', 'pipe', 'pipe'], long.inherit);
    const child = spawn(long.file, long.args, { cwd: f.ws, stdio: stdio.stdio });
    stdio.close();
    let out = '';
    const started = new Promise<void>((resolve) => {
      (child.stdout as Readable).on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('started')) resolve();
      });
    });
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    await started;
    const short = await wrap(bash('true'), ctx, { command: 'true' });
    await runWrapped(short, f.ws);
    await short.afterRun?.();
    expect(existsSync(path.join(f.ws, '.mcp.json'))).toBe(true);
    writeFileSync(fifo, 'go\n');
    await closed;
    await long.afterRun?.();
    expect(out).toMatch(/made=1/);
    expect(existsSync(path.join(f.ws, '.mcp.json'))).toBe(false);
  });
});
