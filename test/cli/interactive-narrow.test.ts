// The terminal around the session (tmux): a narrow one and one resized mid-session — every line is
// wrapped or cut to the width (the UI library stops on a line wider than the screen) and a
// question's label wraps whole; Ctrl-Z under an interactive shell suspends and `fg` brings the
// draft back (without job control it says it cannot); a killed session gives the cursor back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';
import { execFileSync } from 'node:child_process';

/** `ps`'s state letter: T when stopped. */
function processState(pid: number): string {
  return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
    .trim()
    .charAt(0);
}

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

describe('interactive wield in a narrow terminal', () => {
  let standin: Standin | undefined;
  let tmux: TmuxSession | undefined;
  afterAll(async () => {
    tmux?.kill();
    await standin?.close();
  });

  it('wraps the picker question, long answers and diffs, and survives a resize', async () => {
    const cwd = tempDir('wield-narrow-cwd-');
    const home = tempDir('wield-narrow-home-');
    const long = `${'a-long-unbroken-word-'.repeat(6)}end`;
    standin = await startStandin({
      dialect: 'anthropic',
      script: [
        { text: 'first session' },
        { text: `## Heading\n\n${long} and some ordinary words after it, wrapped at the width.\n` },
        { toolCalls: [{ name: 'Write', arguments: { file_path: `${cwd}/${'deep/'.repeat(8)}file.txt`, content: `${long}\n` } }] },
        { text: 'Wrote it.' },
      ],
    });
    const env = cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' });
    expect((await runCli(cli, [...providerArgs('anthropic'), '-p', 'start'], { cwd, env })).code).toBe(0);
    tmux = TmuxSession.start(`wield-narrow-${process.pid}`, [process.execPath, cli, ...providerArgs('anthropic'), '--resume'], env, cwd, {
      columns: 30,
      rows: 40,
    });
    // The label (over 50 characters) wraps: its end is on screen.
    await tmux.waitFor('new session)?');
    tmux.type('1');
    await tmux.waitForPrompt();
    tmux.type('say something long');
    let screen = await tmux.waitFor('wrapped at the');
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(30);
    tmux.resize(24);
    tmux.type('write it');
    screen = await tmux.waitFor('[y] yes');
    tmux.type('y');
    screen = await tmux.waitFor('Wrote it.');
    for (const line of screen.split('\n').slice(-20)) expect(line.length).toBeLessThanOrEqual(24);
    tmux.type('/exit');
    screen = await tmux.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('[exit 0]');
  });

  it('says why Ctrl-Z cannot suspend without job control; gives the terminal its cursor back when killed', async () => {
    const cwd = tempDir('wield-kill-cwd-');
    const env = cleanEnv(tempDir('wield-kill-home-'), { ...providerEnv('anthropic', 'http://127.0.0.1:9'), TERM: 'xterm' });
    const killed = TmuxSession.start(`wield-kill-${process.pid}`, [process.execPath, cli, ...providerArgs('anthropic')], env, cwd);
    try {
      await killed.waitForPrompt();
      expect(killed.cursorShown()).toBe(false);
      // Here no job-control shell runs wield (tmux's `sh -c`): Ctrl-Z cannot suspend, and says so.
      killed.keys('-l', 'a draft');
      await killed.waitForEditor('a draft');
      killed.keys('C-z');
      await killed.waitFor('Ctrl-Z: not suspended');
      await killed.waitForEditor('a draft');
      expect(killed.cursorShown()).toBe(false);
      killed.signal('SIGTERM');
      await killed.waitFor('[exit 143]');
      expect(killed.cursorShown()).toBe(true);
    } finally {
      killed.kill();
    }
  });

  it('suspends on Ctrl-Z under an interactive shell and comes back on fg, the draft kept', async () => {
    const cwd = tempDir('wield-tstp-cwd-');
    const env = cleanEnv(tempDir('wield-tstp-home-'), { ...providerEnv('anthropic', 'http://127.0.0.1:9'), TERM: 'xterm', PS1: 'shell$ ' });
    const shell = TmuxSession.start(`wield-tstp-${process.pid}`, ['bash', '--norc', '--noprofile', '-i'], env, cwd);
    try {
      await shell.waitFor('shell$');
      shell.type([process.execPath, cli, ...providerArgs('anthropic')].join(' '));
      await shell.waitForPrompt();
      shell.keys('-l', 'kept draft');
      await shell.waitForEditor('kept draft');
      shell.keys('C-z');
      await shell.waitFor('Stopped');
      // wield is the interactive shell's child.
      const wield = Number(
        execFileSync('pgrep', ['-P', String(shell.programPid())], { encoding: 'utf8' })
          .trim()
          .split('\n')[0],
      );
      expect(processState(wield)).toBe('T');
      expect(shell.cursorShown()).toBe(true);
      shell.type('fg');
      await shell.waitForEditor('kept draft');
      expect(shell.cursorShown()).toBe(false);
      shell.keys('C-c');
      shell.keys('C-c');
      shell.keys('C-c');
      // Back at the shell (nothing was sent, so no session was saved to continue).
      await shell.waitFor(/again to exit\s+shell\$/);
    } finally {
      shell.kill();
    }
  });
});
