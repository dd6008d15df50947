// Keys in a real terminal: at a permission question a number answers at once, the arrows and
// Enter pick, Esc is a no (not a failed prompt); Esc on a turn with a queued prompt interrupts and
// hands the prompt back in the editor instead of sending it; Shift-Tab cycles the permission
// mode the status line shows; /model switches the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

describe('interactive keys', () => {
  let standin: Standin | undefined;
  let tmux: TmuxSession | undefined;
  afterAll(async () => {
    tmux?.kill();
    await standin?.close();
  });

  it('answers permission questions with one key, keeps a queued prompt when Esc interrupts, cycles the mode and switches the model', async () => {
    const cwd = tempDir('wield-keys-cwd-');
    const home = tempDir('wield-keys-home-');
    const touch = (name: string) => ({ toolCalls: [{ name: 'Bash', arguments: { command: `touch ${name}` } }] });
    standin = await startStandin({
      dialect: 'anthropic',
      script: [
        touch('one'),
        { text: 'Made one.' },
        touch('two'),
        { text: 'Made two.' },
        touch('three'),
        { text: 'Not made.' },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'sleep 30' } }] },
        { text: 'Answered the queued prompt.' },
        { text: 'Hi from the other model.' },
      ],
    });
    tmux = TmuxSession.start(
      `wield-keys-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic'), '--allow', 'Bash(sleep *)'],
      cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' }),
      cwd,
    );
    await tmux.waitForPrompt();

    // One key, no Enter.
    tmux.type('make one');
    let screen = await tmux.waitFor('❯ 1. Yes');
    expect(screen).toContain('4. No (Esc)');
    tmux.keys('1');
    await tmux.waitFor('Made one.');
    expect(existsSync(path.join(cwd, 'one'))).toBe(true);

    // Down then Enter: the second answer, allowed for the session.
    tmux.type('make two');
    await tmux.waitFor('? Allow Bash(touch two)');
    await tmux.waitFor('❯ 1. Yes');
    tmux.keys('Down');
    await tmux.waitFor('❯ 2. Yes, and allow');
    tmux.keys('Enter');
    screen = await tmux.waitFor('Made two.');
    expect(screen).toMatch(/› 2\. Yes, and allow Bash\(touch two\) for the rest of this session/);
    expect(existsSync(path.join(cwd, 'two'))).toBe(true);

    // Esc at the question is a no (whatever was typed), told to the model as the person's refusal.
    tmux.type('make three');
    await tmux.waitFor('? Allow Bash(touch three)');
    await tmux.waitFor('❯ 1. Yes');
    tmux.keys('-l', 'half typed');
    await tmux.waitForEditor('half typed');
    tmux.keys('Escape');
    screen = await tmux.waitFor('Not made.');
    expect(screen).toContain('4. No (Esc)');
    expect(screen).toContain('⎿ error (denied)');
    expect(existsSync(path.join(cwd, 'three'))).toBe(false);
    const refusal = JSON.stringify(standin.requests.at(-1));
    expect(refusal).toContain('Permission denied for Bash');
    expect(refusal).not.toContain('permission prompt failed');

    // A prompt queued behind a running turn: Esc stops the turn and the prompt waits in the editor.
    tmux.type('sleep');
    await tmux.waitFor('● Bash(sleep 30)');
    tmux.type('the queued one');
    await tmux.waitFor('(queued: the queued one)');
    const sent = standin.requests.length;
    tmux.keys('Escape');
    await tmux.waitFor('(interrupted)');
    await tmux.waitFor('the queued prompt is back in the editor');
    await tmux.waitForEditor('the queued one');
    expect(standin.requests).toHaveLength(sent);
    tmux.keys('Enter');
    await tmux.waitFor('Answered the queued prompt.');
    expect(JSON.stringify(standin.requests.at(-1))).toContain('the queued one');

    // Shift-Tab cycles the permission mode, and the status line shows it.
    await tmux.waitFor('default mode (Shift-Tab)');
    tmux.keys('BTab');
    await tmux.waitFor('permission mode: acceptEdits — file edits in the workspace run without asking');
    await tmux.waitFor('acceptEdits mode (Shift-Tab)');
    tmux.keys('BTab');
    await tmux.waitFor('permission mode: plan');
    tmux.keys('BTab');
    await tmux.waitFor('permission mode: default');

    // /model switches the model the next prompts ask for.
    tmux.type('/model other-model');
    await tmux.waitFor('model: other-model from the next prompt on (was standin-model');
    await tmux.waitFor(/other-model · context/);
    tmux.type('hello');
    await tmux.waitFor('Hi from the other model.');
    expect((standin.requests.at(-1) as { model: string }).model).toBe('other-model');
    tmux.type('/exit');
    await tmux.waitFor(/\[exit 0\]/);
  });
});
