// The prompt editor in a real terminal: a pasted block of several lines is one prompt (not one
// per line, none lost), new lines are typed with Alt-Enter or `\` Enter, a large paste is a marker
// sent whole, Ctrl-C empties a draft, and prompts are recalled with Up in the next session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

function lastPrompt(request: unknown): string {
  const messages = (request as { messages: { content: { type: string; text?: string }[] }[] }).messages;
  return messages
    .at(-1)!
    .content.map((part) => part.text ?? '')
    .join('');
}

describe('the prompt editor', () => {
  let standin: Standin | undefined;
  const sessions: TmuxSession[] = [];
  afterAll(async () => {
    for (const tmux of sessions) tmux.kill();
    await standin?.close();
  });

  it('takes multi-line prompts (paste, Alt-Enter, \\ Enter, a large paste), clears with Ctrl-C, and recalls prompts with Up next session', async () => {
    const cwd = tempDir('wield-paste-cwd-');
    const home = tempDir('wield-paste-home-');
    standin = await startStandin({
      dialect: 'anthropic',
      script: ['Got all three.', 'Two lines.', 'Joined.', 'Big paste.', 'Second.', 'Recalled.'].map((text) => ({ text })),
    });
    const env = cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' });
    const start = (name: string) => {
      const tmux = TmuxSession.start(`wield-paste-${name}-${process.pid}`, [process.execPath, cli, ...providerArgs('anthropic')], env, cwd);
      sessions.push(tmux);
      return tmux;
    };
    const first = start('one');
    await first.waitForPrompt();
    // A bracketed paste stays in the editor, whole, until Enter.
    first.paste('line one\nline two\nline three');
    await first.waitForEditor('line one\nline two\nline three');
    expect(standin.requests).toHaveLength(0);
    first.keys('Enter');
    await first.waitFor('Got all three.');
    expect(standin.requests).toHaveLength(1);
    expect(lastPrompt(standin.requests[0])).toBe('line one\nline two\nline three');

    // Alt-Enter and a trailing backslash start a new line instead of sending.
    const newLines = [
      { first: 'first', keys: 'M-Enter', second: 'second', reply: 'Two lines.' },
      { first: 'alpha\\', keys: 'Enter', second: 'beta', reply: 'Joined.' },
    ];
    for (const [index, step] of newLines.entries()) {
      first.keys('-l', step.first);
      first.keys(step.keys);
      first.keys('-l', step.second);
      const expected = `${step.first.replace(/\\$/, '')}\n${step.second}`;
      await first.waitForEditor(expected);
      first.keys('Enter');
      await first.waitFor(step.reply);
      expect(lastPrompt(standin.requests[index + 1])).toBe(expected);
    }
    // A large paste shows as a marker and is sent whole.
    const big = Array.from({ length: 12 }, (_, index) => `row ${index + 1}`).join('\n');
    first.paste(big);
    await first.waitForEditor('[paste #1 +12 lines]');
    first.keys('Enter');
    await first.waitFor('Big paste.');
    expect(lastPrompt(standin.requests[3])).toBe(big);

    // Ctrl-C with a draft empties the editor and does not count towards exiting.
    first.keys('-l', 'a draft');
    await first.waitForEditor('a draft');
    first.keys('C-c');
    await first.waitForEditor('');
    expect(first.screen()).not.toContain('press Ctrl-C again');

    first.type('hello history');
    await first.waitFor('Second.');
    first.type('/exit');
    await first.waitFor(/\[exit 0\]/);

    const second = start('two');
    await second.waitForPrompt();
    second.keys('Up');
    await second.waitForEditor('/exit');
    second.keys('Up');
    await second.waitForEditor('hello history');
    // A prompt of several lines is kept whole too.
    second.keys('Up');
    await second.waitForEditor(big);
    second.keys('Down');
    await second.waitForEditor('hello history');
    second.keys('Enter');
    await second.waitFor('Recalled.');
    expect(lastPrompt(standin.requests[5])).toBe('hello history');
    second.type('/exit');
    await second.waitFor(/\[exit 0\]/);
  });
});
