// Anthropic deferred tools for what ToolSearch loads: the real SDK against the stand-in, which
// bills by Anthropic's caching rules (a deferred tool is rendered where its tool_reference is).
// With them, loading a tool mid-session leaves the cached prefix whole; appended instead, the
// history after the tools is written again; a server without the feature is detected and the
// request sent again the old way.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import { runAgent } from '../../../src/runtime/agent/loop.js';
import { placeCacheBreakpoints } from '../../../src/runtime/context/breakpoints.js';
import { isDeferredToolsRefusal, withDeferredTools } from '../../../src/runtime/providers/anthropic-deferred.js';
import type { DeferredToolsMode } from '../../../src/runtime/providers/types.js';
import { selectToolsForRequest } from '../../../src/runtime/search/defer.js';
import { ToolIndex } from '../../../src/runtime/search/tool-index.js';
import { createToolSearchTool } from '../../../src/runtime/search/tool.js';
import { AnthropicCacheSimulator } from '../../support/cache-simulator.js';
import { startStandin, type Standin } from '../../support/standin/index.js';
import { harness, prompt } from '../agent/scripted.js';
import { CORE, POOL } from '../search/fixtures.js';
import { providerFor } from './helpers.js';

let standin: Standin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

const FORECAST = 'mcp__weather__getForecast';
type Body = { tools: Record<string, unknown>[]; messages: { role: string; content: Record<string, unknown>[] }[] };

async function session(mode: DeferredToolsMode | undefined, options: { serverSupports?: boolean } = {}) {
  const index = new ToolIndex();
  const tools = [...CORE.filter((t) => t.name !== 'ToolSearch'), createToolSearchTool(() => index), ...POOL];
  index.sync(tools);
  const { rt } = harness(tools);
  standin = await startStandin({
    dialect: 'anthropic',
    countTokens: true,
    deferredTools: options.serverSupports,
    script: [
      { toolCalls: [{ name: 'ToolSearch', arguments: { query: `select:${FORECAST}` } }] },
      { toolCalls: [{ name: FORECAST, arguments: { city: 'Oslo' } }] },
      { text: 'Sunny.' },
    ],
  });
  const result = await runAgent({
    provider: await providerFor('anthropic', standin.url),
    model: 'claude-haiku-4-5',
    messages: [prompt('Weather in Oslo?')],
    // Over the 1,024-token minimum, so the first request's prefix is cached.
    system: `You answer questions about the weather.\n${'Keep answers short. '.repeat(300)}`,
    rt,
    signal: new AbortController().signal,
    selectTools: (pool, messages) => selectToolsForRequest(pool, messages, { maxLoadedTools: 5 }),
    context: { cache: { deferredTools: mode } },
  });
  const bodies = standin.requests as Body[];
  const simulator = new AnthropicCacheSimulator();
  const bills = bodies.map((body) => simulator.bill(body as unknown as Record<string, unknown>));
  return { result, bodies, bills, headers: standin.headers };
}

const toolNamed = (body: Body, name: string) => body.tools.find((t) => t.name === name);
const searchResult = (body: Body) => body.messages[2].content[0];

describe('deferred tools (Anthropic)', () => {
  it('by default, loads the found tool by reference: the request after the search reads the whole prefix back', async () => {
    const { result, bodies, bills, headers } = await session(undefined);
    expect(result.stopReason).toBe('end_turn');
    expect(result.toolCalls).toBe(2);
    expect(bodies).toHaveLength(3);
    expect(toolNamed(bodies[0], FORECAST)).toBeUndefined();
    expect(toolNamed(bodies[1], FORECAST)).toMatchObject({ defer_loading: true });
    expect(toolNamed(bodies[1], FORECAST)?.cache_control).toBeUndefined();
    expect(searchResult(bodies[1])).toMatchObject({ type: 'tool_result', content: [{ type: 'tool_reference', tool_name: FORECAST }] });
    expect(headers[1]['anthropic-beta']).toBe('advanced-tool-use-2025-11-20');
    expect(headers[0]['anthropic-beta']).toBeUndefined();
    // The rendered tools are the same before and after the search, so nothing cached is lost.
    expect(bills[1].cacheReadTokens).toBe(bills[0].totalTokens);
    expect(bills[2].cacheReadTokens).toBe(bills[1].totalTokens);
  });

  it("'off' appends the found tool instead: its definition enters the prefix and what follows is written again", async () => {
    const { result, bodies, bills, headers } = await session('off');
    expect(result.stopReason).toBe('end_turn');
    expect(toolNamed(bodies[1], FORECAST)).toBeDefined();
    expect(toolNamed(bodies[1], FORECAST)?.defer_loading).toBeUndefined();
    expect(bodies[1].tools.at(-1)?.name).toBe(FORECAST);
    expect(JSON.stringify(bodies)).not.toContain('tool_reference');
    expect(headers[1]['anthropic-beta']).toBeUndefined();
    // Only the tools before the new one are read back: the system prompt and the history are written again.
    expect(bills[1].cacheReadTokens).toBeLessThan(bills[0].totalTokens);
    expect(bills[1].cacheWriteTokens).toBeGreaterThan(bills[1].totalTokens - bills[0].totalTokens);
  });

  it("'auto' detects a server without the feature (400), sends the request again with the tool appended, and remembers", async () => {
    const { result, bodies } = await session('auto', { serverSupports: false });
    expect(result.stopReason).toBe('end_turn');
    expect(result.toolCalls).toBe(2);
    // 1: before the search; 2: refused (defer_loading); 3: the same turn, appended; 4: no second try.
    expect(bodies).toHaveLength(4);
    expect(toolNamed(bodies[1], FORECAST)).toMatchObject({ defer_loading: true });
    expect(toolNamed(bodies[2], FORECAST)?.defer_loading).toBeUndefined();
    expect(toolNamed(bodies[3], FORECAST)?.defer_loading).toBeUndefined();
  });

  it("'on' does not fall back: the server's refusal is the run's error", async () => {
    const { result, bodies } = await session('on', { serverSupports: false });
    expect(result.stopReason).toBe('error');
    expect(result.error).toMatch(/defer_loading: Extra inputs are not permitted/);
    expect(bodies).toHaveLength(2);
  });
});

