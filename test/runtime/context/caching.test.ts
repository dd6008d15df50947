// Prompt caching end to end: the real SDKs against the stand-ins, the real Read tool on real
// files. Request N+1 must repeat request N's prefix byte for byte, and usage and cost add up.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../../src/runtime/agent/loop.js';
import type { AgentEvent } from '../../../src/runtime/agent/events.js';
import { costUsd, priceFor } from '../../../src/runtime/context/pricing.js';
import { readTool } from '../../../src/coding/tools/read.js';
import type { ProviderName } from '../../../src/runtime/providers/types.js';
import { startStandin, type ScriptStep, type Standin } from '../../support/standin/index.js';
import { renderBlocks } from '../../support/cache-simulator.js';
import { harness, prompt } from '../agent/scripted.js';
import { DIALECTS, providerFor } from '../providers/helpers.js';

let standin: Standin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

function readScript(files: string[]): ScriptStep[] {
  return [...files.map((file) => ({ toolCalls: [{ name: 'Read', arguments: { file_path: file } }] })), { text: 'All read.' }];
}

async function session(dialect: ProviderName, model: string, turns = 4) {
  const { rt, cwd } = harness([readTool()]);
  const files = Array.from({ length: turns }, (_, i) => {
    const file = path.join(cwd, `f${i}.txt`);
    writeFileSync(file, `line ${i}\n`.repeat(200));
    return file;
  });
  standin = await startStandin({ dialect, script: readScript(files), countTokens: true, model });
  const provider = await providerFor(dialect, standin.url);
  const events: AgentEvent[] = [];
  const result = await runAgent({
    provider,
    model,
    messages: [prompt('Read the files one by one.')],
    rt,
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
  });
  return { result, events, bodies: standin.rawBodies.map((raw) => JSON.parse(raw) as Record<string, unknown>), sessionId: rt.session.id };
}

describe('Anthropic prompt caching', () => {
  it('repeats the previous request’s blocks byte for byte and reads them from the cache', async () => {
    const { result, bodies } = await session('anthropic', 'claude-haiku-4-5');
    expect(result.stopReason).toBe('end_turn');
    expect(bodies).toHaveLength(5);
    for (let n = 0; n + 1 < bodies.length; n++) {
      const before = renderBlocks(bodies[n]).map((b) => b.json);
      const after = renderBlocks(bodies[n + 1]).map((b) => b.json);
      expect(after.slice(0, before.length)).toEqual(before);
    }
    // From the second request on, everything up to the previous newest message is read back.
    expect(result.usage.cacheReadTokens).toBeGreaterThan(0);
    expect(result.usage.cacheWriteTokens).toBeGreaterThan(0);
  });

  it('adds up usage and list-price cost per turn into the run’s totals and its usage events', async () => {
    const { result, events } = await session('anthropic', 'claude-haiku-4-5');
    const usages = events.filter((e): e is Extract<AgentEvent, { type: 'usage' }> => e.type === 'usage');
    expect(usages.map((u) => u.turn)).toEqual([1, 2, 3, 4, 5]);
    const sum = (key: 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens') =>
      usages.reduce((total, u) => total + (u.usage[key] ?? 0), 0);
    expect(result.usage).toEqual({
      inputTokens: sum('inputTokens'),
      outputTokens: sum('outputTokens'),
      cacheReadTokens: sum('cacheReadTokens'),
      cacheWriteTokens: sum('cacheWriteTokens'),
    });
    const price = priceFor('claude-haiku-4-5');
    const expected = usages.reduce((total, u) => total + (costUsd(u.usage, price) ?? 0), 0);
    expect(result.costUsd).toBeCloseTo(expected, 10);
    expect(usages.at(-1)?.costUsd).toBeCloseTo(expected, 10);
    // Cached reads make it cheaper than the same tokens uncached.
    expect(result.costUsd).toBeLessThan(
      costUsd({ inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens }, price) ?? 0,
    );
    expect(usages.at(-1)).toMatchObject({ contextWindow: 200_000, contextTokens: expect.any(Number) });
  });

  it('leaves the cost undefined for a model without a known price', async () => {
    const { result } = await session('anthropic', 'standin-model', 1);
    expect(result.costUsd).toBeUndefined();
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });
});

describe.each(DIALECTS.filter((d) => d !== 'anthropic'))('%s prompt caching', (dialect) => {
  it('sends the session id as prompt_cache_key and keeps every earlier item unchanged', async () => {
    const { result, bodies, sessionId } = await session(dialect, 'gpt-5.4');
    expect(result.stopReason).toBe('end_turn');
    for (const body of bodies) expect(body.prompt_cache_key).toBe(sessionId);
    const items = (body: Record<string, unknown>) => ((body.messages ?? body.input) as unknown[]).map((item) => JSON.stringify(item));
    for (let n = 0; n + 1 < bodies.length; n++) {
      expect(JSON.stringify(bodies[n + 1].tools)).toBe(JSON.stringify(bodies[n].tools));
      expect(bodies[n + 1].instructions).toEqual(bodies[n].instructions);
      expect(items(bodies[n + 1]).slice(0, items(bodies[n]).length)).toEqual(items(bodies[n]));
    }
    // The automatic prefix cache reports cached tokens once the prefix is long enough.
    expect(result.usage.cacheReadTokens).toBeGreaterThan(0);
    expect(result.costUsd).toBeGreaterThan(0);
  });
});

describe('no cache option', () => {
  it('sends no breakpoints and no prompt_cache_key when caching is turned off', async () => {
    const { rt } = harness([readTool()]);
    standin = await startStandin({ dialect: 'anthropic', script: [{ text: 'hi' }] });
    const provider = await providerFor('anthropic', standin.url);
    await runAgent({
      provider,
      model: 'm',
      messages: [prompt('hi')],
      rt,
      signal: new AbortController().signal,
      context: { cache: false },
    });
    expect(standin.rawBodies[0]).not.toContain('cache_control');
  });
});
