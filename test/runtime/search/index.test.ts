import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ToolIndex } from '../../../src/runtime/search/tool-index.js';
import { POOL, mcpTool } from './fixtures.js';

function names(index: ToolIndex, query: string, k = 5): string[] {
  return index.search(query, k).hits.map((h) => h.name);
}

describe('ToolIndex ranking on a fixed pool', () => {
  const index = new ToolIndex();
  index.add(POOL);

  it('puts an exact name first, full or without the server prefix', () => {
    expect(names(index, 'mcp__slack__list_channels')[0]).toBe('mcp__slack__list_channels');
    expect(names(index, 'getForecast')[0]).toBe('mcp__weather__getForecast');
  });

  it('ranks by words from names, descriptions, servers and parameters', () => {
    expect(names(index, 'open a github issue')[0]).toBe('mcp__github__create_issue');
    expect(names(index, 'post something to slack')[0]).toBe('mcp__slack__send_message');
    expect(names(index, 'what is the humidity outside')[0]).toBe('mcp__weather__getCurrentConditions');
    // "symbol" is only a parameter name; "AAPL" only a default value.
    expect(names(index, 'AAPL')[0]).toBe('mcp__finance__stock_quote');
  });

  it('handles a full sentence as well as keywords', () => {
    const sentence = "I'm travelling to Paris next week. Could you tell me what the weather forecast looks like for the city?";
    expect(names(index, sentence)[0]).toBe('mcp__weather__getForecast');
    expect(names(index, 'weather forecast city')[0]).toBe('mcp__weather__getForecast');
  });

  it('matches inflections (stemming) and synonyms', () => {
    expect(names(index, 'forecasts')[0]).toBe('mcp__weather__getForecast');
    // Description says "films", the query says "movie" / "cinema".
    expect(names(index, 'movie by title')).toContain('mcp__movies__searchFilms');
    expect(names(index, 'cinema')[0]).toBe('mcp__movies__searchFilms');
    // "share price" → price; "equity" is a synonym of stock.
    expect(names(index, 'equity price')[0]).toBe('mcp__finance__stock_quote');
  });

  it('select: loads exact names and suggests close ones for unknown names', () => {
    const result = index.search('select:mcp__github__search_code, mcp__slack__send_mesage', 5);
    expect(result.hits.map((h) => h.name)).toEqual(['mcp__github__search_code']);
    expect(result.unknown).toEqual([
      { name: 'mcp__slack__send_mesage', suggestions: expect.arrayContaining(['mcp__slack__send_message']) },
    ]);
    expect(index.search('SELECT:MCP__GITHUB__SEARCH_CODE', 5).hits[0]?.name).toBe('mcp__github__search_code');
  });

  it('+word requires the word in the tool name', () => {
    const hits = names(index, '+slack list', 10);
    expect(hits[0]).toBe('mcp__slack__list_channels');
    expect(hits.every((n) => n.includes('slack'))).toBe(true);
    expect(names(index, '+nosuchword weather')).toEqual([]);
    // A phone number is not the +word operator.
    expect(names(index, 'weather for +447800123456')[0]).toMatch(/weather/);
  });

  it('returns one-line descriptions with the server', () => {
    const [hit] = index.search('calendar event', 1).hits;
    expect(hit).toMatchObject({ name: 'mcp__calendar__create_event', server: 'calendar', description: 'Add an event to a calendar.' });
    expect(hit.score).toBeGreaterThan(0);
  });

  it('never returns more than k, never duplicates, and never throws on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 12 }), (query, k) => {
        const hits = names(index, query, k);
        expect(hits.length).toBeLessThanOrEqual(k);
        expect(new Set(hits).size).toBe(hits.length);
        expect(hits.every((n) => index.has(n))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('ToolIndex incremental updates (list_changed)', () => {
  it('add and remove change what search finds, and removal undoes addition exactly', () => {
    const index = new ToolIndex();
    index.add(POOL);
    const before = index.search('translate text to french', 5).hits;
    index.add([mcpTool('lang', 'translate', 'Translate text between languages.')]);
    expect(names(index, 'translate text to french')[0]).toBe('mcp__lang__translate');
    index.remove(['mcp__lang__translate']);
    expect(index.has('mcp__lang__translate')).toBe(false);
    expect(index.search('translate text to french', 5).hits).toEqual(before);
  });

  it('sync() replaces a server list: removed tools vanish, changed ones re-index', () => {
    const index = new ToolIndex();
    index.add(POOL);
    const slack = POOL.filter((t) => t.server !== 'slack');
    index.sync([...slack, mcpTool('slack', 'send_message', 'Schedule a reminder for later.')]);
    expect(index.has('mcp__slack__list_channels')).toBe(false);
    expect(names(index, 'reminder')[0]).toBe('mcp__slack__send_message');
    expect(index.size).toBe(POOL.length - 1);
  });

  it('any order of adds and removes ranks like a fresh index of what is left', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: POOL.length - 1 })), { maxLength: 25 }), (ops) => {
        const index = new ToolIndex();
        const present = new Set<number>();
        for (const [add, i] of ops) {
          if (add) {
            index.add([POOL[i]]);
            present.add(i);
          } else {
            index.remove([POOL[i].name]);
            present.delete(i);
          }
        }
        const fresh = new ToolIndex();
        fresh.add([...present].sort((a, b) => a - b).map((i) => POOL[i]));
        for (const q of ['github issue', 'weather', 'list channels', 'price']) {
          expect(index.search(q, 5).hits.map((h) => [h.name, h.score])).toEqual(fresh.search(q, 5).hits.map((h) => [h.name, h.score]));
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('ToolIndex query forms', () => {
  const index = new ToolIndex();
  index.add(POOL);

  it('a tool named verbatim as an identifier inside a sentence ranks first', () => {
    expect(names(index, 'Please call list_pull_requests for the repo and then tell me about the weather')[0]).toBe(
      'mcp__github__list_pull_requests',
    );
  });

  it('a query made only of words found in most tools still finds them', () => {
    // Every github tool mentions "repository"/"repositories"; words common to many tools still count.
    expect(names(index, 'repositories', 3).every((n) => n.startsWith('mcp__github__'))).toBe(true);
  });
});

describe('ToolIndex in a large pool', () => {
  it('words in most tools do not swamp the rare ones, and alone still rank', () => {
    const index = new ToolIndex();
    index.add(Array.from({ length: 1200 }, (_, i) => mcpTool(`s${i % 40}`, `get_item_${i}`, `Get item number ${i} from the store.`)));
    index.add(POOL);
    expect(names(index, 'get the weather forecast')[0]).toBe('mcp__weather__getForecast');
    expect(names(index, 'get item', 3)).toHaveLength(3);
  });
});

describe('ToolIndex.sync on every registry change', () => {
  it('skips tools passed again unchanged and re-reads replaced ones', () => {
    const index = new ToolIndex();
    let reads = 0;
    const counted = POOL.map((tool) => ({
      ...tool,
      description: (ctx: { cwd: string }) => {
        reads++;
        return tool.description(ctx);
      },
    }));
    index.sync(counted);
    expect(reads).toBe(POOL.length);
    index.sync(counted);
    expect(reads).toBe(POOL.length);
    const replaced = counted.map((tool, i) => (i === 0 ? { ...tool, description: () => 'Open a ticket in the tracker.' } : tool));
    index.sync(replaced);
    expect(names(index, 'ticket tracker')[0]).toBe(POOL[0].name);
  });
});
