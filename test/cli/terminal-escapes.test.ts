// Escape sequences in what the model, a command or a server writes do not reach the person's
// terminal, in a real one (tmux): a title change (OSC 2, which tmux applies to the pane) from an
// answer, a command's output or a failed MCP server's stderr leaves the title alone, in the
// interactive session and in `wield -p` on a terminal (stdout and stderr); piped, `-p` passes the
// answer through as written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptStep, startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

const HOSTILE = 'Here it is.\x1b]2;pwned-title\x07 \x1b]52;c;ZXZpbA==\x07Done.';

describe('escape sequences from outside wield', () => {
  const standins: Standin[] = [];
  const sessions: TmuxSession[] = [];
  afterAll(async () => {
    for (const tmux of sessions) tmux.kill();
    for (const standin of standins) await standin.close();
  });

  const start = async (name: string, args: string[], script: ScriptStep[] = [{ text: HOSTILE }]) => {
    const standin = await startStandin({ dialect: 'anthropic', script });
    standins.push(standin);
    const env = cleanEnv(tempDir('wield-esc-home-'), { ...providerEnv('anthropic', standin.url), TERM: 'xterm' });
    const tmux = TmuxSession.start(
      `wield-esc-${name}-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic'), ...args],
      env,
      tempDir('wield-esc-cwd-'),
    );
    sessions.push(tmux);
    return { tmux, standin, env };
  };

  it("leave the pane title alone in the interactive session, from an answer or a command's output", async () => {
    // The command's output reaches the screen as its progress line and its result line.
    const command = "printf '\\033]2;pwned-by-output\\007 step\\n'; sleep 1; printf 'end\\033]2;pwned-by-output\\007\\n'";
    const { tmux } = await start(
      'tty',
      ['--allow', 'Bash(printf *)', '--allow', 'Bash(sleep *)'],
      [{ text: HOSTILE }, { toolCalls: [{ name: 'Bash', arguments: { command } }] }, { text: 'Ran it.' }],
    );
    await tmux.waitForPrompt();
    const title = tmux.title();
    tmux.type('answer');
    await tmux.waitFor('Done.');
    tmux.type('run it');
    await tmux.waitFor('Ran it.');
    expect(tmux.title()).toBe(title);
    expect(tmux.title()).not.toContain('pwned');
    tmux.type('/exit');
    await tmux.waitFor(/\[exit 0\]/);
  });

  it('leave it alone in wield -p on a terminal, and pass through when piped', async () => {
    const { tmux } = await start('p', ['-p', 'answer']);
    await tmux.waitFor(/\[exit 0\]/);
    expect(tmux.screen()).toContain('Here it is.␛]2;pwned-title␇ ␛]52;c;ZXZpbA==␇Done.');
    expect(tmux.title()).not.toContain('pwned');
    const standin = await startStandin({ dialect: 'anthropic', script: [{ text: HOSTILE }] });
    standins.push(standin);
    const piped = await runCli(cli, [...providerArgs('anthropic'), '-p', 'answer'], {
      cwd: tempDir('wield-esc-cwd-'),
      env: cleanEnv(tempDir('wield-esc-home-'), providerEnv('anthropic', standin.url)),
    });
    expect(piped.stdout).toBe(`${HOSTILE}\n`);
  });

  it("leave it alone in what wield says on stderr, such as a failed MCP server's own words", async () => {
    const failing = JSON.stringify({
      mcpServers: { bad: { command: 'sh', args: ['-c', "printf 'boom\\033]2;pwned-by-stderr\\007\\n' >&2; exit 1"] } },
    });
    const { tmux } = await start('stderr', ['-p', 'answer', '--mcp-config', failing]);
    await tmux.waitFor(/\[exit 0\]/);
    expect(tmux.screen()).toContain('MCP server "bad" is not available');
    expect(tmux.screen()).toContain('boom␛]2;pwned-by-stderr␇');
    expect(tmux.title()).not.toContain('pwned');
  });
});
