import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitWords, terms, isStopWord } from '../../../src/runtime/search/tokenize.js';
import { stem } from '../../../src/runtime/search/stem.js';
import { parseQuery } from '../../../src/runtime/search/query.js';
import { inferServer, ownName, oneLine, paramText } from '../../../src/runtime/search/doc.js';
import { parseCatalog, parseQueries } from '../../../src/runtime/search/catalog.js';

describe('splitWords', () => {
  it('splits snake, double underscore, kebab, camelCase, acronyms and digits', () => {
    expect(splitWords('mcp__github__create_issue')).toEqual(['mcp', 'github', 'create', 'issue']);
    expect(splitWords('getUserByID')).toEqual(['get', 'user', 'by', 'id', 'getuserbyid']);
    expect(splitWords('HTTPServer v2search')).toEqual(['http', 'server', 'httpserver', 'v', '2', 'search', 'v2search']);
    expect(splitWords("Don't stop-me")).toEqual(['dont', 'stop', 'me']);
    expect(splitWords('Météo à Zürich')).toEqual(['météo', 'à', 'zürich']);
  });

  it('keeps the plural of an acronym whole, and still splits a capital that starts a word', () => {
    expect(splitWords('URLs IDs getUUIDs')).toEqual(['urls', 'ids', 'get', 'uuids', 'getuuids']);
    expect(splitWords("the URL's host")).toEqual(['the', 'urls', 'host']);
    expect(splitWords('IDsList')).toEqual(['ids', 'list', 'idslist']);
    expect(splitWords('HTTPSettings APIsearch')).toEqual(['http', 'settings', 'httpsettings', 'ap', 'isearch', 'apisearch']);
    expect(splitWords('Ünsere URLs')).toEqual(['ünsere', 'urls']);
  });

  it('yields lower-case letter/digit words only', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        for (const word of splitWords(text)) {
          expect(word.length).toBeGreaterThan(0);
          expect(word).toBe(word.toLowerCase());
          expect(word).toMatch(/^[\p{L}\p{N}\p{M}]+$/u);
        }
      }),
    );
  });
});

describe('terms and stemming', () => {
  it('drops stop words and request filler, stems inflections to one form', () => {
    expect(terms('Can you please provide me the forecasts')).toEqual([stem('forecasts')]);
    expect(isStopWord('please')).toBe(true);
    for (const [a, b] of [
      ['forecasts', 'forecast'],
      ['searching', 'search'],
      ['searched', 'search'],
      ['countries', 'country'],
      ['ratings', 'rating'],
      ['validation', 'validate'],
    ]) {
      expect(stem(a)).toBe(stem(b));
    }
    expect(stem('news')).not.toBe(stem('new'));
  });

  it("stems by the rules of Porter's steps 1a-1c and the few step-2 suffixes kept", () => {
    const stems: Record<string, string> = {
      caresses: 'caress',
      ponies: 'poni',
      ties: 'tie',
      cats: 'cat',
      status: 'status',
      analysis: 'analysis',
      agreed: 'agree',
      feed: 'feed',
      plastered: 'plaster',
      motoring: 'motor',
      sing: 'sing',
      eyeing: 'eye',
      conflated: 'conflate',
      troubled: 'trouble',
      sized: 'size',
      hopping: 'hop',
      tanned: 'tan',
      falling: 'fall',
      hissing: 'hiss',
      fizzed: 'fizz',
      filing: 'file',
      failing: 'fail',
      boxing: 'box',
      snowing: 'snow',
      happy: 'happi',
      sky: 'sky',
      enjoyed: 'enjoi',
      crying: 'cry',
      played: 'plai',
      relational: 'relate',
      generalization: 'generalize',
      operator: 'operate',
      hopefulness: 'hopeful',
    };
    for (const [word, expected] of Object.entries(stems)) expect(stem(word)).toBe(expected);
  });

  it('stemming never lengthens a word much, and short words stay as they are', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,15}$/), (word) => {
        const s = stem(word);
        expect(s.length).toBeLessThanOrEqual(word.length + 1);
        if (word.length <= 3) expect(s).toBe(word);
      }),
    );
  });
});

describe('parseQuery', () => {
  it('reads select:, +word and plain text', () => {
    expect(parseQuery('select:A,B, C')).toEqual({ kind: 'select', names: ['A', 'B', 'C'] });
    expect(parseQuery('+slack send message')).toEqual({ kind: 'search', text: 'slack send message', required: ['slack'] });
    expect(parseQuery('call +44 20 7946')).toEqual({ kind: 'search', text: 'call +44 20 7946', required: [] });
  });

  it('select: keeps every listed name once, in order', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/);
    fc.assert(
      fc.property(fc.array(name, { maxLength: 8 }), (list) => {
        const parsed = parseQuery(`select:${list.join(',')}`);
        expect(parsed).toEqual({ kind: 'select', names: [...new Set(list)] });
      }),
    );
  });
});

describe('tool documents', () => {
  it('infers servers and own names from MCP and catalog names', () => {
    expect(inferServer('mcp__my_server__do_it')).toBe('my_server');
    expect(ownName('mcp__my_server__do_it', 'my_server')).toBe('do_it');
    expect(inferServer('Live_Golf_Data__points')).toBe('Live_Golf_Data');
    expect(ownName('Kick_com_API__Get_Clips', 'Kick.com API')).toBe('Get_Clips');
    expect(inferServer('Read')).toBeUndefined();
  });

  it('collects parameter names, descriptions, enums and defaults', () => {
    const text = paramText({
      properties: { unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit' }, q: { default: 'London' } },
    });
    expect(text.split(' ')).toEqual(expect.arrayContaining(['unit', 'celsius', 'fahrenheit', 'Temperature', 'q', 'London']));
  });

  it('cuts descriptions to their first sentence on one line', () => {
    expect(oneLine('Gets the weather.\nMore text here.')).toBe('Gets the weather.');
    expect(oneLine('Finds files (e.g. "*.ts", i.e. globs), newest first. Then more.')).toBe(
      'Finds files (e.g. "*.ts", i.e. globs), newest first.',
    );
    expect(oneLine('x'.repeat(300)).length).toBe(160);
  });
});

describe('JSON Lines inputs', () => {
  it('skips blank lines, reports bad ones with their numbers and keeps the rest', () => {
    const catalog = parseCatalog(
      '{"name":"a","description":"A"}\n\nnope\n{"description":"no name"}\n{"name":"a"}\n{"name":"b","input_schema":{"properties":{"x":{}}}}\n',
    );
    expect(catalog.docs.map((d) => d.name)).toEqual(['a', 'b']);
    expect(catalog.errors.map((e) => e.line)).toEqual([3, 4, 5]);
    const queries = parseQueries('{"query":"x","relevant":[]}\n{"query":""}\n[1]\n\r\n{"query":"y"}');
    expect(queries.queries).toEqual(['x', 'y']);
    expect(queries.errors.map((e) => e.line)).toEqual([2, 3]);
  });
});
