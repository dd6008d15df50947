// `wield mcp add` / `wield mcp remove` as a person runs them: the entry written to the scope's
// file in Claude Code's shape, other keys kept, read back by `wield mcp list`; bad input refused
// with what to send instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serverEntry as entryOf, scopeFile } from '../../src/cli/commands/mcp-edit.js';
import { parseServerConfig } from '../../src/runtime/mcp/config.js';
import { settingsPaths } from '../../src/coding/settings/load.js';

const serverEntry = (target: string, args: string[], options: Parameters<typeof entryOf>[2]) =>
  entryOf(target, args, options, parseServerConfig);
import { buildCli, cleanEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { mcpServers?: Record<string, unknown> } & Record<string, unknown>;

describe('wield mcp add / remove', () => {
  it('builds stdio and http entries the loader accepts, and refuses what it would not', () => {
    expect(serverEntry('npx', ['-y', 'pkg'], { env: ['A=1'] })).toEqual({ command: 'npx', args: ['-y', 'pkg'], env: { A: '1' } });
    expect(serverEntry('https://x.test/mcp', [], { header: ['Authorization: Bearer t'] })).toEqual({
      type: 'http',
      url: 'https://x.test/mcp',
      headers: { Authorization: 'Bearer t' },
    });
    expect(() => serverEntry('x', [], { transport: 'sse' })).toThrow(/use stdio .* or http/);
    expect(() => serverEntry('x', [], { env: ['NOVALUE'] })).toThrow(/"NOVALUE" is not KEY=value/);
    expect(() => serverEntry('https://x.test', ['extra'], {})).toThrow(/takes no arguments after its URL/);
    // The files the settings loader reads.
    expect(scopeFile('user', '/w', '/h')).toBe(settingsPaths('/w', '/h').user);
    expect(scopeFile('local', '/w', '/h')).toBe(settingsPaths('/w', '/h').local);
  });

  it('writes the scope file keeping its other keys, lists the server, and removes it', async () => {
    const cwd = tempDir('wield-mcpedit-cwd-');
    const home = tempDir('wield-mcpedit-home-');
    const env = cleanEnv(home);
    const local = path.join(cwd, '.wield', 'settings.local.json');
    mkdirSync(path.dirname(local));
    writeFileSync(local, JSON.stringify({ permissions: { allow: ['Bash(ls)'] } }));

    let run = await runCli(cli, ['mcp', 'add', 'files', '-e', 'ROOT=/tmp', '--', 'node', 'server.js', '--flag'], { cwd, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Added MCP server "files" in ${local} (local)`);
    expect(json(local)).toEqual({
      permissions: { allow: ['Bash(ls)'] },
      mcpServers: { files: { command: 'node', args: ['server.js', '--flag'], env: { ROOT: '/tmp' } } },
    });

    run = await runCli(cli, ['mcp', 'add', '-s', 'project', 'web', 'https://mcp.example.test/mcp'], { cwd, env });
    expect(run.code).toBe(0);
    expect(json(path.join(cwd, '.mcp.json')).mcpServers).toEqual({ web: { type: 'http', url: 'https://mcp.example.test/mcp' } });

    // The user scope is read in any folder: `wield mcp list` shows the server (it cannot start).
    const user = path.join(home, '.wield', 'settings.json');
    run = await runCli(cli, ['mcp', 'add', '-s', 'user', 'broken', 'wield-no-such-program'], { cwd, env });
    expect(run.code).toBe(0);
    expect(json(user).mcpServers).toEqual({ broken: { command: 'wield-no-such-program', args: [] } });
    run = await runCli(cli, ['mcp', 'list'], { cwd, env, timeoutMs: 40_000 });
    expect(run.stdout).toMatch(/broken\s+stdio\s+-\s+failed/);
    run = await runCli(cli, ['tools'], { cwd, env, timeoutMs: 40_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('MCP server "broken" did not start, so its tools are missing');

    run = await runCli(cli, ['mcp', 'add', 'bad', 'x', '-t', 'sse'], { cwd, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('use stdio (a command) or http');
    run = await runCli(cli, ['mcp', 'add', '-s', 'team', 'bad', 'x'], { cwd, env });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('expected one of local, project, user');

    run = await runCli(cli, ['mcp', 'remove', 'files'], { cwd, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Removed MCP server "files" from ${local}`);
    expect(json(local)).toEqual({ permissions: { allow: ['Bash(ls)'] }, mcpServers: {} });
    run = await runCli(cli, ['mcp', 'remove', 'files'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no MCP server "files"');
    expect(existsSync(path.join(cwd, '.mcp.json'))).toBe(true);
  });
});
