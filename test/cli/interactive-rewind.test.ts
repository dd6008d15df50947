// /rewind in a real terminal: two prompts whose scripted replies write files, then /rewind to
// before the first: the picker, the preview (files with line counts, a file edited by hand since,
// the command that cannot be undone), Esc cancelling with nothing changed, and the restore of the
// files and the conversation (recorded in the log, so a resume continues from there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';
import { messagesOf, parseSession } from '../../src/runtime/agent/session-store.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

describe('/rewind', () => {
  let standin: Standin | undefined;
  let tmux: TmuxSession | undefined;
  afterAll(async () => {
    tmux?.kill();
    await standin?.close();
  });

  it('previews, cancels with Esc, and restores the files and the conversation as before an earlier prompt', async () => {
    const cwd = tempDir('wield-rewind-cwd-');
    const home = tempDir('wield-rewind-home-');
    const a = path.join(cwd, 'a.txt');
    const b = path.join(cwd, 'b.txt');
    writeFileSync(a, 'original\n');
    standin = await startStandin({
      dialect: 'anthropic',
      script: [
        { toolCalls: [{ name: 'Read', arguments: { file_path: a } }] },
        {
          toolCalls: [
            { name: 'Write', arguments: { file_path: a, content: 'first change\nmore\n' } },
            { name: 'Write', arguments: { file_path: b, content: 'new file\n' } },
          ],
        },
        { text: 'Wrote both.' },
        {
          toolCalls: [
            { name: 'Edit', arguments: { file_path: b, old_string: 'new file', new_string: 'edited file' } },
            { name: 'Bash', arguments: { command: 'touch made-by-a-command.txt' } },
          ],
        },
        { text: 'Edited it.' },
        { text: 'Fresh start.' },
      ],
    });
    const env = cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' });
    tmux = TmuxSession.start(
      `wield-rewind-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic'), '--allow', 'Write', '--allow', 'Edit', '--allow', 'Bash(touch *)'],
      env,
      cwd,
    );
    await tmux.waitForPrompt();
    tmux.type('write the files');
    await tmux.waitFor('Wrote both.');
    tmux.type('edit the new one');
    await tmux.waitFor('Edited it.');
    expect(readFileSync(b, 'utf8')).toBe('edited file\n');
    // Edited by hand after wield's last write: the preview says so and the person confirms it.
    writeFileSync(a, 'first change\nmore\nby hand\n');

    // Esc at the picker: nothing changes.
    tmux.type('/rewind');
    let screen = await tmux.waitFor('Rewind to before which prompt?');
    expect(screen).toMatch(/1\. before “edit the new one”\n\s+2\. before “write the files”/);
    tmux.keys('Escape');
    await tmux.waitFor('rewind cancelled; nothing changed');

    // Esc at the preview: nothing changes either.
    tmux.type('/rewind');
    await tmux.waitFor('Rewind to before which prompt?', 2);
    tmux.keys('2');
    screen = await tmux.waitFor('Rewind what?');
    expect(screen).toContain('Rewind to before “write the files”:');
    expect(screen).toMatch(/restore a\.txt \(\+1 -3\) — changed since wield last wrote it/);
    expect(screen).toContain('delete  b.txt (+0 -1)');
    expect(screen).toContain('Cannot restore:');
    expect(screen).toContain('Bash(touch made-by-a-command.txt)');
    tmux.keys('Escape');
    await tmux.waitFor('rewind cancelled; nothing changed', 2);
    expect(readFileSync(a, 'utf8')).toBe('first change\nmore\nby hand\n');
    expect(readFileSync(b, 'utf8')).toBe('edited file\n');

    // Confirmed: the files and the conversation go back, the hand-edited file after an explicit yes.
    tmux.type('/rewind');
    await tmux.waitFor('Rewind to before which prompt?', 3);
    tmux.keys('2');
    await tmux.waitFor('Rewind what?', 2);
    tmux.keys('1');
    await tmux.waitFor('a.txt changed since wield last wrote it: overwrite?');
    tmux.keys('1');
    await tmux.waitFor(
      'rewound: restored 1 file, deleted 1; the conversation continues from before that prompt (its text is back in the editor)',
    );
    expect(readFileSync(a, 'utf8')).toBe('original\n');
    expect(existsSync(b)).toBe(false);
    // What the command made stays (said in the preview).
    expect(existsSync(path.join(cwd, 'made-by-a-command.txt'))).toBe(true);

    // The prompt rewound away is back in the editor, to edit and send again; Ctrl-C empties it.
    await tmux.waitForEditor('write the files');
    tmux.keys('C-c');
    await tmux.waitForEditor('');
    tmux.type('start again');
    await tmux.waitFor('Fresh start.');
    const sent = JSON.stringify(standin.requests.at(-1));
    expect(sent).toContain('start again');
    expect(sent).not.toContain('write the files');

    // The rewind's own writes are recorded: rewinding there again finds nothing to restore, and no outside edit.
    tmux.type('/rewind');
    await tmux.waitFor('Rewind to before which prompt?', 4);
    tmux.keys('3');
    screen = await tmux.waitFor('Rewind what?', 3);
    expect(screen.slice(screen.lastIndexOf('Rewind to before “write the files”:'))).toMatch(
      /:\n\s+no file to restore: none wield changed since then differs from how it was\nCannot restore:/,
    );
    tmux.keys('Escape');
    await tmux.waitFor('rewind cancelled; nothing changed', 3);
    tmux.type('/exit');
    screen = await tmux.waitFor(/\[exit 0\]/);
    const id = /session ([\w-]+) · continue it/.exec(screen)?.[1];
    const log = readFileSync(path.join(home, '.wield', 'sessions', `${id}.jsonl`), 'utf8');
    expect(log).toContain('"reason":"rewound"');
    // A resume continues from the rewound conversation.
    const resumed = JSON.stringify(messagesOf(parseSession(log).records));
    expect(resumed).toContain('start again');
    expect(resumed).not.toContain('write the files');
  });
});
