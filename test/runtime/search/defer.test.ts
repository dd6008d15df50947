import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Message } from '../../../src/runtime/providers/types.js';
import { selectToolsForRequest, shouldDefer, estimateTokens } from '../../../src/runtime/search/defer.js';
import { formatSearchResult, discoveredToolNames, namesInResultText } from '../../../src/runtime/search/result-text.js';
import { renderDeferredSection } from '../../../src/runtime/search/section.js';
import { ToolIndex } from '../../../src/runtime/search/tool-index.js';
import { CORE, POOL, mcpTool } from './fixtures.js';

const ALL = [...CORE, ...POOL];
const names = (tools: { name: string }[]) => tools.map((t) => t.name);

/** History in which the model searched and got `found` back. */
function searched(found: string[], id = 'tu_1'): Message[] {
  const index = new ToolIndex();
  index.add(ALL);
  const text = formatSearchResult('q', index.search(`select:${found.join(',')}`, 10));
  return [
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id, name: 'ToolSearch', input: { query: 'q' } }] },
    {
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: id, toolName: 'ToolSearch', content: [{ type: 'text', text }], isError: false }],
    },
  ];
}

describe('deferral decision', () => {
  it('sends everything when the pool is small and cheap', () => {
    const selection = selectToolsForRequest(ALL, [], {});
    expect(names(selection.tools)).toEqual(names(ALL));
    expect(selection.deferred).toEqual([]);
    expect(selection.systemPromptSection).toBe('');
  });

  it('defers non-core tools past the tool count or the token budget, or never when disabled', () => {
    expect(shouldDefer(ALL, { maxLoadedTools: 5 })).toBe(true);
    const budgetTokens = estimateTokens(ALL);
    expect(shouldDefer(ALL, { contextTokens: budgetTokens * 10 - 100, budgetShare: 0.1 })).toBe(true);
    expect(shouldDefer(ALL, { contextTokens: budgetTokens * 10 + 100, budgetShare: 0.1 })).toBe(false);
    expect(shouldDefer(ALL, { maxLoadedTools: 1, enabled: false })).toBe(false);
    // The count is of the tools that could be deferred: core tools are sent anyway.
    expect(shouldDefer(ALL, { maxLoadedTools: POOL.length })).toBe(false);
    expect(shouldDefer(ALL, { maxLoadedTools: POOL.length - 1 })).toBe(true);

    const selection = selectToolsForRequest(ALL, [], { maxLoadedTools: 5 });
    expect(names(selection.tools)).toEqual(names(CORE));
    expect(names(selection.deferred)).toEqual(names(POOL));
  });

  it('always loads alwaysLoad tools and alwaysLoad servers', () => {
    const pinned = { ...mcpTool('notes', 'add_note', 'Add a note.'), alwaysLoad: true };
    const selection = selectToolsForRequest([...ALL, pinned], [], { maxLoadedTools: 5, alwaysLoadServers: ['slack'] });
    expect(names(selection.tools)).toEqual([
      ...names(CORE),
      'mcp__slack__send_message',
      'mcp__slack__list_channels',
      'mcp__notes__add_note',
    ]);
    expect(selection.deferred.some((t) => t.server === 'slack')).toBe(false);
  });

  it('always loads core tools, whatever the pool', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(ALL), fc.integer({ min: 0, max: 40 }), (pool, max) => {
        const selection = selectToolsForRequest(pool, [], { maxLoadedTools: max });
        for (const tool of pool.filter((t) => CORE.includes(t))) expect(selection.tools).toContain(tool);
        expect(selection.tools.length + selection.deferred.length).toBe(pool.length);
      }),
    );
  });
});

