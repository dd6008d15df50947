// The context managed during a run, end to end: the real SDKs against stand-ins that count tokens
// and refuse long prompts with each provider's own error, the real Read and Edit tools on real files.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent, type RunAgentOptions } from '../../../src/runtime/agent/loop.js';
import type { AgentEvent } from '../../../src/runtime/agent/events.js';
import { CLEARED_PREFIX } from '../../../src/runtime/context/clearing.js';
import { COMPACTED_HEADER } from '../../../src/runtime/context/compaction.js';
import { readTool } from '../../../src/coding/tools/read.js';
import { editTool } from '../../../src/coding/tools/edit.js';
import type { Message, ProviderName } from '../../../src/runtime/providers/types.js';
import { startStandin, type ScriptStep, type Standin, type StandinOptions } from '../../support/standin/index.js';
import { harness, prompt } from '../agent/scripted.js';
import { DIALECTS, providerFor } from '../providers/helpers.js';

let standin: Standin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

function toolResults(messages: readonly Message[]) {
  return messages.flatMap((m) => (m.role === 'user' ? m.content.filter((p) => p.type === 'tool_result') : []));
}

function resultText(part: ReturnType<typeof toolResults>[number]): string {
  return part.type === 'tool_result' ? part.content.map((b) => (b.type === 'text' ? b.text : '')).join('') : '';
}

async function run(
  dialect: ProviderName,
  script: (cwd: string) => ScriptStep[],
  options: Partial<RunAgentOptions> & { standin?: Partial<StandinOptions> },
  files: Record<string, string>,
) {
  const { standin: standinOptions, ...agentOptions } = options;
  const { rt, cwd } = harness([readTool(), editTool()]);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(cwd, name), text);
  standin = await startStandin({ dialect, script: script(cwd), countTokens: true, ...standinOptions });
  const provider = await providerFor(dialect, standin.url);
  const events: AgentEvent[] = [];
  const result = await runAgent({
    provider,
    model: 'claude-haiku-4-5',
    messages: [prompt('Work through the files.')],
    rt,
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
    ...agentOptions,
  });
  return { result, events, cwd, standin, rt };
}

/** Numbered lines so a cut shows where it happened. */
const big = (label: string, chars: number): string => {
  const lines: string[] = [];
  for (let i = 0, n = 0; n < chars; i++) {
    const line = `${label} line ${i} ${'.'.repeat(60)}`;
    lines.push(line);
    n += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
};

describe('turn budget', () => {
  it('keeps 8 parallel reads of 1 MB files within 200,000 characters together, each saying how to read the rest', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `big${i}.txt`);
    const files = Object.fromEntries(names.map((n) => [n, big(n, 1_000_000)]));
    const { result } = await run(
      'anthropic',
      (cwd) => [{ toolCalls: names.map((n) => ({ name: 'Read', arguments: { file_path: path.join(cwd, n) } })) }, { text: 'Read.' }],
      {},
      files,
    );
    expect(result.stopReason).toBe('end_turn');
    const results = toolResults(result.messages);
    expect(results).toHaveLength(8);
    const texts = results.map(resultText);
    expect(texts.reduce((sum, t) => sum + t.length, 0)).toBeLessThanOrEqual(200_000);
    for (const text of texts) {
      expect(text).toMatch(/Read more with Read \{"file_path": "[^"]+", "offset": \d+/);
      const file = /The full output is saved in (\S+?)\. /.exec(text)?.[1] ?? '';
      expect(existsSync(file)).toBe(true);
    }
  });
});

describe('clearing old results', () => {
  it('replaces the oldest results by stubs naming a spill file that holds the full text, keeping the last turns', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `f${i}.txt`);
    const files = Object.fromEntries(names.map((n) => [n, big(n, 16_000)]));
    const { result, events } = await run(
      'anthropic',
      (cwd) => [...names.map((n) => ({ toolCalls: [{ name: 'Read', arguments: { file_path: path.join(cwd, n) } }] })), { text: 'Done.' }],
      { context: { window: 40_000, compaction: false } },
      files,
    );
    expect(result.stopReason).toBe('end_turn');
    const cleared = events.filter((e) => e.type === 'context_cleared');
    expect(cleared.length).toBeGreaterThan(0);
    // Large steps: fewer clearing events than results cleared.
    expect(cleared.length).toBeLessThan(result.context.cleared);
    const texts = toolResults(result.messages).map(resultText);
    const stubs = texts.filter((t) => t.startsWith(CLEARED_PREFIX));
    expect(stubs.length).toBe(result.context.cleared);
    // The last turns are never cleared.
    expect(texts.slice(-2).some((t) => t.startsWith(CLEARED_PREFIX))).toBe(false);
    for (const stub of stubs) {
      expect(stub).toMatch(/Read \{"file_path":"[^"]+f\d\.txt"\}/);
      const file = /saved in (\S+);/.exec(stub)?.[1] ?? '';
      expect(readFileSync(file, 'utf8')).toMatch(/f\d\.txt line 0 /);
    }
  });
});