describe('deferred tools: the request shape', () => {
  const params = (): Anthropic.MessageCreateParamsStreaming => ({
    model: 'm',
    max_tokens: 10,
    stream: true,
    system: 'sys',
    tools: [
      { name: 'Read', input_schema: { type: 'object' } },
      { name: 'ToolSearch', input_schema: { type: 'object' } },
      { name: 'slack_send', input_schema: { type: 'object' } },
    ],
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'slack' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [{ type: 'text', text: 'Found 2 tools; …\n1. slack_send — Send.\n2. Read — Reads.' }],
          },
        ],
      },
    ],
  });

  it('defers only the tools a search loaded, references them in ToolSearch order, and keeps the tools breakpoint on a rendered tool', () => {
    const shaped = placeCacheBreakpoints(withDeferredTools(params(), new Set(['slack_send'])), '5m');
    expect(shaped.tools?.map((t) => ('defer_loading' in t ? t.defer_loading : undefined))).toEqual([undefined, undefined, true]);
    expect(shaped.tools?.[1]).toHaveProperty('cache_control');
    expect(shaped.tools?.[2]).not.toHaveProperty('cache_control');
    const result = (shaped.messages[2].content as Anthropic.ToolResultBlockParam[])[0];
    // Read is not deferred (it is always loaded), so only slack_send is referenced.
    expect(result.content).toEqual([{ type: 'tool_reference', tool_name: 'slack_send' }]);
    expect(withDeferredTools(params(), new Set())).toEqual(params());
  });

  it('for any history of searches, references only deferred tools the request defines, and changes nothing else', () => {
    const names = ['Read', 'slack_send', 'gh_issue', 'weather'];
    fc.assert(
      fc.property(
        fc.array(fc.record({ found: fc.subarray(names), isError: fc.boolean() }), { maxLength: 6 }),
        fc.subarray(names),
        (searches, loaded) => {
          const base = params();
          const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'go' }];
          searches.forEach((search, i) => {
            messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `s${i}`, name: 'ToolSearch', input: {} }] });
            const text = search.found.map((name, n) => `${n + 1}. ${name} — does things.`).join('\n') || 'No tools matched "x".';
            messages.push({
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: `s${i}`,
                  content: [{ type: 'text', text }],
                  ...(search.isError ? { is_error: true } : {}),
                },
              ],
            });
          });
          const tools = names.map((name) => ({ name, input_schema: { type: 'object' as const } }));
          const input = { ...base, tools, messages };
          const out = withDeferredTools(input, new Set(loaded));
          const deferred = new Set(
            (out.tools ?? []).filter((t) => 'defer_loading' in t && t.defer_loading).map((t) => ('name' in t ? t.name : '')),
          );
          expect([...deferred].sort()).toEqual([...loaded].sort());
          expect(out.messages).toHaveLength(messages.length);
          searches.forEach((search, i) => {
            const block = (out.messages[2 + 2 * i].content as Anthropic.ToolResultBlockParam[])[0];
            const expected = search.found.filter((name) => loaded.includes(name));
            if (!search.isError && expected.length > 0)
              expect(block.content).toEqual(expected.map((tool_name) => ({ type: 'tool_reference', tool_name })));
            else expect(block).toEqual((messages[2 + 2 * i].content as Anthropic.ContentBlockParam[])[0]);
          });
          out.messages.forEach((message, i) => {
            expect(message.role).toBe(messages[i].role);
            if (typeof message.content === 'string') return;
            for (const block of message.content) {
              if (block.type !== 'tool_result' || !Array.isArray(block.content)) continue;
              for (const part of block.content) if (part.type === 'tool_reference') expect(deferred.has(part.tool_name)).toBe(true);
              if (block.is_error) expect(block).toEqual((messages[i].content as Anthropic.ContentBlockParam[])[0]);
            }
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('knows a refusal of the feature from other 400s', () => {
    const error = (status: number, message: string) => Object.assign(new Error(message), { status });
    expect(isDeferredToolsRefusal(error(400, '400 tools.2.custom.defer_loading: Extra inputs are not permitted'))).toBe(true);
    expect(isDeferredToolsRefusal(error(400, '400 messages.2.content.0.content.0: unknown type tool_reference'))).toBe(true);
    expect(isDeferredToolsRefusal(error(400, '400 prompt is too long: 210000 tokens > 200000 maximum'))).toBe(false);
    expect(isDeferredToolsRefusal(error(500, '500 defer_loading'))).toBe(false);
  });
});
