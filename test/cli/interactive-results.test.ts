// Tool results in a real terminal: one line per call with workspace-relative paths, a file read
// summarised by its line count, a command's first output lines then `… +N lines`, Ctrl-O to show
// the last one whole, AskUserQuestion by its question rather than its JSON, an MCP server that did
// not start named on screen, and Tab completion of a path with a space, quoted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

describe('interactive tool results', () => {
  let standin: Standin | undefined;
  let tmux: TmuxSession | undefined;
  afterAll(async () => {
    tmux?.kill();
    await standin?.close();
  });

  it("shows a command's first lines, expands them with Ctrl-O, and names files relative to the workspace", async () => {
    const cwd = tempDir('wield-res-cwd-');
    const home = tempDir('wield-res-home-');
    mkdirSync(path.join(cwd, 'src'));
    const app = path.join(cwd, 'src', 'app.py');
    writeFileSync(app, Array.from({ length: 12 }, (_, i) => `print(${i})`).join('\n'));
    standin = await startStandin({
      dialect: 'anthropic',
      script: [
        { toolCalls: [{ name: 'Read', arguments: { file_path: app } }] },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'seq 101 112' } }] },
        { text: 'Counted.' },
        {
          toolCalls: [
            { name: 'AskUserQuestion', arguments: { questions: [{ question: 'Which database?', options: ['Postgres', 'SQLite'] }] } },
          ],
        },
        { text: 'Noted.' },
        { text: 'Read your notes.' },
      ],
    });
    writeFileSync(path.join(cwd, 'my notes.txt'), 'NOTES-WITH-A-SPACE\n');
    // A server that cannot start is said on screen, not only missing from the tools.
    mkdirSync(path.join(home, '.wield'));
    writeFileSync(
      path.join(home, '.wield', 'settings.json'),
      JSON.stringify({ mcpServers: { broken: { command: 'wield-no-such-program' } } }),
    );
    tmux = TmuxSession.start(
      `wield-res-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic'), '--allow', 'Bash(seq *)'],
      cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' }),
      cwd,
    );
    await tmux.waitForPrompt();
    await tmux.waitFor(/note: MCP server "broken" did not start, so its tools are missing: .*/);

    tmux.type('read and count');
    let screen = await tmux.waitFor('Counted.');
    expect(screen).toMatch(/● Read\(src\/app\.py\)\n\s+⎿ Read 12 lines( · [\d.]+s)?\n/);
    expect(screen).toMatch(/● Bash\(seq 101 112\)\n\s+⎿ 101\n\s+102\n\s+103\n\s+… \+9 lines \(Ctrl-O to expand\)( · [\d.]+s)?\n/);
    expect(screen).not.toMatch(/^\s+112$/m);
    // No call or result line repeats the workspace's absolute path.
    const toolLines = screen.split('\n').filter((line) => /[●⎿]/.test(line));
    expect(toolLines.join('\n')).not.toContain(cwd);

    tmux.keys('C-o');
    screen = await tmux.waitFor('── end ──');
    expect(screen).toContain('Bash(seq 101 112) · all 12 lines');
    expect(screen).toMatch(/^ {2}112$/m);

    tmux.type('ask me');
    screen = await tmux.waitFor('? Which database?');
    expect(screen).toContain('● AskUserQuestion(Which database?)');
    expect(screen).not.toContain('{"questions"');
    tmux.type('1');
    screen = await tmux.waitFor('Noted.');
    expect(screen).toContain('⎿ "Which database?"="Postgres"');

    // Tab completes a path with a space quoted, and the quoted mention attaches it.
    tmux.keys('-l', 'summarise @my');
    tmux.keys('Tab');
    await tmux.waitForEditor('summarise @"my notes.txt"');
    tmux.keys('Enter');
    await tmux.waitFor('Read your notes.');
    expect(tmux.screen()).toContain('attached @my notes.txt');
    expect(JSON.stringify(standin.requests.at(-1))).toContain('NOTES-WITH-A-SPACE');
    tmux.type('/exit');
    await tmux.waitFor(/\[exit 0\]/);
  });
});