describe.each(DIALECTS)('compaction over %s', (dialect) => {
  it('compacts when the server refuses the prompt as too long, and continues the same run', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `f${i}.txt`);
    const files = Object.fromEntries(names.map((n) => [n, big(n, 20_000)]));
    const {
      result,
      events,
      standin: server,
    } = await run(
      dialect,
      (cwd) => [
        ...names.map((n) => ({ toolCalls: [{ name: 'Read', arguments: { file_path: path.join(cwd, n) } }] })),
        { text: 'All six read.' },
      ],
      // The window is set far above the server's limit, so only the refusal can trigger compaction.
      {
        context: { window: 1_000_000, clearing: false, turnBudget: false },
        standin: { contextLimit: 28_000, replyWithoutTools: { text: 'Summary: read the first files; nothing changed.' } },
      },
      files,
    );
    expect(result.stopReason).toBe('end_turn');
    expect(result.answer).toBe('All six read.');
    expect(server.refusedForLength()).toBe(1);
    expect(result.context.compactions).toBe(1);
    const compacted = events.find((e) => e.type === 'context_compacted');
    expect(compacted).toMatchObject({ reason: 'prompt_too_long' });
    // The summary request carries no tools.
    const summaryRequest = server.requests.find((body) => JSON.stringify(body).includes('Summarise this earlier part')) as Record<
      string,
      unknown
    >;
    expect(summaryRequest.tools).toBeUndefined();
    const first = result.messages[0].content[0];
    expect(first.type === 'text' && first.text.startsWith(COMPACTED_HEADER)).toBe(true);
    expect(first.type === 'text' && first.text).toContain('> Work through the files.');
    expect(result.context.compactionUsage.inputTokens).toBeGreaterThan(0);
  });
});

describe('compaction keeps the session usable', () => {
  it('an Edit after compaction of the Read before it still works (the file-read records stay valid)', async () => {
    const { result, cwd } = await run(
      'anthropic',
      (dir) => [
        { toolCalls: [{ name: 'Read', arguments: { file_path: path.join(dir, 'code.ts') } }] },
        { toolCalls: [{ name: 'Read', arguments: { file_path: path.join(dir, 'pad1.txt') } }] },
        { toolCalls: [{ name: 'Read', arguments: { file_path: path.join(dir, 'pad2.txt') } }] },
        { toolCalls: [{ name: 'Edit', arguments: { file_path: path.join(dir, 'code.ts'), old_string: 'OLD', new_string: 'NEW' } }] },
        { text: 'Edited.' },
      ],
      {
        context: { window: 16_000, clearing: false, turnBudget: false, compaction: { trigger: 0.5, keepTurns: 1 } },
        standin: { replyWithoutTools: { text: 'Summary: code.ts holds OLD.' } },
      },
      { 'code.ts': 'const x = "OLD";\n', 'pad1.txt': big('p1', 20_000), 'pad2.txt': big('p2', 20_000) },
    );
    expect(result.context.compactions).toBe(1);
    expect(result.stopReason).toBe('end_turn');
    const edit = toolResults(result.messages).at(-1);
    expect(edit?.type === 'tool_result' && edit.isError).toBe(false);
    expect(readFileSync(path.join(cwd, 'code.ts'), 'utf8')).toBe('const x = "NEW";\n');
  });

  it('a failed compaction leaves the history as it was and says why', async () => {
    const { result, events } = await run(
      'anthropic',
      (dir) => [
        { toolCalls: [{ name: 'Read', arguments: { file_path: path.join(dir, 'a.txt') } }] },
        { toolCalls: [{ name: 'Read', arguments: { file_path: path.join(dir, 'b.txt') } }] },
        { text: 'Went on without it.' },
      ],
      {
        context: { window: 12_000, clearing: false, turnBudget: false, compaction: { trigger: 0.5, keepTurns: 1 } },
        standin: {
          replyWithoutTools: {
            status: 400,
            body: { type: 'error', error: { type: 'invalid_request_error', message: 'summaries are off today' } },
          },
        },
      },
      { 'a.txt': big('a', 12_000), 'b.txt': big('b', 12_000) },
    );
    const failed = events.find((e) => e.type === 'context_compaction_failed');
    expect(failed).toMatchObject({
      message: expect.stringMatching(/Compaction failed, the session is left as it was: .*summaries are off today/),
    });
    expect(result.context.compactions).toBe(0);
    expect(result.answer).toBe('Went on without it.');
    expect(
      toolResults(result.messages)
        .map(resultText)
        .every((t) => !t.startsWith(CLEARED_PREFIX)),
    ).toBe(true);
    expect(result.messages[0]).toEqual(prompt('Work through the files.'));
  });
});
