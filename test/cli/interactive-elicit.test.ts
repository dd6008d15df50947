// An MCP server in the interactive session (real server-everything over stdio, in tmux): its
// prompts complete as `/mcp__…` commands; its elicitation reaches the person — the form's fields
// asked one by one with their defaults, the answer going back to the server; `n` declines; a
// URL-mode request opens its page (with BROWSER) only after a yes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startStandin, type Standin } from '../support/standin/index.js';
import { serverEntry } from '../runtime/mcp/helpers.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

const FORM_TOOL = 'mcp__everything__trigger-elicitation-request';
const URL_TOOL = 'mcp__everything__trigger-url-elicitation';

describe('MCP elicitation in the interactive session', () => {
  let standin: Standin | undefined;
  let tmux: TmuxSession | undefined;
  afterAll(async () => {
    tmux?.kill();
    await standin?.close();
  });

  it('completes its prompts as commands, asks its form field by field, declines on n, and opens a URL page only after a yes', async () => {
    const cwd = tempDir('wield-elicit-cwd-');
    const home = tempDir('wield-elicit-home-');
    const opened = path.join(home, 'opened.txt');
    const browser = path.join(home, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
    chmodSync(browser, 0o755);
    const call = (name: string, input: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: input }] });
    standin = await startStandin({
      dialect: 'anthropic',
      script: [
        call(FORM_TOOL),
        { text: 'Thanks for the form.' },
        call(FORM_TOOL),
        { text: 'Understood, declined.' },
        call(URL_TOOL, { url: 'https://example.test/consent', message: 'Please approve access.' }),
        { text: 'Opened.' },
      ],
    });
    const mcp = JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [serverEntry('@modelcontextprotocol/server-everything'), 'stdio'] } },
    });
    tmux = TmuxSession.start(
      `wield-elicit-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic'), '--mcp-config', mcp, '--allow', 'mcp__everything'],
      cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm', BROWSER: browser }),
      cwd,
    );
    await tmux.waitForPrompt();

    // The server's prompts complete as slash commands, with their arguments as the hint.
    tmux.keys('-l', '/mcp__everything__ar');
    let screen = await tmux.waitFor('mcp__everything__args-prompt');
    expect(screen).toMatch(/mcp__everything__args-prompt\s+.*city=…/);
    // Esc closes the list (a key after it at once would read as Alt+key, so the test waits).
    tmux.keys('Escape');
    for (let tries = 0; tmux.screen().includes('args-prompt') && tries < 100; tries++) await sleep(50);
    expect(tmux.screen()).not.toContain('args-prompt');
    tmux.keys('C-c');
    await tmux.waitForEditor('');

    tmux.type('fill the form');
    screen = await tmux.waitFor('? MCP server "everything" asks: Please provide inputs');
    expect(screen).toContain('String (required) — Your full, legal name');
    await tmux.waitFor('Answer? y / n (decline) ›');
    tmux.type('y');
    // Each field's own question, then the answer typed: the required name refuses Enter alone, a
    // boolean and a range are checked, Enter takes a field's default or skips it. (Waiting on the
    // whole label: the titles alone are already in the list shown first.)
    const steps: [question: string, answer: string][] = [
      ['String (string) ›', ''],
      ['String is required', 'Ada Lovelace'],
      ['Boolean (y/n) [Enter: skip] ›', 'maybe'],
      ['answer y or n', 'y'],
      ['String with default (string) [Enter: It was a dark and stormy night.] ›', ''],
      ['String with email format (string) [Enter: skip] ›', ''],
      ['String with uri format (string) [Enter: skip] ›', ''],
      ['String with date format (string) [Enter: skip] ›', ''],
      ['Integer (integer) [Enter: 42] ›', '500'],
      ['give a number from 1 to 100', '7'],
      ['Number in range 1-1000 (number) [Enter: 3.14] ›', ''],
      ['Untitled Single Select Enum (1 Monica', ''],
      ['Untitled Multiple Select Enum (1 Guitar', ''],
      ['Titled Single Select Enum (1 Superman', ''],
      ['Titled Multiple Select Enum (1 Tuna', ''],
      ['Legacy Titled Single Select Enum (1 Cats · 2 Dogs', '2'],
    ];
    for (const [question, answer] of steps) {
      await tmux.waitFor(question);
      tmux.type(answer);
    }
    await tmux.waitFor('Thanks for the form.');
    const result = JSON.stringify(standin.requests[1]);
    expect(result).toContain('- Name: Ada Lovelace');
    expect(result).toContain('- Agreed to terms: true');
    expect(result).toContain('- Favorite Integer: 7');
    expect(result).toContain('\\"legacyTitledEnum\\": \\"pet-2\\"');
    expect(result).toContain('\\"firstLine\\": \\"It was a dark and stormy night.\\"');
    expect(result).toContain('\\"untitledMultipleSelectEnum\\": [\\n      \\"Guitar\\"');

    tmux.type('fill it again');
    await tmux.waitFor('Answer? y / n (decline) ›', 2);
    tmux.type('n');
    await tmux.waitFor('Understood, declined.');
    expect(JSON.stringify(standin.requests[3])).toContain('User declined to provide the requested information');

    tmux.type('open the page');
    screen = await tmux.waitFor('It wants you to open https://example.test/consent');
    expect(existsSync(opened)).toBe(false);
    await tmux.waitFor('Open it? y / n ›');
    tmux.type('y');
    await tmux.waitFor('Opened.');
    expect(readFileSync(opened, 'utf8')).toBe('https://example.test/consent\n');
    tmux.type('/exit');
    await tmux.waitFor(/\[exit 0\]/);
  }, 90_000);
});
