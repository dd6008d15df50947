import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

describe('interactive wield in a terminal', () => {
  let standin: Standin | undefined;
  let tmux: TmuxSession | undefined;
  afterAll(async () => {
    tmux?.kill();
    await standin?.close();
  });

  it('asks before a write (y, n with a message, a, A) and asks AskUserQuestion questions', async () => {
    const cwd = tempDir('wield-tty-cwd-');
    const home = tempDir('wield-tty-home-');
    const write = (name: string, content: string) => ({
      toolCalls: [{ name: 'Write', arguments: { file_path: path.join(cwd, name), content } }],
    });
    standin = await startStandin({
      dialect: 'anthropic',
      script: [
        { ...write('yes.txt', 'one'), delayMs: 1500 },
        { text: 'Wrote yes.txt.' },
        write('no.txt', 'two'),
        { text: 'Understood, not written.' },
        write('always.txt', 'three'),
        { text: 'Wrote always.txt.' },
        write('always.txt', 'four'),
        { text: 'Updated always.txt without asking.' },
        write('saved.txt', 'five'),
        { text: 'Saved the rule.' },
        {
          toolCalls: [
            {
              name: 'AskUserQuestion',
              arguments: {
                questions: [
                  { question: 'Which checks should run?', options: ['lint', 'unit tests', 'e2e'], multiSelect: true },
                  { question: 'Which branch?', options: ['main', 'develop'] },
                ],
              },
            },
          ],
        },
        { text: 'Running the chosen checks.' },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'sleep 30' } }] },
      ],
    });
    tmux = TmuxSession.start(
      `wield-test-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic')],
      cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' }),
      cwd,
    );
    await tmux.waitForPrompt();

    tmux.type('write yes.txt');
    // Typed while the model thinks: the question gets an empty editor, the draft comes back after.
    tmux.keys('-l', 'my draft');
    await tmux.waitForEditor('my draft');
    let screen = await tmux.waitFor('? Allow Write(');
    expect(screen).toContain('+one');
    expect(screen).toContain('Reason:');
    expect(screen).toMatch(/Allow Write\(yes\.txt\)\? \(a number, ↑↓ Enter, or type y \/ n \/ a \/ A\) ›/);
    expect(tmux.editorText()).toBe('');
    tmux.type('y');
    await tmux.waitFor('Wrote yes.txt.');
    expect(readFileSync(path.join(cwd, 'yes.txt'), 'utf8')).toBe('one');
    await tmux.waitForEditor('my draft');
    expect(standin.requests).toHaveLength(2);
    tmux.keys('C-c');
    await tmux.waitForEditor('');

    tmux.type('write no.txt');
    await tmux.waitFor('? Allow Write(', 2);
    tmux.type('n not that file');
    await tmux.waitFor('Understood, not written.');
    expect(existsSync(path.join(cwd, 'no.txt'))).toBe(false);
    expect(JSON.stringify(standin.requests[3])).toContain('not that file');

    tmux.type('write always.txt');
    await tmux.waitFor('? Allow Write(', 3);
    tmux.type('a');
    await tmux.waitFor('Wrote always.txt.');
    tmux.type('update always.txt');
    screen = await tmux.waitFor('Updated always.txt without asking.');
    expect(screen.split('? Allow Write(').length - 1).toBe(3);
    expect(readFileSync(path.join(cwd, 'always.txt'), 'utf8')).toBe('four');
    // One summary line per call, the path relative to the workspace.
    expect(screen).toMatch(/● Write\(always\.txt\)\n\s+⎿ Updated always\.txt \(1 lines?/);

    // A = always, saved where the next run applies it: this untrusted folder's record in the user's projects.json.
    tmux.type('write saved.txt');
    await tmux.waitFor('? Allow Write(', 4);
    tmux.type('A');
    await tmux.waitFor('Saved the rule.');
    expect(readFileSync(path.join(home, '.wield', 'projects.json'), 'utf8')).toContain('saved.txt');

    // AskUserQuestion: numbered options, several numbers for multiSelect, free text for the other.
    tmux.type('run the checks');
    screen = await tmux.waitFor('? Which checks should run?');
    expect(screen).toContain('3. e2e');
    tmux.type('1,2');
    await tmux.waitFor('? Which branch?');
    tmux.type('7');
    await tmux.waitFor('choose numbers from 1 to 2');
    tmux.type('release/2.0');
    await tmux.waitFor('Running the chosen checks.');
    const answered = JSON.stringify(standin.requests.at(-1));
    expect(answered).toContain('\\"Which checks should run?\\"=\\"lint, unit tests\\"');
    expect(answered).toContain('\\"Which branch?\\"=\\"release/2.0\\"');

    // Ctrl-C during a running tool interrupts the turn; the session stays open.
    tmux.type('sleep');
    await tmux.waitFor('● Bash(sleep 30)');
    tmux.keys('C-c');
    await tmux.waitFor('(interrupted)');
    await tmux.waitFor(/● Bash\(sleep 30\)\n(.*\n)*?\s+⎿ error \(interrupted\)/);

    // Ctrl-C at the prompt warns; a second one exits.
    tmux.keys('C-c');
    await tmux.waitFor('press Ctrl-C again to exit');
    tmux.keys('C-c');
    await tmux.waitFor(/\[exit \d+\]/);
  });

  it('asks concurrent questions one at a time, each with its own prompt above the editor', async () => {
    const cwd = tempDir('wield-tty2-cwd-');
    // Writes to two files may run together (one key per file), and each asks.
    const write = (name: string) => ({ name: 'Write', arguments: { file_path: path.join(cwd, name), content: `${name} content\n` } });
    const second = await startStandin({
      dialect: 'anthropic',
      script: [{ toolCalls: [write('a.txt'), write('b.txt')] }, { text: 'Wrote one of them.' }],
    });
    const concurrent = TmuxSession.start(
      `wield-test2-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic')],
      cleanEnv(tempDir('wield-tty2-home-'), { ...providerEnv('anthropic', second.url), TERM: 'xterm' }),
      cwd,
    );
    try {
      await concurrent.waitForPrompt();
      concurrent.type('write both');
      // Only the first one's prompt is up while it waits.
      let screen = await concurrent.waitFor(/Allow Write\(.*a\.txt\)\? \(a number/);
      expect(screen).not.toMatch(/\? Allow Write\(.*b\.txt\)/);
      expect(screen).toContain('+a.txt content');
      concurrent.type('y');
      screen = await concurrent.waitFor(/Allow Write\(.*b\.txt\)\? \(a number/);
      expect(screen).toMatch(/\? Allow Write\(.*b\.txt\)/);
      concurrent.type('n');
      await concurrent.waitFor('Wrote one of them.');
      expect(existsSync(path.join(cwd, 'a.txt'))).toBe(true);
      expect(existsSync(path.join(cwd, 'b.txt'))).toBe(false);
    } finally {
      concurrent.kill();
      await second.close();
    }
  });
});
