// A narrow terminal, one resized during the session, and one whose program is killed (tmux):
// every line is wrapped or cut to the width (the UI library stops on a line wider than the
// screen), a question's label wraps whole instead of losing its end, the session goes on after
// the resize, and a killed session gives the terminal its cursor back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

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
    screen = await tmux.waitFor('Allow? y / n / a / A');
    tmux.type('y');
    screen = await tmux.waitFor('Wrote it.');
    for (const line of screen.split('\n').slice(-20)) expect(line.length).toBeLessThanOrEqual(24);
    tmux.type('/exit');
    screen = await tmux.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('[exit 0]');
  });

  it('gives the terminal its cursor back when killed', async () => {
    const cwd = tempDir('wield-kill-cwd-');
    const env = cleanEnv(tempDir('wield-kill-home-'), { ...providerEnv('anthropic', 'http://127.0.0.1:9'), TERM: 'xterm' });
    const killed = TmuxSession.start(`wield-kill-${process.pid}`, [process.execPath, cli, ...providerArgs('anthropic')], env, cwd);
    try {
      await killed.waitForPrompt();
      expect(killed.cursorShown()).toBe(false);
      killed.signal('SIGTERM');
      await killed.waitFor('[exit 143]');
      expect(killed.cursorShown()).toBe(true);
    } finally {
      killed.kill();
    }
  });
});
