// The structure scan jumps between brackets and quotes with a regular expression; it must agree
// with the plain character-by-character reading it replaced, on any text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unclosed } from '../../../src/runtime/pipeline/parse.js';
import { jsonDepth } from '../../../src/runtime/util/json-depth.js';

function depthByChars(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === '}' || char === ']') depth--;
  }
  return deepest;
}

function unclosedByChars(text: string): string | undefined {
  const stack: string[] = [];
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quote !== undefined) {
      if (char === '\\') i++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '{' || char === '[') stack.push(char === '{' ? '}' : ']');
    else if ((char === '}' || char === ']') && stack.includes(char)) stack.length = stack.lastIndexOf(char);
  }
  if (quote !== undefined) return 'a string';
  const last = stack.at(-1);
  return last === undefined ? undefined : last === '}' ? 'an object' : 'an array';
}

// Text made mostly of the characters the scans care about, so every branch is taken often.
const structured = fc
  .array(fc.constantFrom('{', '}', '[', ']', '"', "'", '\\', 'a', ' ', ':', ','), { maxLength: 60 })
  .map((chars) => chars.join(''));
const texts = fc.oneof(
  structured,
  fc.string(),
  fc.jsonValue().map((value) => JSON.stringify(value)),
);

describe('the structure scan', () => {
  it('agrees with a character-by-character reading on any text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(jsonDepth(text)).toBe(depthByChars(text));
        expect(unclosed(text)).toBe(unclosedByChars(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads the cases that matter by name', () => {
    expect(jsonDepth('{"a": [1, {"b": "]]]"}]}')).toBe(3);
    expect(unclosed('{"content": "half a fi')).toBe('a string');
    expect(unclosed('{"a": [1, 2')).toBe('an array');
    expect(unclosed('{"a": "it\\"s"')).toBe('an object');
    expect(unclosed('{"a": 1}')).toBeUndefined();
  });
});
