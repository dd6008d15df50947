// Slash commands and @mentions in a real terminal: an unknown command stays local, @path attaches
// a file through Read (with Tab completion), /compact summarises, /permissions lists and removes a
// saved rule (it stops applying at once), /resume switches to another session of the folder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

describe('interactive commands', () => {
  let standin: Standin | undefined;
  let tmux: TmuxSession | undefined;
  afterAll(async () => {
    tmux?.kill();
    await standin?.close();
  });

  it('keeps unknown commands local, attaches @files, compacts, edits saved and session rules, and resumes', async () => {
    const cwd = tempDir('wield-cmd-cwd-');
    const home = tempDir('wield-cmd-home-');
    writeFileSync(path.join(cwd, 'notes.txt'), 'NOTE-CONTENT on line one\n');
    mkdirSync(path.join(home, '.wield'));
    const saved = path.join(home, '.wield', 'projects.json');
    writeFileSync(saved, JSON.stringify({ projects: { [realpathSync(cwd)]: { allow: ['Bash(mkdir -p d1)'] } } }));
    standin = await startStandin({
      dialect: 'anthropic',
      script: [
        { text: 'Earlier answer.' },
        { text: 'Summarised the notes.' },
        { text: 'Looked.' },
        { text: 'Third answer.' },
        { text: 'SUMMARY-OF-EARLIER-TURNS' },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'mkdir -p d1' } }] },
        { text: 'Not made.' },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'mkdir -p d1' } }] },
        { text: 'Made it.' },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'mkdir -p d1' } }] },
        { text: 'Asked again.' },
      ],
    });
    const env = cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' });
    const earlier = await runCli(cli, [...providerArgs('anthropic'), '-p', 'first session'], { cwd, env });
    expect(earlier.code).toBe(0);
    const earlierId = /session ([0-9a-f-]{36})/.exec(earlier.stderr)?.[1];
    expect(earlierId).toBeDefined();

    tmux = TmuxSession.start(`wield-cmd-${process.pid}`, [process.execPath, cli, ...providerArgs('anthropic')], env, cwd);
    await tmux.waitForPrompt();
    tmux.type('/bogus');
    await tmux.waitFor('error: unknown command /bogus');
    expect(standin.requests).toHaveLength(1);

    tmux.type('summarize @notes.txt');
    let screen = await tmux.waitFor('Summarised the notes.');
    expect(screen).toContain('attached @notes.txt');
    expect(JSON.stringify(standin.requests[1])).toContain('NOTE-CONTENT on line one');

    // Tab completes the @path being typed.
    tmux.keys('-l', 'look at @not');
    tmux.keys('Tab');
    await tmux.waitFor('look at @notes.txt');
    tmux.keys('Enter');
    await tmux.waitFor('Looked.');
    tmux.type('third');
    await tmux.waitFor('Third answer.');

    tmux.type('/compact');
    await tmux.waitFor(/context: \d+ older messages summarised; the last turns are kept verbatim/);
    expect(JSON.stringify(standin.requests[4])).toContain('summar');

    tmux.type('/permissions');
    screen = await tmux.waitFor('Rules in force');
    expect(screen).toMatch(new RegExp(`1\\. allow Bash\\(mkdir -p d1\\)\\s+${saved.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    tmux.type('/permissions remove 1');
    await tmux.waitFor('removed allow Bash(mkdir -p d1)');
    expect(readFileSync(saved, 'utf8')).not.toContain('mkdir');
    // Gone from the running session too: the call asks now.
    tmux.type('make d1');
    await tmux.waitFor('? Allow Bash(mkdir -p d1)');
    tmux.type('n');
    await tmux.waitFor('Not made.');
    // The compacted history is what the model sees from then on.
    expect(JSON.stringify(standin.requests[5])).toContain('SUMMARY-OF-EARLIER-TURNS');

    // An `a` answer is a rule of this session: listed, and removable like a saved one.
    tmux.type('make d1 now');
    await tmux.waitFor('? Allow Bash(mkdir -p d1)', 2);
    tmux.type('a');
    await tmux.waitFor('Made it.');
    tmux.type('/permissions');
    screen = await tmux.waitFor(/1\. allow Bash\(mkdir -p d1\)\s+this session/);
    tmux.type('/permissions remove 1');
    await tmux.waitFor('removed allow Bash(mkdir -p d1) (this session)');
    tmux.type('make d1 once more');
    await tmux.waitFor('? Allow Bash(mkdir -p d1)', 3);
    tmux.type('n');
    await tmux.waitFor('Asked again.');

    tmux.type('/resume');
    await tmux.waitFor('Resume which (number or id; Enter to stay)?');
    tmux.type('1');
    screen = await tmux.waitFor(`session ${earlierId}`);
    expect(screen).toContain('first session');
    tmux.type('/exit');
    screen = await tmux.waitFor(/\[exit 0\]/);
    expect(screen).toContain(`continue it: wield --resume ${earlierId}`);
  });
});
