import { describe, expect, it } from 'vitest';
import { compoundTerms, queryWeights } from '../../../src/runtime/search/query-weights.js';
import { DEFAULT_RANKING } from '../../../src/runtime/search/scorer.js';
import { ToolIndex } from '../../../src/runtime/search/tool-index.js';
import { termOf } from '../../../src/runtime/search/tokenize.js';
import { mcpTool } from './fixtures.js';

describe('query weights', () => {
  it('joins adjacent words the way tool names write them', () => {
    expect(compoundTerms('list the zip codes of a county')).toContain(termOf('zipcodes'));
    expect(compoundTerms('convert a user name to a UUID')).toContain(termOf('username'));
    expect(compoundTerms('in-play odds')).toContain(termOf('inplay'));
  });

  it('does not join two stop words or two numbers', () => {
    expect(compoundTerms('put it on a list')).not.toContain(termOf('ona'));
    expect(compoundTerms('pages 2 5')).not.toContain(termOf('25'));
  });

  it('own words weigh 1, compounds and synonyms less, and a word also typed as a compound stays at 1', () => {
    const weights = queryWeights('zip code lookup for movie', DEFAULT_RANKING);
    expect(weights.get(termOf('zip') as string)).toBe(1);
    expect(weights.get(termOf('zipcode') as string)).toBe(DEFAULT_RANKING.compoundWeight);
    expect(weights.get(termOf('film') as string)).toBe(DEFAULT_RANKING.synonymWeight);
    expect(queryWeights('username user name', DEFAULT_RANKING).get(termOf('username') as string)).toBe(1);
  });

  it('a tool named with the compound is found from the spaced words', () => {
    const tools = [
      mcpTool('people', 'username_lookup', ''),
      mcpTool('files', 'zip_archive', 'Pack a folder of code.'),
      mcpTool('geo', 'zipcode_of_town', ''),
    ];
    const found = (compoundWeight: number, query: string) => {
      const index = new ToolIndex({ ranking: { compoundWeight } });
      index.add(tools);
      return index.search(query, 3).hits.map((h) => h.name);
    };
    expect(found(DEFAULT_RANKING.compoundWeight, 'who has this user name')).toEqual(['mcp__people__username_lookup']);
    expect(found(0, 'who has this user name')).toEqual([]);
    expect(found(DEFAULT_RANKING.compoundWeight, 'zip code of a town')[0]).toBe('mcp__geo__zipcode_of_town');
  });
});
