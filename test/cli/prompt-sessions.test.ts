// Prompt input (`wield -p` with words and piped stdin) and sessions (`-c`, `wield sessions`, the
// id on stderr), through the real CLI against a stand-in server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type ScriptStep } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

/** The text of the last user message of a recorded Anthropic request. */
function lastPrompt(request: unknown): string {
  const messages = (request as { messages: { role: string; content: { type: string; text?: string }[] }[] }).messages;
  return messages
    .at(-1)!
    .content.map((part) => part.text ?? '')
    .join('');
}

async function place(script: ScriptStep[]) {
  const cwd = tempDir('wield-input-cwd-');
  const home = tempDir('wield-input-home-');
  const standin = await startStandin({ dialect: 'anthropic', script });
  const env = cleanEnv(home, providerEnv('anthropic', standin.url));
  const run = (args: string[], input?: string) => runCli(cli, [...providerArgs('anthropic'), ...args], { cwd, env, input });
  return { cwd, env, standin, run };
}

describe('prompt input', () => {
  it('adds piped stdin after the -p prompt', async () => {
    const { standin, run } = await place([{ text: 'one' }]);
    try {
      const piped = await run(['-p', 'explain this log'], 'ERROR at line 3\n');
      expect(piped.code).toBe(0);
      expect(lastPrompt(standin.requests[0])).toBe('explain this log\n\nERROR at line 3\n');
    } finally {
      await standin.close();
    }
  });

  it('takes the words after a bare -p as the prompt, or stdin alone; neither is a usage error', async () => {
    const { standin, run } = await place([{ text: 'one' }, { text: 'two' }]);
    try {
      const words = await run(['-p', '--max-turns', '3', 'what', 'is', 'this?']);
      expect(words.code).toBe(0);
      expect(lastPrompt(standin.requests[0])).toBe('what is this?');
      const stdinOnly = await run(['-p'], 'just the piped text');
      expect(stdinOnly.code).toBe(0);
      expect(lastPrompt(standin.requests[1])).toBe('just the piped text');
      const empty = await run(['-p'], '');
      expect(empty.code).toBe(2);
      expect(empty.stderr).toContain('the prompt is empty');
      expect(standin.requests).toHaveLength(2);
    } finally {
      await standin.close();
    }
  });

  it('attaches @path files of the -p prompt through Read; piped text is not scanned; a refused read sends nothing', async () => {
    const { cwd, standin, run } = await place([{ text: 'one' }, { text: 'two' }]);
    const outside = tempDir('wield-input-outside-');
    writeFileSync(path.join(cwd, 'notes.txt'), 'NOTE-LINE one\n');
    writeFileSync(path.join(cwd, 'other.txt'), 'OTHER-LINE\n');
    writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-LINE\n');
    try {
      const attached = await run(['-p', 'summarise @notes.txt'], 'the log mentions @other.txt\n');
      expect(attached.code).toBe(0);
      const sent = lastPrompt(standin.requests[0]);
      expect(sent).toContain('NOTE-LINE one');
      expect(sent.indexOf('summarise @notes.txt')).toBeLessThan(sent.indexOf('the log mentions @other.txt'));
      expect(sent).not.toContain('OTHER-LINE');
      // A file outside the workspace asks; with no terminal that is a denial, and nothing goes out.
      const refused = await run(['-p', `read @${path.join(outside, 'secret.txt')}`]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('nothing was sent');
      expect(standin.requests).toHaveLength(1);
      expect(JSON.stringify(standin.requests)).not.toContain('OUTSIDE-LINE');
      // A word that names no file stays text.
      const plain = await run(['-p', 'bump @types/node']);
      expect(plain.code).toBe(0);
      expect(lastPrompt(standin.requests[1])).toBe('bump @types/node');
    } finally {
      await standin.close();
    }
  });

  it('refuses piped input over the cap instead of cutting it', async () => {
    const { standin, run } = await place([{ text: 'never' }]);
    try {
      const big = await run(['-p', 'explain'], 'x'.repeat(1024 * 1024 + 1));
      expect(big.code).toBe(2);
      expect(big.stderr).toMatch(/piped input is over 1 MiB; send less/);
      expect(standin.requests).toHaveLength(0);
    } finally {
      await standin.close();
    }
  });

  it('a lone word close to a command is still a usage error, naming how to send it as a prompt', async () => {
    const { standin, run } = await place([]);
    try {
      const typo = await run(['tols']);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toMatch(/unknown command 'tols' \(did you mean tools\?\).*use -p/);
    } finally {
      await standin.close();
    }
  });
});

describe('sessions', () => {
  it('names the session on stderr and continues the newest one of this folder with -c', async () => {
    const { standin, run, env } = await place([{ text: 'First answer.' }, { text: 'Other folder.' }, { text: 'Second answer.' }]);
    try {
      const first = await run(['-p', 'remember the number 41']);
      expect(first.stdout).toBe('First answer.\n');
      const id = /session ([\w-]+) \(continue it: wield --resume \1\)/.exec(first.stderr)?.[1];
      expect(id).toBeDefined();
      // Another folder's session is newer, but -c takes this folder's.
      await runCli(cli, [...providerArgs('anthropic'), '-p', 'unrelated'], { cwd: tempDir('wield-input-other-'), env });
      const second = await run(['-c', '-p', 'which number?', '--output-format', 'json']);
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout).sessionId).toBe(id);
      expect(JSON.stringify(standin.requests[2])).toContain('remember the number 41');
    } finally {
      await standin.close();
    }
    // Three CLI runs in a row: room for a loaded machine, as the MCP first-request tests have.
  }, 60_000);

  it('a run the model never answered saves no session and offers none to continue', async () => {
    const { standin, run, env } = await place([{ status: 401 }]);
    try {
      const failed = await run(['-p', 'hello']);
      expect(failed.code).toBe(1);
      expect(failed.stderr).not.toContain('continue it');
      expect(failed.stderr).toContain('wield: nothing was saved (the model never answered)');
      const sessions = path.join(env.WIELD_HOME as string, '.wield', 'sessions');
      expect(existsSync(sessions) ? readdirSync(sessions).filter((name) => name.endsWith('.jsonl')) : []).toEqual([]);
    } finally {
      await standin.close();
    }
  });

  it("wield sessions lists this folder's sessions newest first, --all every folder's", async () => {
    const cwd = tempDir('wield-list-cwd-');
    const home = tempDir('wield-list-home-');
    const dir = path.join(home, '.wield', 'sessions');
    mkdirSync(dir, { recursive: true });
    const session = (id: string, folder: string, prompt: string, minutesAgo: number) => {
      const file = path.join(dir, `${id}.jsonl`);
      const header = { type: 'session', version: 1, id, cwd: folder, createdAt: '2026-12-01T10:00:00.000Z' };
      const message = { type: 'message', message: { role: 'user', content: [{ type: 'text', text: prompt }] } };
      writeFileSync(file, `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`);
      const when = new Date(Date.now() - minutesAgo * 60_000);
      utimesSync(file, when, when);
    };
    session('older', cwd, 'fix the parser', 30);
    session('newer', cwd, 'add a test', 5);
    session('elsewhere', home, 'unrelated', 1);
    const env = cleanEnv(home);
    const listed = await runCli(cli, ['sessions'], { cwd, env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d {2}newer {2}add a test\n.* {2}older {2}fix the parser\n$/);
    const all = await runCli(cli, ['sessions', '--all', '--json'], { cwd, env });
    expect(JSON.parse(all.stdout).map((entry: { id: string }) => entry.id)).toEqual(['elsewhere', 'newer', 'older']);
  });

  it('-c with no session here and a bare --resume with -p are setup errors that say what to do', async () => {
    const { standin, run } = await place([]);
    try {
      const none = await run(['-c', '-p', 'hi']);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/No saved session was started in .*; run without -c/);
      const bare = await run(['--resume', '-p', 'hi']);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toMatch(/--resume without an id opens a picker .*`wield sessions` lists them/);
      expect(standin.requests).toHaveLength(0);
    } finally {
      await standin.close();
    }
  });
});
