// What the interactive session shows, in a real terminal: diffs with the file's own line numbers
// in the prompt and after an unprompted edit, durations without the approval wait, "no output"
// for a silent command, a spinner with elapsed time and the command's output, rendered markdown,
// the status line and /cost, and Esc to interrupt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

describe('interactive output', () => {
  let standin: Standin | undefined;
  let tmux: TmuxSession | undefined;
  afterAll(async () => {
    tmux?.kill();
    await standin?.close();
  });

  it('shows true diffs, honest durations, a spinner, markdown and what the session costs', async () => {
    const cwd = tempDir('wield-out-cwd-');
    const home = tempDir('wield-out-home-');
    const file = path.join(cwd, 'a.txt');
    writeFileSync(file, 'one\ntwo\nthree\nfour\n');
    const edit = (from: string, to: string) => ({
      toolCalls: [{ name: 'Edit', arguments: { file_path: file, old_string: from, new_string: to } }],
    });
    standin = await startStandin({
      dialect: 'anthropic',
      script: [
        // Edit needs the file read first in the session.
        { toolCalls: [{ name: 'Read', arguments: { file_path: file } }] },
        edit('two', 'TWO'),
        { text: '## Summary\n\nChanged **line 2** in `a.txt`.\n\n- one `item` here\n' },
        edit('four', 'FOUR'),
        { text: 'Done again.' },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'touch t1' } }] },
        { text: 'Touched.' },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'sleep 3' } }] },
        { text: 'Slept.', delayMs: 2500 },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'echo step-one; sleep 3' } }] },
        { text: 'Stepped.' },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'sleep 30' } }] },
      ],
    });
    tmux = TmuxSession.start(
      `wield-out-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic'), '--allow', 'Bash(sleep *)'],
      cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm-256color' }),
      cwd,
    );
    await tmux.waitForPrompt();

    tmux.type('change line 2');
    let screen = await tmux.waitFor('? Allow Edit(');
    // The change is on line 2: the hunk starts at line 1 with its context, not "-1,1 +1,1".
    expect(screen).toContain('@@ -1,4 +1,4 @@');
    expect(screen).toContain('  2 -two');
    expect(screen).toContain('  2 +TWO');
    await sleep(1500); // the person takes their time
    tmux.type('a');
    screen = await tmux.waitFor('Changed line 2 in a.txt.');
    expect(readFileSync(file, 'utf8')).toBe('one\nTWO\nthree\nfour\n');
    const editLine = screen.split('\n').find((l) => l.includes('⎿ Edited a.txt')) ?? '';
    expect(editLine).not.toBe('');
    expect(editLine).not.toMatch(/· \d+\.\ds/);
    // Markdown rendered: no heading marks, asterisks or backticks.
    expect(screen).toContain('Summary');
    expect(screen).not.toContain('## Summary');
    expect(screen).not.toContain('**line 2**');
    // …in list items too.
    expect(screen).toContain('one item here');
    // The status line under the answer.
    screen = await tmux.waitFor(/standin-model · context \d+% of/);

    // Allowed for the session now: no prompt, so the diff is shown after the edit.
    tmux.type('change line 4');
    screen = await tmux.waitFor('Done again.');
    expect(screen.split('? Allow Edit(').length - 1).toBe(1);
    expect(screen).toContain('@@ -1,4 +1,4 @@');
    expect(screen).toContain('+FOUR');

    tmux.type('touch it');
    await tmux.waitFor('? Allow Bash(touch t1)');
    tmux.type('y');
    screen = await tmux.waitFor('Touched.');
    expect(screen).toMatch(/● Bash\(touch t1\)\n\s+⎿ no output/);

    tmux.type('sleep a bit');
    await tmux.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Bash\(sleep 3\) · [12]s/);
    // A model slow to answer: the spinner says so, with the seconds waited.
    await tmux.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] thinking · [12]s/);
    screen = await tmux.waitFor('Slept.');
    expect(screen).toMatch(/● Bash\(sleep 3\)\n\s+⎿ no output · 3\.\ds/);

    tmux.type('/cost');
    screen = await tmux.waitFor('model requests ·');
    if (process.env.SHOW_SCREEN) console.log(screen);
    expect(screen).toMatch(/9 model requests · [\d,]+ input tokens/);
    // The spinner shows the running command's latest output line.
    tmux.type('step');
    await tmux.waitFor(/Bash\(echo step-one; sleep 3\) · [12]s · step-one/);
    await tmux.waitFor('Stepped.');

    // Esc interrupts the running turn, as Ctrl-C does.
    tmux.type('sleep long');
    await tmux.waitFor('● Bash(sleep 30)');
    tmux.keys('Escape');
    await tmux.waitFor('Esc — interrupting this turn');
    await tmux.waitFor('(interrupted)');
    tmux.type('/exit');
    await tmux.waitFor(/\[exit 0\]/);
  });
});