describe('loaded set derived from history', () => {
  it('adds tools found by ToolSearch, in first-found order, after the core tools', () => {
    const history = [
      ...searched(['mcp__weather__getForecast', 'mcp__github__create_issue']),
      ...searched(['mcp__slack__send_message', 'mcp__weather__getForecast'], 'tu_2'),
    ];
    const selection = selectToolsForRequest(ALL, history, { maxLoadedTools: 5 });
    expect(names(selection.tools)).toEqual([
      ...names(CORE),
      'mcp__weather__getForecast',
      'mcp__github__create_issue',
      'mcp__slack__send_message',
    ]);
    expect(names(selection.deferred)).not.toContain('mcp__weather__getForecast');
  });

  it('a resumed session (same messages, e.g. after a JSON round trip) gets the same tools and prompt', () => {
    const history = searched(['mcp__movies__searchFilms', 'mcp__calendar__create_event']);
    const first = selectToolsForRequest(ALL, history, { maxLoadedTools: 5 });
    const resumed = selectToolsForRequest([...ALL].reverse().reverse(), JSON.parse(JSON.stringify(history)) as Message[], {
      maxLoadedTools: 5,
    });
    expect(names(resumed.tools)).toEqual(names(first.tools));
    expect(resumed.systemPromptSection).toBe(first.systemPromptSection);
  });

  it('ignores failed searches, other tools’ results, and names not in the pool', () => {
    const history = searched(['mcp__weather__getForecast']);
    const failed = history.map((m) =>
      m.role === 'user' ? { ...m, content: m.content.map((p) => (p.type === 'tool_result' ? { ...p, isError: true } : p)) } : m,
    ) as Message[];
    expect(discoveredToolNames(failed)).toEqual(['ToolSearch']);
    const other: Message[] = [
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: 'x',
            toolName: 'Bash',
            content: [{ type: 'text', text: '1. mcp__slack__send_message' }],
            isError: false,
          },
        ],
      },
    ];
    expect(discoveredToolNames(other)).toEqual([]);
    const selection = selectToolsForRequest(ALL, searched(['mcp__weather__getForecast']).concat(other), { maxLoadedTools: 5 });
    expect(names(selection.tools)).not.toContain('mcp__slack__send_message');
  });

  it('a deferred tool called by name without a search stays resolvable and is loaded afterwards', () => {
    const before = selectToolsForRequest(ALL, [], { maxLoadedTools: 5 });
    expect(names(before.deferred)).toContain('mcp__finance__stock_quote');
    const history: Message[] = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'mcp__finance__stock_quote', input: { symbol: 'X' } }] },
    ];
    const after = selectToolsForRequest(ALL, history, { maxLoadedTools: 5 });
    expect(names(after.tools)).toContain('mcp__finance__stock_quote');
  });

  it('result text round-trips the names it lists', () => {
    const index = new ToolIndex();
    index.add(ALL);
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (query) => {
        const result = index.search(query, 5);
        expect(namesInResultText(formatSearchResult(query, result))).toEqual(result.hits.map((h) => h.name));
      }),
    );
  });
});

describe('system prompt section', () => {
  it('lists servers with counts and summaries, explains the query syntax, not one line per tool', () => {
    const { systemPromptSection: text } = selectToolsForRequest(ALL, [], {
      maxLoadedTools: 5,
      serverDescriptions: { github: 'Issues, pull requests and code search' },
    });
    expect(text).toContain('- github (3 tools): Issues, pull requests and code search');
    expect(text).toMatch(/- weather \(2 tools\): Weather forecast for a city/);
    expect(text).toContain('select:');
    expect(text).toContain('+word');
    expect(text).toMatch(/called directly by its exact name/);
    expect(text).not.toContain('mcp__github__create_issue');
  });

  it('stays within its budget with thousands of tools on hundreds of servers', () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      mcpTool(`server_number_${i % 700}`, `tool_${i}`, `Does thing number ${i} with some words.`),
    );
    const text = renderDeferredSection(many, { maxChars: 12_000 });
    expect(text.length).toBeLessThanOrEqual(12_000);
    expect(text).toMatch(/more servers \(\d+ tools\); ToolSearch searches them too/);
    const few = renderDeferredSection(many.slice(0, 40), { maxChars: 12_000 });
    expect(few).toMatch(/server_number_1 \(1 tool\): Does thing number 1/);
  });
});
