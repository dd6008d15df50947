import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseArguments } from '../../../src/runtime/pipeline/parse.js';

const schema = {
  type: 'object',
  properties: {
    n: { type: 'integer' },
    flag: { type: 'boolean' },
    name: { type: 'string' },
    opts: { type: 'object', properties: { depth: { type: 'number' } } },
    list: { type: 'array', items: { type: 'number' } },
    maybe: { anyOf: [{ type: 'number' }, { type: 'null' }] },
  },
};

describe('parseArguments', () => {
  it('parses JSON text and objects, and treats empty input as {}', () => {
    expect(parseArguments('{"n": 1}', schema)).toMatchObject({ ok: true, value: { n: 1 } });
    expect(parseArguments({ n: 1 }, schema)).toMatchObject({ ok: true, value: { n: 1 } });
    expect(parseArguments('', schema)).toMatchObject({ ok: true, value: {} });
    expect(parseArguments(undefined, schema)).toMatchObject({ ok: true, value: {} });
  });

  it('repairs trailing commas and single quotes, and says so', () => {
    const result = parseArguments("{'n': 2, 'name': 'a',}", schema);
    expect(result).toMatchObject({ ok: true, value: { n: 2, name: 'a' } });
    expect(result.ok && result.notes?.join()).toMatch(/repaired/);
  });

  it('decodes arguments encoded twice (an object sent as a JSON string), and says so', () => {
    const twice = JSON.stringify(JSON.stringify({ n: 3, name: 'a' }));
    const result = parseArguments(twice, schema);
    expect(result).toMatchObject({ ok: true, value: { n: 3, name: 'a' } });
    expect(result.ok && result.notes?.join()).toMatch(/encoded as a string and were decoded/);
    // Damaged inside as well: decoded, then repaired.
    expect(parseArguments(JSON.stringify("{'n': 4,}"), schema)).toMatchObject({ ok: true, value: { n: 4 } });
    // A plain string that is not an object stays an error that says what to send.
    const plain = parseArguments(JSON.stringify('hello'), schema);
    expect(plain.ok).toBe(false);
  });

  it('coerces strings where the schema asks for numbers, booleans, objects and arrays', () => {
    const result = parseArguments({ n: '5', flag: 'true', opts: '{"depth": "3"}', list: '[1, "2"]', maybe: '7' }, schema);
    expect(result).toMatchObject({ ok: true, value: { n: 5, flag: true, opts: { depth: 3 }, list: [1, 2], maybe: 7 } });
    expect(result.ok && result.notes?.length).toBeGreaterThanOrEqual(5);
  });

  it('leaves strings alone where a string is expected and numbers become strings', () => {
    expect(parseArguments({ name: '5' }, schema)).toMatchObject({ ok: true, value: { name: '5' } });
    expect(parseArguments({ name: 5 }, schema)).toMatchObject({ ok: true, value: { name: '5' } });
    expect(parseArguments({ n: 'five' }, schema)).toMatchObject({ ok: true, value: { n: 'five' } });
  });

  it("JSON that cannot be repaired gets an example shaped like this tool's own parameters", () => {
    const add = {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' }, label: { type: 'string' } },
      required: ['a', 'b'],
    };
    const result = parseArguments('{"a":1,"b":2} trailing', add);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.content[0]).toMatchObject({ text: expect.stringContaining('e.g. {"a":1,"b":1}') });
    const none = parseArguments('{"a":1} trailing', { type: 'object', properties: { q: { type: 'string' } } });
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.error.content[0]).toMatchObject({ text: expect.stringContaining('e.g. {"q":"..."}') });
  });

  it('refuses non-objects with an actionable message', () => {
    for (const raw of ['[1,2]', '42', '"str"', [1], 7]) {
      const result = parseArguments(raw, schema);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.content[0]).toMatchObject({ text: expect.stringMatching(/must be a JSON object/) });
    }
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const result = parseArguments(text, schema);
        if (!result.ok) expect(result.error.isError).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseArguments with hostile keys', () => {
  it('keeps "__proto__" and "constructor" as plain keys and never reads schema entries through the prototype', () => {
    const result = parseArguments('{"__proto__": {"polluted": true}, "constructor": "5"}', {
      type: 'object',
      properties: { n: { type: 'integer' } },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(Object.keys(result.value)).toEqual(['__proto__', 'constructor']);
    expect(result.value.constructor).toBe('5');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
