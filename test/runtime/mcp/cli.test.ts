// `wield mcp list` and `wield mcp serve` as processes of the real CLI bundle.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { FAULTY_SERVER, serverEntry, tempDir } from './helpers.js';
import { buildCli } from '../../cli/helpers.js';

const run = promisify(execFile);
let cli: string;
let cleanup = (): void => undefined;
let home: string;
let project: string;
afterAll(() => cleanup());
beforeAll(async () => {
  ({ cli, cleanup } = await buildCli());
  home = tempDir('home');
  project = tempDir('project');
});

const config = JSON.stringify({
  mcpServers: {
    faulty: { command: process.execPath, args: [FAULTY_SERVER, '--invalid-schema'] },
    old: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
  },
});

describe('wield mcp', () => {
  it('list --json reports servers, state, tool counts and errors', async () => {
    const result = await run(process.execPath, [cli, 'mcp', 'list', '--json', '--mcp-config', config], {
      cwd: project,
      env: { ...process.env, HOME: home },
    }).catch((error: { stdout: string; code: number }) => error);
    const output = JSON.parse(result.stdout) as {
      servers: { name: string; state: string; toolCount: number; toolErrors: string[] }[];
      configErrors: { server: string; error: string }[];
    };
    expect(output.servers).toEqual([expect.objectContaining({ name: 'faulty', state: 'connected', toolCount: 8 })]);
    expect(output.servers[0].toolErrors).toHaveLength(2);
    expect(output.configErrors).toEqual([expect.objectContaining({ server: 'old', error: expect.stringMatching(/sse/) })]);
  });

  it('list names a server slower than its connect timeout as connecting, exits 1, and leaves nothing running', async () => {
    // Held at a gate never opened: it would join a session; a listing ends at its connect timeout.
    const gate = path.join(tempDir('gate'), 'open');
    const slowStart = path.join(path.dirname(FAULTY_SERVER), 'slow-start.mjs');
    const late = { command: process.execPath, args: [slowStart, gate, FAULTY_SERVER], connectTimeout: 300, protocol: '2025-11-25' };
    const result = await run(process.execPath, [cli, 'mcp', 'list', '--json', '--mcp-config', JSON.stringify({ mcpServers: { late } })], {
      cwd: project,
      env: { ...process.env, HOME: home },
    }).catch((error: { stdout: string; code: number }) => error);
    expect((result as { code?: number }).code).toBe(1);
    const output = JSON.parse(result.stdout) as { servers: { name: string; state: string; error?: string }[] };
    expect(output.servers).toEqual([expect.objectContaining({ name: 'late', state: 'connecting', error: 'no answer within 0.3 s yet' })]);
    const pid = Number(readFileSync(`${gate}.pids`, 'utf8').trim());
    await expect
      .poll(
        () => {
          try {
            process.kill(pid, 0);
            return 'running';
          } catch {
            return 'stopped';
          }
        },
        { timeout: 10_000 },
      )
      .toBe('stopped');
  });

  it('list in an untrusted folder says its .mcp.json is ignored and how to trust it, every time, on stdout', async () => {
    const folder = tempDir('untrusted');
    const own = tempDir('home-untrusted');
    writeFileSync(path.join(folder, '.mcp.json'), JSON.stringify({ mcpServers: { local: { command: 'true' } } }));
    for (let n = 0; n < 2; n++) {
      const result = await run(process.execPath, [cli, 'mcp', 'list'], {
        cwd: folder,
        env: { ...process.env, HOME: own, WIELD_HOME: own },
      });
      expect(result.stdout).toContain(
        `No MCP servers run here: ${path.join(folder, '.mcp.json')} is ignored because this folder is not trusted`,
      );
      expect(result.stdout).toContain('wield trust');
      expect(result.stdout).not.toContain('No MCP servers configured');
    }
  });

  it('serve speaks MCP on stdio with the built-ins and the configured servers', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'mcp', 'serve', '--mcp-config', config],
        cwd: project,
        env: { PATH: process.env.PATH ?? '', HOME: home },
        stderr: 'pipe',
      }),
    );
    try {
      await expect
        .poll(async () => (await client.listTools()).tools.map((tool) => tool.name), { timeout: 10_000 })
        .toEqual(expect.arrayContaining(['Read', 'mcp__faulty__echo']));
      const read = await client.callTool({ name: 'Read', arguments: { file_path: `${project}/missing.txt` } });
      expect(read.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('serve over stdio refuses a message over 10 MiB with a JSON-RPC error and stays up', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'mcp', 'serve'],
        cwd: project,
        env: { PATH: process.env.PATH ?? '', HOME: home, WIELD_HOME: home },
        stderr: 'pipe',
      }),
    );
    try {
      const refused = await client.callTool({ name: 'Read', arguments: { file_path: 'x'.repeat(11 * 2 ** 20) } }).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      expect(refused).toMatch(/message refused: larger than 10,485,760 bytes/);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('Read');
    } finally {
      await client.close();
    }
  });

  it('serve: a ToolSearch sent before a proxied server connected waits for it and finds its tools', async () => {
    const slowStart = path.join(path.dirname(FAULTY_SERVER), 'slow-start.mjs');
    const slow = { command: process.execPath, args: [slowStart, '1500', serverEntry('@modelcontextprotocol/server-everything'), 'stdio'] };
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'mcp', 'serve', '--mcp-config', JSON.stringify({ mcpServers: { slow } })],
        cwd: project,
        env: { PATH: process.env.PATH ?? '', HOME: home },
        stderr: 'pipe',
      }),
    );
    try {
      const result = await client.callTool({ name: 'ToolSearch', arguments: { query: 'echo back a message' } });
      const text = (result.content as { type: string; text: string }[]).map((block) => block.text).join('\n');
      expect(text).toContain('mcp__slow__echo');
      expect(text).not.toContain('No tools matched');
    } finally {
      await client.close();
    }
  }, 30_000);

  it.each([
    ['a network address without a token', ['--http', '0', '--host', '0.0.0.0'], 'add --token TOKEN'],
    ['--stall-limit without Redis', ['--http', '0', '--stall-limit', '10'], 'add --redis URL (or drop --stall-limit)'],
    [
      '--stall-limit that is not seconds',
      ['--http', '0', '--redis', 'redis://127.0.0.1:1', '--stall-limit', 'soon'],
      'expected a number of seconds (0 turns it off)',
    ],
  ])('serve with %s is a usage error (exit 2) naming the fix, before anything starts', async (_case, args, fix) => {
    const failure = await run(process.execPath, [cli, 'mcp', 'serve', ...args], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', HOME: home },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain(fix);
  });
});
