// Scripts written for Claude Code's headless mode: stream-json's event shapes, ANTHROPIC_AUTH_TOKEN
// and the *_MODEL variables, and --thinking / --effort in each dialect, against stand-in servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type ScriptStep, type StandinDialect } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

async function withStandin(dialect: StandinDialect, script: ScriptStep[], args: string[], env: Record<string, string> = {}) {
  const cwd = tempDir('wield-compat-cwd-');
  writeFileSync(path.join(cwd, 'notes.txt'), 'hello\n');
  const standin = await startStandin({ dialect, script });
  try {
    const run = await runCli(cli, args, {
      cwd,
      env: cleanEnv(tempDir('wield-compat-home-'), { ...providerEnv(dialect, standin.url), ...env }),
    });
    return { run, cwd, requests: standin.requests as Record<string, unknown>[], headers: standin.headers };
  } finally {
    await standin.close();
  }
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("stream-json in Claude Code's shapes", () => {
  it('prints system/init, assistant, user (tool results) and a result line with subtype, num_turns, usage and cost', async () => {
    const { run, cwd } = await withStandin(
      'anthropic',
      [{ toolCalls: [{ name: 'Read', arguments: { file_path: 'notes.txt' } }] }, { text: 'It says hello.' }],
      [...providerArgs('anthropic'), '-p', 'read the notes', '--output-format', 'stream-json'],
    );
    expect(run.code).toBe(0);
    const events = lines(run.stdout);
    expect(events.map((e) => e.type)).toEqual(['system', 'assistant', 'user', 'assistant', 'result']);
    const [init, call, results, answer, result] = events;
    const sessionId = init.session_id;
    expect(init).toMatchObject({ subtype: 'init', cwd, model: 'standin-model', tools: expect.arrayContaining(['Read', 'Bash']) });
    expect(call).toMatchObject({
      session_id: sessionId,
      parent_tool_use_id: null,
      message: { role: 'assistant', content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'notes.txt' } }] },
    });
    expect(results).toMatchObject({ message: { role: 'user', content: [{ type: 'tool_result', is_error: false }] } });
    expect(JSON.stringify(results)).toContain('hello');
    expect(answer).toMatchObject({ message: { content: [{ type: 'text', text: 'It says hello.' }] } });
    expect(result).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'It says hello.',
      num_turns: 2,
      session_id: sessionId,
      total_cost_usd: expect.any(Number),
      usage: { input_tokens: 20, output_tokens: 10 },
    });
  });

  it('reports a turn limit as error_max_turns and a denied call in permission_denials', async () => {
    const { run } = await withStandin(
      'openai',
      [{ toolCalls: [{ name: 'Bash', arguments: { command: 'rm -rf build' } }] }],
      [...providerArgs('openai'), '-p', 'clean', '--max-turns', '1', '--output-format', 'stream-json'],
    );
    expect(run.code).toBe(1);
    const result = lines(run.stdout).at(-1);
    expect(result).toMatchObject({ type: 'result', subtype: 'error_max_turns', is_error: true, num_turns: 1 });
    expect(result?.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Bash' })]);
  });
});

describe('environment as Claude Code and OpenAI tools set it', () => {
  it('sends ANTHROPIC_AUTH_TOKEN as a bearer token (and no x-api-key) and reads ANTHROPIC_MODEL', async () => {
    const { run, requests, headers } = await withStandin('anthropic', [{ text: 'ok' }], ['-p', 'hi'], {
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_AUTH_TOKEN: 'gateway-token',
      ANTHROPIC_MODEL: 'claude-from-env',
    });
    expect(run.code).toBe(0);
    expect(headers[0].authorization).toBe('Bearer gateway-token');
    expect(headers[0]['x-api-key']).toBeUndefined();
    expect(requests[0].model).toBe('claude-from-env');
  });

  it('reads OPENAI_MODEL; --model and WIELD_MODEL still come first', async () => {
    const fromEnv = await withStandin('openai', [{ text: 'ok' }], ['-p', 'hi'], { OPENAI_MODEL: 'gpt-from-env' });
    expect(fromEnv.requests[0].model).toBe('gpt-from-env');
    const wield = await withStandin('openai', [{ text: 'ok' }], ['-p', 'hi'], { OPENAI_MODEL: 'gpt-from-env', WIELD_MODEL: 'wield-model' });
    expect(wield.requests[0].model).toBe('wield-model');
  });
});

describe('--thinking and --effort', () => {
  it('asks Anthropic for extended thinking and sends the signed thinking block back with the tool result', async () => {
    const { run, requests } = await withStandin(
      'anthropic',
      [
        {
          thinking: { thinking: 'The notes file should say it.', signature: 'sig-abc123' },
          toolCalls: [{ name: 'Read', arguments: { file_path: 'notes.txt' } }],
        },
        { text: 'It says hello.' },
      ],
      [...providerArgs('anthropic'), '-p', 'read the notes', '--thinking', '2048'],
    );
    expect(run.code).toBe(0);
    expect(requests[0].thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(requests[0].max_tokens as number).toBeGreaterThan(2048);
    const messages = requests[1].messages as { role: string; content: { type: string }[] }[];
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The notes file should say it.', signature: 'sig-abc123' },
        expect.objectContaining({ type: 'tool_use', name: 'Read' }),
      ],
    });
  });

  it('maps --effort to an Anthropic budget and to reasoning_effort (Chat)', async () => {
    const anthropic = await withStandin('anthropic', [{ text: 'ok' }], [...providerArgs('anthropic'), '-p', 'hi', '--effort', 'high']);
    expect(anthropic.requests[0].thinking).toEqual({ type: 'enabled', budget_tokens: 32_000 });
    const chat = await withStandin('openai', [{ text: 'ok' }], [...providerArgs('openai'), '-p', 'hi', '--effort', 'low']);
    expect(chat.requests[0].reasoning_effort).toBe('low');
  });

  it('maps --thinking to reasoning.effort (Responses); without either flag nothing is asked for', async () => {
    const responses = await withStandin(
      'openai-responses',
      [{ text: 'ok' }],
      [...providerArgs('openai-responses'), '-p', 'hi', '--thinking'],
    );
    expect(responses.requests[0].reasoning).toEqual({ effort: 'medium' });
    // Without either flag nothing is asked for.
    const plain = await withStandin('openai', [{ text: 'ok' }], [...providerArgs('openai'), '-p', 'hi']);
    expect(plain.requests[0]).not.toHaveProperty('reasoning_effort');
  });

  it('a thinking budget under the minimum is a usage error', async () => {
    const { run, requests } = await withStandin('anthropic', [], [...providerArgs('anthropic'), '-p', 'hi', '--thinking', '100']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('expected a token budget of 1024 or more');
    expect(requests).toHaveLength(0);
  });
});
