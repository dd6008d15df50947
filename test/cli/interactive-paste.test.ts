// The prompt editor in a real terminal: a pasted block of several lines is one prompt (not one
// per line, none lost), and prompts are recalled with Up in the next session.
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

  it('sends a pasted 3-line block as one prompt, and recalls prompts with Up next session', async () => {
    const cwd = tempDir('wield-paste-cwd-');
    const home = tempDir('wield-paste-home-');
    standin = await startStandin({
      dialect: 'anthropic',
      script: [{ text: 'Got all three.' }, { text: 'Second.' }, { text: 'Recalled.' }],
    });
    const env = cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' });
    const start = (name: string) => {
      const tmux = TmuxSession.start(`wield-paste-${name}-${process.pid}`, [process.execPath, cli, ...providerArgs('anthropic')], env, cwd);
      sessions.push(tmux);
      return tmux;
    };
    const first = start('one');
    await first.waitFor('›');
    first.paste('line one\nline two\nline three');
    await first.waitFor('[pasted 3 lines');
    first.keys('Enter');
    await first.waitFor('Got all three.');
    expect(standin.requests).toHaveLength(1);
    expect(lastPrompt(standin.requests[0])).toBe('line one\nline two\nline three');
    first.type('hello history');
    await first.waitFor('Second.');
    first.type('/exit');
    await first.waitFor(/\[exit 0\]/);

    const second = start('two');
    await second.waitFor('›');
    second.keys('Up');
    await second.waitFor('› /exit');
    second.keys('Up');
    await second.waitFor('› hello history');
    second.keys('Enter');
    await second.waitFor('Recalled.');
    expect(lastPrompt(standin.requests[2])).toBe('hello history');
    second.type('/exit');
    await second.waitFor(/\[exit 0\]/);
  });
});
