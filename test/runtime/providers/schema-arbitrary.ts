// Generated JSON Schemas (the keywords tools really use) and instances near each one, for
// property tests that compare a converted schema with its original under Ajv.
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';

type Json = Record<string, unknown>;

const names = fc.constantFrom('path', 'query', 'limit', 'mode', 'items', 'Name', 'x-y', '$id', 'type');
const words = fc.constantFrom('read', 'Write', 'ALL', 'none', 'a b', '');

const stringSchema: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ type: fc.constant('string') }),
  fc.record({ type: fc.constant('string'), enum: fc.uniqueArray(words, { minLength: 1, maxLength: 4 }) }),
  fc.record({ type: fc.constant('string'), minLength: fc.nat(3), maxLength: fc.integer({ min: 3, max: 8 }) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('string'), format: fc.constantFrom('uri', 'date-time', 'email') }),
  fc.record({ const: words }),
);
const numberSchema: fc.Arbitrary<Json> = fc.record(
  { type: fc.constantFrom('number', 'integer'), minimum: fc.integer({ min: -5, max: 0 }), maximum: fc.integer({ min: 1, max: 50 }) },
  { requiredKeys: ['type'] },
);
const leaf: fc.Arbitrary<Json> = fc.oneof(
  stringSchema,
  numberSchema,
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'null' }),
  fc.constant({}),
  fc.record({ type: fc.constant(['string', 'null']) }),
  fc.record({ enum: fc.uniqueArray(fc.oneof(words, fc.integer({ min: 0, max: 3 }), fc.constant(null)), { minLength: 1, maxLength: 4 }) }),
);

/** Nested schemas; booleans appear where JSON Schema allows them (subschema positions). */
const { node } = fc.letrec<{ node: Json; object: Json }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    tie('object'),
    fc.record({ type: fc.constant('array'), items: tie('node') }, { requiredKeys: ['type'] }),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
  object: fc
    .record(
      {
        properties: fc.dictionary(names, fc.oneof({ weight: 5, arbitrary: tie('node') }, { weight: 1, arbitrary: fc.boolean() }), {
          maxKeys: 4,
        }),
        additionalProperties: fc.oneof(fc.boolean(), fc.constant({}), tie('node')),
        description: fc.constant('An object.'),
        minProperties: fc.nat(2),
      },
      { requiredKeys: ['properties'] },
    )
    .chain((schema) =>
      fc
        .subarray(Object.keys(schema.properties as Json))
        .map((required) => ({ type: 'object', ...schema, ...(required.length > 0 ? { required } : {}) })),
    ),
}));

/** A tool's input schema: an object at the top, sometimes with `$defs` reached through `$ref`. */
export const toolSchema: fc.Arbitrary<Json> = fc.tuple(node, fc.boolean()).map(([inner, viaRef]) => {
  const properties = { first: inner, second: { type: 'string' } };
  if (!viaRef) return { type: 'object', properties, required: ['first'], additionalProperties: false };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { first: { $ref: '#/$defs/Inner' }, second: properties.second },
    $defs: { Inner: inner },
    additionalProperties: false,
  };
});

const anyJson = fc.jsonValue({ maxDepth: 2 });

/** Instances near a schema: mostly shaped like it (so both verdicts occur), sometimes anything. */
export function near(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema !== 'object' || schema === null || depth > 6) return anyJson;
  const s = schema as Json;
  if (typeof s.$ref === 'string') return anyJson;
  const options: fc.Arbitrary<unknown>[] = [anyJson];
  if (Array.isArray(s.enum))
    options.push(
      fc.constantFrom(...s.enum),
      fc.constantFrom(...s.enum).map((v) => (typeof v === 'string' ? v.toUpperCase() : v)),
    );
  if ('const' in s) options.push(fc.constant(s.const));
  if (Array.isArray(s.anyOf)) options.push(...s.anyOf.map((branch) => near(branch, depth + 1)));
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string')) options.push(fc.string({ maxLength: 10 }));
  if (types.includes('number') || types.includes('integer'))
    options.push(fc.integer({ min: -10, max: 60 }), fc.double({ min: -2, max: 2, noNaN: true }));
  if (types.includes('null')) options.push(fc.constant(null));
  if (types.includes('array')) options.push(fc.array(near(s.items, depth + 1), { maxLength: 3 }));
  if (types.includes('object') || typeof s.properties === 'object') {
    const properties = (s.properties ?? {}) as Json;
    const fields = Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, near(sub, depth + 1)]));
    options.push(
      fc
        .tuple(fc.record(fields, { requiredKeys: [] }), fc.option(fc.tuple(fc.constantFrom('extra', 'PATH'), anyJson), { nil: undefined }))
        .map(([record, extra]) => (extra ? { ...record, [extra[0]]: extra[1] } : record)),
    );
  }
  return fc.oneof(...options);
}

/** The instances a schema accepts, as Ajv decides with wield's own options. */
export function ajvCheck(): (schema: unknown, instance: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  return (schema, instance) => ajv.validate(schema as Json, instance) as boolean;
}
