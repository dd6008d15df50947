// An MCP server that comes up after its connect timeout joins the interactive session (the real
// CLI in tmux, a stand-in model): the session says it is still connecting, then that it joined, and
// the next model request offers its tools. The server (faulty.mjs) waits at a gate file the test
// opens, so nothing depends on how fast the machine is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type Standin } from '../support/standin/index.js';
import { FAULTY_SERVER } from '../runtime/mcp/helpers.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

const SLOW_START = path.join(path.dirname(FAULTY_SERVER), 'slow-start.mjs');
const toolNames = (request: unknown) => ((request as { tools?: { name: string }[] }).tools ?? []).map((tool) => tool.name);

describe('a late MCP server in the interactive session', () => {
  let standin: Standin | undefined;
  let tmux: TmuxSession | undefined;
  afterAll(async () => {
    tmux?.kill();
    await standin?.close();
  });

  it('is named as still connecting, announced when it joins, and its tools are in the next request', async () => {
    const cwd = tempDir('wield-late-cwd-');
    const home = tempDir('wield-late-home-');
    const gate = path.join(tempDir('wield-late-gate-'), 'open');
    standin = await startStandin({ dialect: 'anthropic', script: [{ text: 'Reply one.' }, { text: 'Reply two.' }] });
    const mcp = JSON.stringify({
      mcpServers: { late: { command: process.execPath, args: [SLOW_START, gate, FAULTY_SERVER], connectTimeout: 300 } },
    });
    tmux = TmuxSession.start(
      `wield-late-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic'), '--mcp-config', mcp],
      cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' }),
      cwd,
    );
    await tmux.waitForPrompt();
    await tmux.waitFor('MCP server "late" is still connecting (no answer within 0.3 s yet); its tools join the session when it is up');

    tmux.type('first');
    await tmux.waitFor('Reply one.');
    expect(toolNames(standin.requests[0])).toContain('Read');
    expect(toolNames(standin.requests[0]).some((name) => name.startsWith('mcp__late__'))).toBe(false);

    writeFileSync(gate, '');
    await tmux.waitFor('MCP server "late" joined: 8 tools', 1, 30_000);
    tmux.type('second');
    await tmux.waitFor('Reply two.');
    expect(toolNames(standin.requests[1])).toEqual(expect.arrayContaining(['mcp__late__echo', 'mcp__late__pid']));
  }, 90_000);
});
