// Every dialect keeps each schema's meaning: the converted schema accepts exactly the instances
// the original accepts (Ajv as the judge), for generated schemas and instances near them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sanitizeSchema, type SchemaTarget } from '../../../src/runtime/providers/index.js';
import type { JSONSchema } from '../../../src/runtime/tool/types.js';
import { ajvCheck, near, toolSchema } from './schema-arbitrary.js';

const TARGETS: SchemaTarget[] = ['anthropic', 'openai'];

describe.each(TARGETS)('%s schema dialect', (target) => {
  const accepts = ajvCheck();

  it('accepts and refuses the same instances as the original schema', () => {
    const schemaWithInstances = toolSchema.chain((schema) =>
      fc.tuple(fc.constant(schema), fc.array(near(schema), { minLength: 6, maxLength: 6 })),
    );
    fc.assert(
      fc.property(schemaWithInstances, ([schema, instances]) => {
        const converted = sanitizeSchema(schema as JSONSchema, target);
        for (const instance of instances)
          expect(accepts(converted, instance), JSON.stringify({ converted, instance })).toBe(accepts(schema, instance));
      }),
      { numRuns: 100, seed: 25 },
    );
  });

  it('keeps `additionalProperties: false` as written (grammar-based servers misread `{"not": {}}`)', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'object', properties: {}, additionalProperties: false } },
      additionalProperties: false,
    };
    expect(sanitizeSchema(schema, target)).toEqual(schema);
  });
});
