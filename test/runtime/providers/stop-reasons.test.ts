// Why a reply ended, per dialect, over the wire of the stand-in server: cut off by a token limit
// (max_tokens) and refused or filtered (refusal) are told apart from a finished reply.
import { afterEach, describe, expect, it } from 'vitest';
import { startStandin, type Standin, type StandinDialect } from '../../support/standin/index.js';
import { baseUrlProblem } from '../../../src/runtime/providers/config.js';
import { collect, ends, providerFor, request } from './helpers.js';

let standin: Standin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

async function lastEvent(dialect: StandinDialect, step: Parameters<typeof startStandin>[0]['script'][number]) {
  standin = await startStandin({ dialect, script: [step] });
  const provider = await providerFor(dialect, standin.url);
  const events = await collect(provider.stream(request(), new AbortController().signal));
  return { events, last: events.at(-1) };
}

describe('stop reasons', () => {
  const cases: [StandinDialect, string, string][] = [
    ['anthropic', 'max_tokens', 'max_tokens'],
    ['anthropic', 'model_context_window_exceeded', 'max_tokens'],
    ['anthropic', 'refusal', 'refusal'],
    ['openai', 'length', 'max_tokens'],
    ['openai', 'content_filter', 'refusal'],
    ['openai-responses', 'max_output_tokens', 'max_tokens'],
    ['openai-responses', 'content_filter', 'refusal'],
  ];
  for (const [dialect, wire, expected] of cases) {
    it(`${dialect}: "${wire}" is ${expected}`, async () => {
      const { last } = await lastEvent(dialect, { text: 'partial', stopReason: wire });
      expect(last).toMatchObject({ type: 'message_end', stopReason: expected });
    });
  }

  for (const dialect of ['anthropic', 'openai', 'openai-responses'] as const) {
    it(`${dialect}: a call cut off at the limit ends with its partial arguments and max_tokens`, async () => {
      const wire = dialect === 'anthropic' ? 'max_tokens' : dialect === 'openai' ? 'length' : 'max_output_tokens';
      const partial = '{"file_path":"t.txt","content":"abc';
      const { events, last } = await lastEvent(dialect, { toolCalls: [{ name: 'Write', arguments: partial }], stopReason: wire });
      expect(ends(events)).toEqual([expect.objectContaining({ name: 'Write', input: partial })]);
      expect(last).toMatchObject({ stopReason: 'max_tokens' });
    });
  }
});

describe('baseUrlProblem', () => {
  it('accepts absolute http(s) URLs with any port and path', () => {
    for (const url of [
      'http://localhost:11434/v1',
      'https://api.anthropic.com',
      'http://127.0.0.1:8080',
      'https://proxy.example/openai/v1/',
    ]) {
      expect(baseUrlProblem(url, '--base-url')).toBeUndefined();
    }
  });

  it('names the bad value, where it came from and the expected form', () => {
    for (const url of ['not-a-url', 'localhost:11434', 'ftp://host/x', 'file:///tmp/x', 'http://', '/v1']) {
      const problem = baseUrlProblem(url, 'OPENAI_BASE_URL');
      expect(problem).toContain(JSON.stringify(url));
      expect(problem).toContain('OPENAI_BASE_URL');
      expect(problem).toContain('http(s)://host[:port][/path]');
    }
  });
});
