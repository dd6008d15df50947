// `wield -p` at the edges: replies cut off at the output-token limit or refused are not reported
// as finished answers; a tool call cut off mid-arguments is not run; an empty prompt and an
// unusable base URL are refused before anything is sent. Real CLI, stand-in model server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type ScriptStep, type StandinDialect } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

const DIALECTS = ['anthropic', 'openai', 'openai-responses'] as const;
/** Each dialect's wire value for "cut off at the output limit" and for "refused / filtered". */
const WIRE: Record<StandinDialect, { limit: string; refusal: string }> = {
  anthropic: { limit: 'max_tokens', refusal: 'refusal' },
  openai: { limit: 'length', refusal: 'content_filter' },
  'openai-responses': { limit: 'max_output_tokens', refusal: 'content_filter' },
};

async function withStandin(dialect: StandinDialect, script: ScriptStep[], args: string[], extraEnv: Record<string, string> = {}) {
  const cwd = tempDir('wield-cli-limits-cwd-');
  const home = tempDir('wield-cli-limits-home-');
  const standin = await startStandin({ dialect, script });
  try {
    const run = await runCli(cli, [...providerArgs(dialect), ...args], {
      cwd,
      env: cleanEnv(home, { ...providerEnv(dialect, standin.url), ...extraEnv }),
    });
    return { run, requests: standin.requests as Record<string, unknown>[], cwd };
  } finally {
    await standin.close();
  }
}

describe('wield -p: replies that stop short', () => {
  for (const dialect of DIALECTS) {
    it(`${dialect}: a reply cut off at the output limit is max_tokens, exit 1`, async () => {
      const { run } = await withStandin(
        dialect,
        [{ text: 'The answer is', stopReason: WIRE[dialect].limit }],
        ['-p', 'hi', '--output-format', 'json'],
      );
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({
        answer: 'The answer is',
        isError: true,
        stopReason: 'max_tokens',
        error: expect.stringMatching(/output-token limit/),
      });
    });

    it(`${dialect}: a refused or filtered reply is refusal, exit 1`, async () => {
      const { run } = await withStandin(
        dialect,
        [{ text: '', stopReason: WIRE[dialect].refusal }],
        ['-p', 'hi', '--output-format', 'json'],
      );
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({ answer: '', isError: true, stopReason: 'refusal', error: expect.any(String) });
    });
  }

  it('events output ends with a result line that carries max_tokens', async () => {
    const { run } = await withStandin('anthropic', [{ text: 'Cut', stopReason: 'max_tokens' }], ['-p', 'hi', '--output-format', 'events']);
    expect(run.code).toBe(1);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events).toContainEqual(expect.objectContaining({ type: 'turn_end', stopReason: 'max_tokens' }));
    expect(events.at(-1)).toMatchObject({ type: 'result', isError: true, stopReason: 'max_tokens' });
  });

  it('text output prints the partial answer and says on stderr that it was cut off', async () => {
    const { run } = await withStandin('openai', [{ text: 'Partial', stopReason: 'length' }], ['-p', 'hi']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('Partial\n');
    expect(run.stderr).toMatch(/^wield: .*cut off at its output-token limit/);
  });
});

describe('wield -p: a tool call cut off at the output limit', () => {
  for (const dialect of DIALECTS) {
    it(`${dialect}: is not run; the whole calls of the reply are, and the model is told to send it again smaller`, async () => {
      const { run, requests, cwd } = await withStandin(
        dialect,
        [
          {
            toolCalls: [
              { name: 'Write', arguments: { file_path: 'whole.txt', content: 'complete' } },
              { name: 'Write', arguments: '{"file_path":"t.txt","content":"abc' },
            ],
            stopReason: WIRE[dialect].limit,
          },
          { text: 'I will send it in parts.' },
        ],
        ['-p', 'write the files', '--permission-mode', 'acceptEdits', '--output-format', 'json'],
      );
      expect(run.code).toBe(0);
      expect(existsSync(path.join(cwd, 't.txt'))).toBe(false);
      expect(readFileSync(path.join(cwd, 'whole.txt'), 'utf8')).toBe('complete');
      const second = JSON.stringify(requests[1]);
      expect(second).toContain('cut off at the output-token limit');
      expect(second).toContain('nothing was run');
      expect(JSON.parse(run.stdout)).toMatchObject({ stopReason: 'end_turn', toolCalls: 2 });
    });
  }

  it('damaged JSON in a reply that was not cut off is repaired and run', async () => {
    const { run, cwd } = await withStandin(
      'anthropic',
      [{ toolCalls: [{ name: 'Write', arguments: '{"file_path":"r.txt","content":"abc",}' }] }, { text: 'Wrote it.' }],
      ['-p', 'write', '--permission-mode', 'acceptEdits'],
    );
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(cwd, 'r.txt'), 'utf8')).toBe('abc');
  });

  it('arguments that end inside an unclosed string are refused as cut off, even when the reply ended normally', async () => {
    const { run, cwd, requests } = await withStandin(
      'anthropic',
      [{ toolCalls: [{ name: 'Write', arguments: '{"file_path":"r.txt","content":"abc' }] }, { text: 'Will resend.' }],
      ['-p', 'write', '--permission-mode', 'acceptEdits'],
    );
    expect(run.code).toBe(0);
    expect(existsSync(path.join(cwd, 'r.txt'))).toBe(false);
    expect(JSON.stringify(requests[1])).toMatch(/cut off.*nothing was run/);
  });
});

describe('wield -p: refused before anything is sent', () => {
  for (const prompt of ['', '   ', '\n\t']) {
    it(`an empty prompt (${JSON.stringify(prompt)}) is a usage error, exit 2`, async () => {
      const { run, requests } = await withStandin('anthropic', [{ text: 'never' }], ['-p', prompt]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/the prompt is empty/);
      expect(run.stderr).toContain('-p "');
      expect(run.stdout).toBe('');
      expect(requests).toHaveLength(0);
    });
  }

  it('an unusable --base-url is a setup error naming the value and the expected form, never retried', async () => {
    const { run, requests } = await withStandin('anthropic', [{ text: 'never' }], ['-p', 'hi', '--base-url', 'not-a-url']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"not-a-url" (from --base-url)');
    expect(run.stderr).toContain('http(s)://host[:port][/path]');
    expect(run.stderr).not.toMatch(/attempts|connection/i);
    expect(requests).toHaveLength(0);
  });

  for (const [dialect, variable] of [
    ['anthropic', 'ANTHROPIC_BASE_URL'],
    ['openai', 'OPENAI_BASE_URL'],
  ] as const) {
    it(`an unusable ${variable} is a setup error too`, async () => {
      const { run } = await withStandin(dialect, [{ text: 'never' }], ['-p', 'hi'], { [variable]: 'ftp://example.com/v1' });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`"ftp://example.com/v1" (from ${variable})`);
    });
  }
});
