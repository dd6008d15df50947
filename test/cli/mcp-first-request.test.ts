// MCP servers and the first model request. `wield -p` waits for the servers' first connection
// attempts, so the request offers their tools; a server that never answers costs at most its
// connect timeout. The interactive session keeps connecting in the background and offers what
// is ready when each prompt is sent. Real server processes, a stand-in model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openAgentSession } from '../../src/cli/agent-session.js';
import { startStandin, type ScriptStep } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

const FAULTY = path.join(process.cwd(), 'test', 'support', 'mcp-servers', 'faulty.mjs');

/** The faulty server, started only after `delayMs`: slower than the CLI's own start-up. */
function slowServer(delayMs: number, args: string[] = []) {
  return {
    command: process.execPath,
    // `node -e` puts its first extra argument where a script path would be; faulty.mjs reads from the next.
    args: ['-e', `setTimeout(() => import(process.env.FAULTY_URL), ${delayMs})`, 'faulty', ...args],
    env: { FAULTY_URL: pathToFileURL(FAULTY).href },
  };
}

/** A process that speaks no MCP at all: it never answers initialize. */
const deadServer = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], connectTimeout: 1000 };

async function oneShot(servers: Record<string, unknown>, script: ScriptStep[], extraArgs: string[] = []) {
  const cwd = tempDir('wield-cli-mcp-cwd-');
  const home = tempDir('wield-cli-mcp-home-');
  const standin = await startStandin({ dialect: 'anthropic', script });
  try {
    const started = Date.now();
    const run = await runCli(
      cli,
      [
        ...providerArgs('anthropic'),
        '-p',
        'use the servers',
        '--output-format',
        'json',
        '--mcp-config',
        JSON.stringify({ mcpServers: servers }),
        ...extraArgs,
      ],
      { cwd, env: cleanEnv(home, providerEnv('anthropic', standin.url)), timeoutMs: 30_000 },
    );
    return { run, ms: Date.now() - started, requests: standin.requests as { system?: string; tools?: { name: string }[] }[] };
  } finally {
    await standin.close();
  }
}

const toolNames = (request: { tools?: { name: string }[] }) => (request.tools ?? []).map((tool) => tool.name);

describe('wield -p with MCP servers', () => {
  it("offers a server's tools in the first request, even when the server starts slowly", async () => {
    const { run, requests } = await oneShot({ slow: slowServer(1500) }, [{ text: 'Seen them.' }]);
    expect(run.code).toBe(0);
    expect(toolNames(requests[0])).toEqual(expect.arrayContaining(['Read', 'mcp__slow__echo', 'mcp__slow__pid']));
  }, 40_000);

  it('lets ToolSearch find deferred server tools on the first turn', async () => {
    const { run, requests } = await oneShot({ slow: slowServer(1500, ['--tools', '40']) }, [
      { toolCalls: [{ name: 'ToolSearch', arguments: { query: 'select:mcp__slow__gen_0001' } }] },
      { text: 'Found it.' },
    ]);
    expect(run.code).toBe(0);
    // Too many tools to send: they are deferred, and the system prompt says which server has them.
    expect(toolNames(requests[0])).not.toContain('mcp__slow__echo');
    // The system prompt is one text block carrying a cache breakpoint.
    expect(JSON.stringify(requests[0].system)).toContain('# Deferred tools');
    expect(JSON.stringify(requests[0].system)).toContain('slow');
    const second = JSON.stringify(requests[1]);
    expect(second).not.toContain('No tool named');
    expect(toolNames(requests[1])).toContain('mcp__slow__gen_0001');
  }, 40_000);

  it('goes on without a server that never answers, after its connect timeout, and says so', async () => {
    const { run, ms, requests } = await oneShot({ dead: deadServer, slow: slowServer(200) }, [{ text: 'Done without it.' }]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ answer: 'Done without it.', isError: false });
    expect(run.stderr).toMatch(/MCP server "dead" is not available \(no answer within 1 s/);
    // It would join the run if it came up; the run ends without waiting for it.
    expect(run.stderr).toContain('it is still connecting, and its tools join this run when it is up');
    expect(toolNames(requests[0])).toContain('mcp__slow__echo');
    expect(toolNames(requests[0]).some((name) => name.startsWith('mcp__dead__'))).toBe(false);
    expect(ms).toBeLessThan(15_000);
  }, 40_000);
});

describe('an agent session (as interactive mode runs it)', () => {
  it('offers the servers that are ready when each prompt is sent, without waiting for the others', async () => {
    const standin = await startStandin({ dialect: 'anthropic', script: [{ text: 'one' }, { text: 'two' }] });
    const home = tempDir('wield-session-mcp-home-');
    const session = await openAgentSession({
      cwd: tempDir('wield-session-mcp-cwd-'),
      flags: {
        provider: 'anthropic',
        model: 'standin-model',
        baseUrl: standin.url,
        mcpConfig: JSON.stringify({ mcpServers: { fast: slowServer(0), late: slowServer(6000) } }),
      },
      env: cleanEnv(home),
    });
    try {
      const state = (name: string) => session.runtime.mcp?.list().find((server) => server.name === name)?.state;
      const offered = (request: number) => toolNames(standin.requests[request] as { tools?: { name: string }[] });
      await expect.poll(() => state('fast'), { timeout: 10_000 }).toBe('connected');
      await session.send('first', new AbortController().signal);
      expect(offered(0)).toContain('mcp__fast__echo');
      expect(offered(0).some((name) => name.startsWith('mcp__late__'))).toBe(false);
      await expect.poll(() => state('late'), { timeout: 15_000 }).toBe('connected');
      await session.send('second', new AbortController().signal);
      expect(offered(1)).toContain('mcp__late__echo');
    } finally {
      await session.close();
      await standin.close();
    }
  }, 40_000);
});
