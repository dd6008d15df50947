// What loading a tool mid-session costs, with Anthropic deferred tools and without: runAgent
// (in process) against the Anthropic stand-in, 5 small Reads, a ToolSearch that loads one MCP
// tool, a call to it, 5 more Reads and the answer (13 requests), billed by the simulator
// (test/support/cache-simulator.ts: a deferred tool is rendered where its tool_reference is).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { readTool } from '../src/coding/tools/read.js';
import { runAgent } from '../src/runtime/agent/loop.js';
import type { DeferredToolsMode } from '../src/runtime/providers/types.js';
import { selectToolsForRequest } from '../src/runtime/search/defer.js';
import { ToolIndex } from '../src/runtime/search/tool-index.js';
import { createToolSearchTool } from '../src/runtime/search/tool.js';
import { AnthropicCacheSimulator } from '../test/support/cache-simulator.js';
import { startStandin, type ScriptStep } from '../test/support/standin/index.js';
import { harness, prompt } from '../test/runtime/agent/scripted.js';
import { providerFor } from '../test/runtime/providers/helpers.js';
import { CORE, POOL } from '../test/runtime/search/fixtures.js';

const LOADED = 'mcp__weather__getForecast';

async function run(mode: DeferredToolsMode, serverSupports: boolean): Promise<Record<string, unknown>> {
  const index = new ToolIndex();
  const tools = [
    readTool(),
    ...CORE.filter((t) => t.name !== 'Read' && t.name !== 'ToolSearch'),
    createToolSearchTool(() => index),
    ...POOL,
  ];
  index.sync(tools);
  const { rt, cwd } = harness(tools);
  for (let i = 0; i < 10; i++) writeFileSync(path.join(cwd, `small${i}.ts`), `export const value${i} = ${i};\n`.repeat(40));
  const read = (i: number): ScriptStep => ({ toolCalls: [{ name: 'Read', arguments: { file_path: path.join(cwd, `small${i}.ts`) } }] });
  const standin = await startStandin({
    dialect: 'anthropic',
    countTokens: true,
    deferredTools: serverSupports,
    script: [
      ...[0, 1, 2, 3, 4].map(read),
      { toolCalls: [{ name: 'ToolSearch', arguments: { query: `select:${LOADED}` } }] },
      { toolCalls: [{ name: LOADED, arguments: { city: 'Oslo' } }] },
      ...[5, 6, 7, 8, 9].map(read),
      { text: 'Done.' },
    ],
  });
  try {
    const result = await runAgent({
      provider: await providerFor('anthropic', standin.url),
      model: 'claude-haiku-4-5',
      messages: [prompt('Read the files and check the weather.')],
      rt,
      signal: new AbortController().signal,
      maxTurns: 30,
      selectTools: (pool, messages) => selectToolsForRequest(pool, messages, { maxLoadedTools: 10 }),
      context: { cache: { deferredTools: mode } },
    });
    const simulator = new AnthropicCacheSimulator();
    let billed = 0;
    let total = 0;
    // A request the server refused (the feature it lacks) is not billed.
    const answered = (standin.requests as Record<string, unknown>[]).filter(
      (body) => serverSupports || !JSON.stringify(body).includes('"defer_loading"'),
    );
    const bills = answered.map((body) => simulator.bill(body));
    for (const bill of bills) {
      billed += bill.billed;
      total += bill.totalTokens;
    }
    // The request right after the search: the first one that carries the loaded tool.
    const after = bills.findIndex((_, i) => JSON.stringify(answered[i]).includes(`"name":"${LOADED}"`));
    return {
      stopReason: result.stopReason,
      requests: standin.requests.length,
      refused: standin.requests.length - answered.length,
      billedInputTokens: Math.round(billed),
      uncachedInputTokens: total,
      ratio: Number((billed / total).toFixed(3)),
      requestAfterLoading: after < 0 ? undefined : { cacheRead: bills[after].cacheReadTokens, cacheWrite: bills[after].cacheWriteTokens },
    };
  } finally {
    await standin.close();
  }
}

export async function toolLoading(): Promise<Record<string, unknown>> {
  const byReference = await run('auto', true);
  const appended = await run('off', true);
  const fallback = await run('auto', false);
  const extra = Number(appended.billedInputTokens) - Number(byReference.billedInputTokens);
  return { byReference, appended, autoOnAServerWithoutTheFeature: fallback, appendingCostsExtraTokens: extra };
}
