// The interactive session in a real terminal (tmux): a prompt given on the command line, slash
// commands answered locally, type-ahead during a turn, the id on exit, and resuming through the
// picker with a recap of the history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

describe('interactive sessions in a terminal', () => {
  let standin: Standin | undefined;
  const sessions: TmuxSession[] = [];
  afterAll(async () => {
    for (const tmux of sessions) tmux.kill();
    await standin?.close();
  });

  it('starts with the prompt given, answers slash commands locally, queues type-ahead, and resumes with a recap', async () => {
    const cwd = tempDir('wield-tty-sessions-cwd-');
    const home = tempDir('wield-tty-sessions-home-');
    standin = await startStandin({
      dialect: 'anthropic',
      script: [
        { text: 'Fixed the bug in parse().', delayMs: 1500 },
        { text: 'Queued prompt answered.' },
        { text: 'Resumed and remembered.' },
      ],
    });
    const env = cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' });
    const start = (name: string, args: string[]) => {
      const tmux = TmuxSession.start(
        `wield-sessions-${name}-${process.pid}`,
        [process.execPath, cli, ...providerArgs('anthropic'), ...args],
        env,
        cwd,
      );
      sessions.push(tmux);
      return tmux;
    };

    const first = start('first', ['fix the bug']);
    await first.waitFor('› fix the bug');
    // Typed while the first turn runs: queued, sent when it ends.
    first.type('and add a test');
    await first.waitFor('(queued: and add a test)');
    await first.waitFor('Queued prompt answered.');
    expect(JSON.stringify(standin.requests[0])).toContain('fix the bug');
    expect(JSON.stringify(standin.requests[1])).toContain('and add a test');

    first.type('/help');
    await first.waitFor('/clear');
    first.type('/hepl');
    await first.waitFor('unknown command /hepl (did you mean /help?)');
    first.type('/cost');
    await first.waitFor(/2 model requests · [\d,]+ input tokens/);
    expect(standin.requests).toHaveLength(2);
    first.type('/exit');
    const exited = await first.waitFor(/\[exit 0\]/);
    const id = /session ([\w-]+) · continue it: wield --resume \1/.exec(exited)?.[1];
    expect(id).toBeDefined();

    const second = start('second', ['--resume']);
    const picker = await second.waitFor('Resume which');
    expect(picker).toMatch(new RegExp(` 1\\. .*${id}  fix the bug`));
    second.type('7');
    await second.waitFor('no session "7" in the list');
    second.type('1');
    const recap = await second.waitFor(`session ${id}`);
    expect(recap).toContain('› fix the bug');
    expect(recap).toContain('Fixed the bug in parse().');
    expect(recap).toContain('› and add a test');
    second.type('what did we do?');
    await second.waitFor('Resumed and remembered.');
    expect(JSON.stringify(standin.requests[2])).toContain('Fixed the bug in parse().');
    second.keys('C-d');
    await second.waitFor(/\[exit 0\]/);
  });
});
