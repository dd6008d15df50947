// Settings the CLI hands to the loop and to ToolSearch, end to end with a stand-in model:
// UserPromptSubmit / Stop hooks, per-server MCP alwaysLoad and description, and calls to MCP
// tools of a server that is still connecting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type ScriptStep } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

const FAULTY_SERVER = path.join(process.cwd(), 'test', 'support', 'mcp-servers', 'faulty.mjs');

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

/** Runs `wield -p` in a fresh project whose user settings (under the private home) are `settings`. */
async function oneShot(script: ScriptStep[], settings: (home: string) => object, args: string[], flags = providerArgs('anthropic')) {
  const cwd = tempDir('wield-settings-cwd-');
  const home = tempDir('wield-settings-home-');
  mkdirSync(path.join(home, '.wield'), { recursive: true });
  writeFileSync(path.join(home, '.wield', 'settings.json'), JSON.stringify(settings(home)));
  const standin = await startStandin({ dialect: 'anthropic', script });
  try {
    const run = await runCli(cli, [...flags, ...args], {
      cwd,
      env: cleanEnv(home, providerEnv('anthropic', standin.url)),
    });
    return { run, requests: standin.requests as { system?: unknown; tools?: { name: string }[]; messages: unknown[] }[] };
  } finally {
    await standin.close();
  }
}

function hookScript(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('hooks from settings in wield -p', () => {
  it('a UserPromptSubmit hook that exits 2 stops the prompt and says why (exit 1, no request)', async () => {
    const { run, requests } = await oneShot(
      [{ text: 'never sent' }],
      (home) => ({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: 'command', command: hookScript(home, 'block.sh', 'echo "secrets in the prompt" >&2; exit 2') }] },
          ],
        },
      }),
      ['-p', 'my password is hunter2'],
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('secrets in the prompt');
    expect(run.stdout).toBe('');
    expect(requests).toHaveLength(0);
  });

  it('UserPromptSubmit context reaches the model, and a Stop hook block makes it continue', async () => {
    const { run, requests } = await oneShot(
      [{ text: 'First answer.' }, { text: 'Checked again.' }],
      (home) => ({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: 'command', command: hookScript(home, 'context.sh', 'echo "today is release day"') }] }],
          Stop: [
            {
              hooks: [
                {
                  type: 'command',
                  command: hookScript(
                    home,
                    'stop.sh',
                    `[ -f "${home}/stopped" ] && exit 0; touch "${home}/stopped"; echo "double-check the changelog" >&2; exit 2`,
                  ),
                },
              ],
            },
          ],
        },
      }),
      ['-p', 'ship it', '--output-format', 'json'],
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ answer: 'Checked again.', turns: 2 });
    expect(JSON.stringify(requests[0].messages)).toContain('today is release day');
    expect(JSON.stringify(requests[1].messages.at(-1))).toContain('double-check the changelog');
  });
});

describe('MCP servers in the agent runtime', () => {
  it("sends alwaysLoad servers' tools, defers the others with their description, and waits for a server still connecting", async () => {
    const servers = {
      always: { command: process.execPath, args: [FAULTY_SERVER], alwaysLoad: true },
      big: { command: process.execPath, args: [FAULTY_SERVER, '--tools', '30'], description: 'Generated tools for load testing' },
      // Starts a second late: its tool is called before it is registered.
      slow: { command: '/bin/sh', args: ['-c', `sleep 1; exec "${process.execPath}" "${FAULTY_SERVER}"`] },
    };
    const { run, requests } = await oneShot(
      [{ toolCalls: [{ name: 'mcp__slow__echo', arguments: { text: 'hello from slow' } }] }, { text: 'Echoed.' }],
      () => ({ mcpServers: servers }),
      ['-p', 'echo', '--allow', 'mcp__slow', '--output-format', 'json'],
    );
    expect(run.code, run.stderr).toBe(0);
    const second = requests[1];
    expect(JSON.stringify(second.messages.at(-1))).toContain('hello from slow');
    const names = (second.tools ?? []).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['Read', 'ToolSearch', 'mcp__always__echo', 'mcp__always__pid', 'mcp__slow__echo']));
    expect(names.filter((name) => name.startsWith('mcp__big__'))).toEqual([]);
    expect(JSON.stringify(second.system)).toContain('Generated tools for load testing');
  });
});

describe('an untrusted project in wield -p', () => {
  it('says once what its settings would change and how to trust it; --trust and `wield trust` lift that, --revoke restores it', async () => {
    const cwd = tempDir('wield-untrusted-cwd-');
    const home = tempDir('wield-untrusted-home-');
    mkdirSync(path.join(cwd, '.wield'), { recursive: true });
    writeFileSync(path.join(cwd, '.wield', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(touch *)'] } }));
    const standin = await startStandin({ dialect: 'anthropic', script: Array.from({ length: 5 }, () => ({ text: 'done' })) });
    try {
      const env = cleanEnv(home, providerEnv('anthropic', standin.url));
      const prompt = (...extra: string[]) => runCli(cli, [...providerArgs('anthropic'), '-p', 'hi', ...extra], { cwd, env });
      const untrusted = await prompt();
      expect(untrusted.code).toBe(0);
      expect(untrusted.stderr).toContain(
        `this project is not trusted, so only the deny and ask rules of its files apply; ignored: ${path.join('.wield', 'settings.json')}: allow rules. Run \`wield trust\` to trust it`,
      );
      // Said once for this folder, not on every run.
      const again = await prompt();
      expect(again.code).toBe(0);
      expect(again.stderr).not.toContain('not trusted');

      const trusted = await prompt('--trust');
      expect(trusted.code).toBe(0);
      expect(trusted.stderr).not.toContain('not trusted');

      const trust = await runCli(cli, ['trust'], { cwd, env });
      expect(trust.code).toBe(0);
      expect(trust.stdout).toContain(`trusted: ${cwd}`);
      expect(JSON.parse(readFileSync(path.join(home, '.wield', 'settings.json'), 'utf8')).trustedProjects).toEqual([realpathSync(cwd)]);
      const check = await runCli(cli, ['check', 'bash', 'touch x'], { cwd, env });
      expect(check.stdout).toMatch(/^allow/);

      const revoke = await runCli(cli, ['trust', '--revoke'], { cwd, env });
      expect(revoke.code).toBe(0);
      expect(JSON.parse(readFileSync(path.join(home, '.wield', 'settings.json'), 'utf8')).trustedProjects).toEqual([]);
      expect((await runCli(cli, ['check', 'bash', 'touch x'], { cwd, env })).stdout).toMatch(/^ask/);
    } finally {
      await standin.close();
    }
  });
});

describe('a settings file brought from Claude Code', () => {
  it('starts wield -p (--model wins over its model), naming the keys wield does not use', async () => {
    const { run, requests } = await oneShot(
      [{ text: 'done' }],
      () => ({ model: 'model-from-settings', statusLine: { type: 'command', command: 'x' }, includeCoAuthoredBy: false }),
      ['-p', 'hi'],
    );
    expect(run.code).toBe(0);
    expect((requests[0] as { model?: string }).model).toBe('standin-model');
    expect(run.stderr).toContain('statusLine, includeCoAuthoredBy');
  });

  it('without --model, the model of the settings file is the one requested', async () => {
    const { run, requests } = await oneShot(
      [{ text: 'done' }],
      () => ({ model: 'model-from-settings' }),
      ['-p', 'hi'],
      ['--provider', 'anthropic'],
    );
    expect(run.code).toBe(0);
    expect((requests[0] as { model?: string }).model).toBe('model-from-settings');
  });
});
