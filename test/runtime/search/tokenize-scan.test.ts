// The char-code scanner behind splitWords and the index's word table, held to the plain
// definition of splitting (splitWordsUnicode) and to terms().
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rangeIsWord, splitWords, terms, unicodePieceWords, wordAt, wordHash, WordScanner } from '../../../src/runtime/search/tokenize.js';

/** splitWords by its plain definition: split at separators, then split each piece with Unicode classes. */
function splitWordsUnicode(text: string): string[] {
  return text
    .split(/[^\p{L}\p{N}'\u2019]+/u)
    .filter((piece) => piece !== '')
    .flatMap((piece) => unicodePieceWords(piece, 0, piece.length));
}
import { IndexStore, type Postings } from '../../../src/runtime/search/store.js';
import { ownName, type ToolDoc } from '../../../src/runtime/search/doc.js';
import { countBelow, FIELD_COUNT } from '../../../src/runtime/search/scorer.js';

/** Field texts as IndexStore reads them, in field order. */
function fieldTexts(doc: ToolDoc): string[] {
  return [ownName(doc.name, doc.server), doc.server ?? '', doc.searchHint ?? '', doc.description, doc.params];
}

// Identifier-shaped pieces, glued together or apart: camelCase, snake_case, runs of capitals,
// digits, apostrophes and punctuation.
const identifierPart = fc.oneof(
  fc.stringMatching(/^[a-z]{1,6}(?:[A-Z][a-z]{0,5}){0,3}$/),
  fc.stringMatching(/^[A-Z]{1,5}[a-z]{0,4}\d{0,3}$/),
  fc.stringMatching(/^[a-z]{1,5}(?:_[a-z0-9]{1,5}){0,3}$/),
  fc.stringMatching(/^\d{1,4}[a-zA-Z]{0,3}$/),
  fc.stringMatching(/^[A-Za-z0-9']{1,8}$/),
  fc.constantFrom("'", "''", "n't", "'s", 'I', 'A', 'ID', 'HTTPServer', 'getUserID2', 'v2search', "Don't", "AB'Cd"),
  fc.constantFrom(' ', '_', '__', '-', '.', '/', ':', '(', ')', ', ', '\n', '\t', '"', '#', '`'),
);
const asciiIdentifiers = fc.array(identifierPart, { maxLength: 12 }).map((parts) => parts.join(''));
const anyAscii = fc.string({ unit: 'binary-ascii', maxLength: 60 });

// Non-ASCII letters (with and without case, astral), digits, marks, separators, the typographic
// apostrophe and lone surrogates, among the identifier parts.
const nonAsciiPart = fc.constantFrom(
  'é',
  'É',
  'ß',
  'İ',
  'ǅ',
  'Ω',
  'ω',
  '中文',
  'Zürich',
  'Météo',
  'ĳ',
  '\u0301',
  '’',
  '’s',
  '٣',
  '²',
  '𝐀',
  '😀',
  '—',
  '•',
  '＝',
  '❚',
  '\u00a0',
  '\ud800',
  '\udc00',
);
const mixed = fc.array(fc.oneof(identifierPart, nonAsciiPart), { maxLength: 12 }).map((parts) => parts.join(''));
const anyText = fc.oneof(asciiIdentifiers, anyAscii, mixed, fc.string({ unit: 'binary', maxLength: 40 }));

describe('splitWords scanner', () => {
  it('splits ASCII text exactly as the plain definition does', () => {
    fc.assert(
      fc.property(fc.oneof(asciiIdentifiers, anyAscii), (text) => {
        expect(splitWords(text)).toEqual(splitWordsUnicode(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('splits text with non-ASCII pieces and separators exactly as the plain definition does', () => {
    fc.assert(
      fc.property(mixed, (text) => {
        expect(splitWords(text)).toEqual(splitWordsUnicode(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps its semantics on the examples the rules are written for', () => {
    expect(splitWords("AB'Cd x''y I'M don'T")).toEqual(['ab', 'cd', 'abcd', 'xy', 'im', 'don', 't', 'dont']);
    expect(splitWords('HTTP2Server ab12CD34ef')).toEqual([
      'http',
      '2',
      'server',
      'http2server',
      'ab',
      '12',
      'cd',
      '34',
      'ef',
      'ab12cd34ef',
    ]);
    expect(splitWords('café’s getUserID—naïveMode 😀x')).toEqual([
      'cafés',
      'get',
      'user',
      'id',
      'getuserid',
      'naïve',
      'mode',
      'naïvemode',
      'x',
    ]);
  });

  it('splits a text longer than its kept buffers, and the next text, correctly', () => {
    const long = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(' ');
    expect(splitWords(long)).toEqual(splitWordsUnicode(long));
    expect(splitWords('getForecast')).toEqual(['get', 'forecast', 'getforecast']);
  });

  it('gives each ASCII range the hash of its word, and matches it to that word only', () => {
    const scanner = new WordScanner();
    fc.assert(
      fc.property(anyText, (text) => {
        scanner.scan(text);
        for (let i = 0; i < scanner.count; i++) {
          if (scanner.unicode[i]) continue;
          const [start, end] = [scanner.starts[i], scanner.ends[i]];
          const word = wordAt(text, start, end);
          expect(scanner.hashes[i]).toBe(wordHash(word));
          expect(rangeIsWord(text, start, end, word)).toBe(true);
          expect(rangeIsWord(text, start, end, `${word}x`)).toBe(false);
          expect(rangeIsWord(text, start, end, word.slice(1))).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('IndexStore word table', () => {
  it('indexes each field with exactly the terms of terms(text)', () => {
    // One store for all runs: its word table fills up and grows, and repeated names re-add.
    const store = new IndexStore();
    const doc = fc.record({
      name: anyText.filter((name) => name !== ''),
      server: fc.option(anyText, { nil: undefined }),
      searchHint: fc.option(anyText, { nil: undefined }),
      description: anyText,
      params: anyText,
    });
    fc.assert(
      fc.property(doc, (d) => {
        store.add(d);
        const id = store.ids.get(d.name) as number;
        const fields = fieldTexts(d).map((text) => terms(text));
        expect(store.entryOf(d.name)?.nameTerms).toEqual([...new Set(fields[0])]);
        for (let f = 0; f < FIELD_COUNT; f++) {
          // With each term's count below, the lengths leave no room for a term terms() lacks.
          expect(store.lengths[id * FIELD_COUNT + f]).toBe(fields[f].length);
        }
        for (const term of new Set(fields.flat())) {
          const list = store.postingsOf(term);
          const at = list?.ids.indexOf(id) ?? -1;
          expect(at).toBeGreaterThanOrEqual(0);
          const packed = (list as Postings).tfs[at];
          for (let f = 0; f < FIELD_COUNT; f++) {
            const count = countBelow(packed, f + 1) - countBelow(packed, f);
            expect(count).toBe(fields[f].filter((t) => t === term).length);
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps thousands of distinct words apart, in any case and with apostrophes', () => {
    const store = new IndexStore();
    const letters = (n: number) => `zq${n.toString(26).replace(/./g, (c) => String.fromCharCode(97 + parseInt(c, 26)))}`;
    const words = Array.from({ length: 5000 }, (_, i) => letters(i));
    store.add({ name: 'lower', description: words.join(' '), params: '' });
    const variants = words.map((w, i) => (i % 2 === 0 ? w.toUpperCase() : `${w.slice(0, 2)}'${w.slice(2)}`));
    store.add({ name: 'upper', description: variants.join(' '), params: '' });
    for (const word of words) {
      const [term] = terms(word);
      const ids = [...(store.postingsOf(term)?.ids ?? [])];
      expect(ids.map((id) => store.entries[id]?.doc.name).sort()).toEqual(['lower', 'upper']);
    }
  });
});
