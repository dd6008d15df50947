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
      // Open on purpose: a schema open by omission drops unknown keys (see coerce.ts).
      additionalProperties: true,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(Object.keys(result.value)).toEqual(['__proto__', 'constructor']);
    expect(result.value.constructor).toBe('5');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('arguments cut off before they were closed', () => {
  const cutOff = (result: ReturnType<typeof parseArguments>) =>
    !result.ok && /cut off.*nothing was run.*again/s.test(JSON.stringify(result.error.content));

  it('a Write cut off inside its content is refused as cut off, not "repaired" and run', () => {
    const result = parseArguments('{"file_path": "r.txt", "content": "abc', schema);
    expect(cutOff(result)).toBe(true);
    expect(JSON.stringify(!result.ok && result.error.content)).toMatch(/inside a string/);
    const list = parseArguments('{"list": [1, 2', schema);
    expect(JSON.stringify(!list.ok && list.error.content)).toMatch(/inside an array/);
  });

  it('every strict prefix of an object is refused as cut off', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }),
        fc.nat(),
        fc.boolean(),
        (object, at, pretty) => {
          const text = pretty ? JSON.stringify(object, null, 2) : JSON.stringify(object);
          expect(cutOff(parseArguments(text.slice(0, 1 + (at % (text.length - 1))), schema))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('damage inside closed JSON is still repaired (quotes, trailing commas, Python literals)', () => {
    for (const text of ["{'n': 2, 'name': 'it\\'s',}", '{"flag": True, "name": "a"}', '{"n": 1,}', '{"list": [1, 2,], "name": "x}"}']) {
      const result = parseArguments(text, schema);
      expect(result.ok, text).toBe(true);
      expect(result.ok && result.notes?.join(), text).toMatch(/repaired/);
    }
  });
});

describe('what strict models and sloppy models send', () => {
  const tool = {
    type: 'object',
    properties: {
      mode: { type: 'string', enum: ['read', 'Write', 'WRITE_ALL'] },
      level: { enum: ['low', 'high'] },
      note: { type: 'string' },
      maybe: { type: ['string', 'null'] },
    },
    required: ['mode'],
  };

  it('null for an optional parameter is absent; null stays where the schema allows it or the parameter is required', () => {
    expect(parseArguments({ mode: 'read', note: null, maybe: null }, tool)).toEqual({
      ok: true,
      value: { mode: 'read', maybe: null },
      notes: [],
    });
    expect(parseArguments({ mode: null }, tool)).toEqual({ ok: true, value: { mode: null }, notes: [] });
  });

  it('an enum value in the wrong case is read as the one value it matches, and said so', () => {
    const result = parseArguments({ mode: 'READ', level: ' High ' }, tool);
    expect(result).toMatchObject({ ok: true, value: { mode: 'read', level: 'high' } });
    expect(result.ok && result.notes?.join('\n')).toMatch(/"mode" was "READ" and was read as "read"/);
    // Ambiguous or no match: left for validation to refuse with the allowed values.
    const ambiguous = { type: 'object', properties: { m: { enum: ['a', 'A'] } } };
    expect(parseArguments({ m: 'a ' }, ambiguous)).toMatchObject({ ok: true, value: { m: 'a ' } });
    expect(parseArguments({ mode: 'writeall' }, tool)).toMatchObject({ ok: true, value: { mode: 'writeall' } });
  });

  it('an unknown parameter of a schema open by omission is dropped with a note naming the parameters', () => {
    const result = parseArguments({ mode: 'read', nte: 'x' }, tool);
    expect(result).toMatchObject({ ok: true, value: { mode: 'read' } });
    expect(result.ok && result.notes?.join()).toMatch(
      /"nte" is not a parameter here and was ignored; the parameters are: mode, level, note, maybe/,
    );
    // Closed schemas leave it to validation (refused, naming the known ones); open ones keep it.
    for (const additionalProperties of [false, true, { type: 'string' }]) {
      expect(parseArguments({ mode: 'read', nte: 'x' }, { ...tool, additionalProperties })).toMatchObject({
        ok: true,
        value: { nte: 'x' },
      });
    }
  });

  it('a tool that takes no parameters (properties: {}) gets an argument dropped with a note; a nested {} stays free-form', () => {
    const none = parseArguments({ colour: 'blue' }, { type: 'object', properties: {} });
    expect(none).toMatchObject({ ok: true, value: {} });
    expect(none.ok && none.notes?.join()).toMatch(/"colour" is not a parameter here and was ignored; this tool takes no parameters/);
    const nested = { type: 'object', properties: { meta: { type: 'object', properties: {} } } };
    expect(parseArguments({ meta: { any: 1 } }, nested)).toMatchObject({ ok: true, value: { meta: { any: 1 } } });
  });
});
