// Schema sanitising: pure, per target.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeSchema } from '../../../src/runtime/providers/index.js';

/** Keywords used anywhere in schema positions (property names are not keywords). */
function keywords(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) keywords(n, out);
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return out;
  for (const [key, value] of Object.entries(node)) {
    out.add(key);
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const v of Object.values(value)) keywords(v, out);
    } else if (['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties', 'not'].includes(key)) keywords(value, out);
  }
  return out;
}

describe('sanitizeSchema', () => {
  it('adds type object and properties when missing at the top', () => {
    expect(sanitizeSchema({}, 'openai')).toEqual({ type: 'object', properties: {} });
    expect(sanitizeSchema({ properties: { a: { type: 'string' } } }, 'anthropic')).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
  });

  it('inlines $ref/$defs and drops $schema', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { Pos: { type: 'object', properties: { line: { type: 'integer' } } } },
      properties: { start: { $ref: '#/$defs/Pos', description: 'Where to start' }, end: { $ref: '#/$defs/Pos' } },
    };
    expect(sanitizeSchema(schema, 'anthropic')).toEqual({
      type: 'object',
      properties: {
        start: { type: 'object', properties: { line: { type: 'integer' } }, description: 'Where to start' },
        end: { type: 'object', properties: { line: { type: 'integer' } } },
      },
    });
  });

  it('breaks recursive references into a described any', () => {
    const schema = {
      type: 'object',
      definitions: { Node: { type: 'object', properties: { child: { $ref: '#/definitions/Node' } } } },
      properties: { root: { $ref: '#/definitions/Node' } },
    };
    const out = sanitizeSchema(schema, 'openai') as { properties: { root: { properties: { child: unknown } } } };
    expect(out.properties.root.properties.child).toEqual({ description: 'Same shape as Node (recursive).' });
  });

  it('folds top-level anyOf into one object whose required fields are common to all branches', () => {
    const schema = {
      anyOf: [
        { type: 'object', properties: { path: { type: 'string' }, mode: { type: 'string' } }, required: ['path', 'mode'] },
        { type: 'object', properties: { url: { type: 'string' }, mode: { type: 'string' } }, required: ['url', 'mode'] },
      ],
    };
    const out = sanitizeSchema(schema, 'anthropic');
    expect(out.type).toBe('object');
    expect(Object.keys(out.properties as object).sort()).toEqual(['mode', 'path', 'url']);
    expect(out.required).toEqual(['mode']);
    expect(out).not.toHaveProperty('anyOf');
    expect(out.description).toMatch(/one of several shapes/);
  });

  it('merges top-level allOf', () => {
    const out = sanitizeSchema(
      {
        allOf: [
          { properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'number' } }, required: ['b'] },
        ],
      },
      'openai',
    );
    expect(out).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a', 'b'] });
  });

  it('for OpenAI dialects: formats move to the description, const becomes enum, booleans become objects', () => {
    const out = sanitizeSchema(
      {
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri', description: 'Where.' },
          kind: { const: 'file' },
          anything: true,
          format: { type: 'string' },
          meta: { type: 'object', additionalProperties: {} },
        },
      },
      'openai',
    );
    expect(out.properties).toEqual({
      url: { type: 'string', description: 'Where. Format: uri.' },
      kind: { enum: ['file'] },
      anything: {},
      // A property that happens to be called "format" is kept.
      format: { type: 'string' },
      meta: { type: 'object', additionalProperties: true },
    });
  });

  it('keeps formats for Anthropic and leaves the input untouched', () => {
    const schema = { type: 'object', properties: { url: { type: 'string', format: 'uri' } } };
    const copy = structuredClone(schema);
    expect(sanitizeSchema(schema, 'anthropic')).toEqual(schema);
    expect(schema).toEqual(copy);
  });

  // Arbitrary nested schemas built from the keywords tools use.
  const leaf = fc.oneof(
    fc.constant({ type: 'string' }),
    fc.constant({ type: 'integer', minimum: 0 }),
    fc.constant({ type: 'string', format: 'date-time' }),
    fc.constant({ $ref: '#/$defs/Shared' }),
    fc.constant({ const: 3 }),
    fc.boolean(),
  );
  const schemaArb = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({
        type: fc.constant('object'),
        properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), tie('node'), { maxKeys: 3 }),
      }),
      fc.record({ type: fc.constant('array'), items: tie('node') }),
      fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    ),
  })).node;
  const topArb = fc.record(
    {
      $schema: fc.constant('http://json-schema.org/draft-07/schema#'),
      $defs: fc.constant({ Shared: { type: 'object', properties: { again: { $ref: '#/$defs/Shared' } } } }),
      type: fc.constant('object'),
      properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), schemaArb, { maxKeys: 4 }),
      oneOf: fc.array(fc.record({ properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), schemaArb, { maxKeys: 2 }) }), {
        maxLength: 2,
      }),
    },
    { requiredKeys: [] },
  );

  it('always yields an object schema with properties and no references or meta keys (property)', () => {
    fc.assert(
      fc.property(topArb, fc.constantFrom('anthropic' as const, 'openai' as const), (schema, target) => {
        const out = sanitizeSchema(schema, target);
        expect(out.type).toBe('object');
        expect(typeof out.properties).toBe('object');
        for (const key of ['oneOf', 'anyOf', 'allOf']) expect(out).not.toHaveProperty(key);
        const used = keywords(out);
        for (const banned of ['$ref', '$defs', '$schema']) expect(used.has(banned)).toBe(false);
      }),
    );
  });

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(topArb, fc.constantFrom('anthropic' as const, 'openai' as const), (schema, target) => {
        const once = sanitizeSchema(schema, target);
        expect(sanitizeSchema(once, target)).toEqual(once);
      }),
    );
  });
});
