import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin } from '../support/standin/index.js';
import type { ScriptStep } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

const DIALECTS = ['anthropic', 'openai', 'openai-responses'] as const;

/** A project folder with one file, and a private home. */
function place() {
  const cwd = tempDir('wield-cli-cwd-');
  const home = tempDir('wield-cli-home-');
  writeFileSync(path.join(cwd, 'notes.txt'), 'hello from notes\n');
  return { cwd, home };
}

async function withStandin(
  dialect: (typeof DIALECTS)[number],
  script: ScriptStep[] | ((cwd: string) => ScriptStep[]),
  args: string[],
  extraEnv: Record<string, string> = {},
) {
  const { cwd, home } = place();
  const standin = await startStandin({ dialect, script: typeof script === 'function' ? script(cwd) : script });
  try {
    const run = await runCli(cli, [...providerArgs(dialect), ...args], {
      cwd,
      env: cleanEnv(home, { ...providerEnv(dialect, standin.url), ...extraEnv }),
    });
    return { run, requests: standin.requests as Record<string, unknown>[], cwd, home };
  } finally {
    await standin.close();
  }
}

function noStackTrace(text: string): void {
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe('wield -p', () => {
  it('says exactly what to set when no model is configured (exit 2, no stack trace)', async () => {
    const { cwd, home } = place();
    const run = await runCli(cli, ['-p', 'hi'], { cwd, env: cleanEnv(home) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ANTHROPIC_API_KEY');
    expect(run.stderr).toContain('OPENAI_API_KEY');
    expect(run.stderr).toContain('OPENAI_BASE_URL');
    expect(run.stdout).toBe('');
    noStackTrace(run.stderr);
  });

  for (const dialect of DIALECTS) {
    it(`runs a multi-turn tool session over ${dialect} and prints the JSON summary`, async () => {
      const { run, requests, home } = await withStandin(
        dialect,
        (cwd) => [
          {
            toolCalls: [
              { name: 'Read', arguments: { file_path: path.join(cwd, 'notes.txt') } },
              { name: 'Nope', arguments: {} },
            ],
          },
          { text: 'The notes say hello.' },
        ],
        ['-p', 'what do the notes say?', '--output-format', 'json'],
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const summary = JSON.parse(run.stdout);
      expect(summary).toMatchObject({ answer: 'The notes say hello.', turns: 2, toolCalls: 2, isError: false });
      expect(summary.usage.inputTokens).toBeGreaterThan(0);
      // The DESIGN contract: cache counts always present, costUsd null for a model without a price.
      expect(summary.usage).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
      expect(summary.costUsd).toBeNull();
      // The second request carries both results: the file's text and the unknown-tool error.
      const second = JSON.stringify(requests[1]);
      expect(second).toContain('hello from notes');
      expect(second).toContain('Nope');
      // The session was saved under WIELD_HOME.
      const log = path.join(home, '.wield', 'sessions', `${summary.sessionId}.jsonl`);
      expect(existsSync(log)).toBe(true);
      expect(readFileSync(log, 'utf8')).toContain('The notes say hello.');
    });
  }

  it('prints only the final answer in text mode', async () => {
    const { run } = await withStandin('anthropic', [{ text: 'Just this.' }], ['-p', 'hi']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Just this.\n');
  });

  it('prints one wield event per line with --output-format events, ending with the result', async () => {
    const { run } = await withStandin(
      'openai',
      [{ toolCalls: [{ name: 'LS', arguments: {} }] }, { text: 'Listed.' }],
      ['-p', 'ls', '--output-format', 'events'],
    );
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const types = events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['turn_start', 'tool_call', 'tool_start', 'tool_end', 'text_delta', 'assistant_message', 'done']),
    );
    expect(events.at(-1)).toMatchObject({ type: 'result', answer: 'Listed.', isError: false });
  });

  it('answers AskUserQuestion with "no one can answer" (no person in a one-shot run)', async () => {
    const { run, requests } = await withStandin(
      'anthropic',
      [
        { toolCalls: [{ name: 'AskUserQuestion', arguments: { questions: [{ question: 'Which branch?', options: ['main', 'dev'] }] } }] },
        { text: 'Assumed main.' },
      ],
      ['-p', 'pick a branch'],
    );
    expect(run.code).toBe(0);
    expect(JSON.stringify(requests[1])).toContain('No one can answer questions in this non-interactive run');
  });

  it('denies an "ask" with no terminal and tells the model which rule would allow it', async () => {
    const { run, requests, cwd } = await withStandin(
      'anthropic',
      (dir) => [
        { toolCalls: [{ name: 'Write', arguments: { file_path: path.join(dir, 'new.txt'), content: 'x' } }] },
        { text: 'Could not write.' },
      ],
      ['-p', 'write it', '--output-format', 'json'],
    );
    expect(run.code).toBe(0);
    const second = JSON.stringify(requests[1]);
    expect(second).toMatch(/Permission denied for Write/);
    expect(second).toMatch(/permissions\.allow/);
    expect(existsSync(path.join(cwd, 'new.txt'))).toBe(false);
  });

  it('lets --allow rules through and continues a session with --resume', async () => {
    const { cwd, home } = place();
    const standin = await startStandin({
      dialect: 'anthropic',
      script: [
        { toolCalls: [{ name: 'Write', arguments: { file_path: path.join(cwd, 'out.txt'), content: 'written' } }] },
        { text: 'Wrote it.' },
        { text: 'I remember.' },
      ],
    });
    const env = cleanEnv(home, providerEnv('anthropic', standin.url));
    try {
      const first = await runCli(cli, [...providerArgs('anthropic'), '-p', 'write', '--allow', 'Write', '--output-format', 'json'], {
        cwd,
        env,
      });
      expect(first.code).toBe(0);
      expect(readFileSync(path.join(cwd, 'out.txt'), 'utf8')).toBe('written');
      const { sessionId } = JSON.parse(first.stdout);
      const second = await runCli(
        cli,
        [...providerArgs('anthropic'), '-p', 'what did you do?', '--resume', sessionId, '--output-format', 'json'],
        { cwd, env },
      );
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ answer: 'I remember.', sessionId });
      const resumed = JSON.stringify(standin.requests[2]);
      expect(resumed).toContain('Wrote it.');
      expect(resumed).toContain('what did you do?');
      const missing = await runCli(cli, [...providerArgs('anthropic'), '-p', 'x', '--resume', 'no-such-id'], { cwd, env });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/No session "no-such-id"/);
    } finally {
      await standin.close();
    }
  });

  it('recovers from a 500 by retrying', async () => {
    const { run, requests } = await withStandin('openai', [{ status: 500 }, { text: 'Recovered.' }], ['-p', 'hi']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Recovered.\n');
    expect(requests).toHaveLength(2);
  });

  it('reports a stream cut half-way as an error result, with every call answered', async () => {
    const { run } = await withStandin(
      'anthropic',
      [{ text: 'partial answer that is long enough to be cut', toolCalls: [{ name: 'LS', arguments: {} }], cutAfterChunks: 4 }],
      ['-p', 'hi', '--output-format', 'json'],
    );
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout);
    expect(summary.isError).toBe(true);
    expect(summary.stopReason).toBe('error');
    expect(typeof summary.error).toBe('string');
    noStackTrace(run.stderr);
  });

  it('stops at --max-turns with exit 1', async () => {
    const call = { toolCalls: [{ name: 'LS', arguments: {} }] };
    const { run, requests } = await withStandin(
      'anthropic',
      [call, call, call],
      ['-p', 'loop', '--max-turns', '2', '--output-format', 'json'],
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ stopReason: 'max_turns', turns: 2, isError: true });
    expect(requests).toHaveLength(2);
  });
});
