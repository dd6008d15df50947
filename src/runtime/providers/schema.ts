// Making a tool's JSON Schema acceptable to each API. Pure.
//
// What gets rejected or misread (so what this fixes):
// - every API wants `type: "object"` with `properties` at the top; OpenAI answers
//   "object schema missing properties" otherwise, and Anthropic rejects `oneOf/anyOf/allOf` at the
//   top level of input_schema;
// - `$ref`/`$defs` are not followed by Ollama's and some other local servers' parsers, which read
//   a fixed set of keywords and drop the rest, so references are inlined for every target;
// - `$schema`/`$id`/`$comment` are noise to models and some servers refuse unknown meta keys;
// - for OpenAI-style servers, boolean subschemas in `properties` and lists break typed parsers
//   (Ollama decodes properties into structs), `format` values outside a small set are rejected in
//   strict mode, and `const` is less widely understood than `enum`.
// Every change keeps the schema's meaning (test/runtime/providers/schema-meaning.test.ts checks it
// with Ajv), except folding top-level combinators, which no API accepts; wield validates every
// call against the original schema, so what the API was not told is still enforced.
// A boolean in a keyword's place (`additionalProperties: false`) stays as written: it is what
// OpenAI's strict mode requires, and grammar-based servers (llama.cpp) cannot read `{"not": {}}`.
import type { JSONSchema } from '../tool/types.js';
import { isRecord } from '../util/record.js';

export type SchemaTarget = 'anthropic' | 'openai';

type Json = Record<string, unknown>;

/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keywords whose value is one subschema (items may also be a list, draft-07 tuples). */
const SCHEMA_VALUES = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
]);
const DROPPED = new Set(['$schema', '$id', '$defs', 'definitions', '$comment', '$anchor']);
/** Deeper than this, a schema is almost surely a runaway expansion; it becomes "any". */
const MAX_DEPTH = 40;

function pointerGet(root: Json, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    // JSON Pointer escapes (RFC 6901 §4): ~1 is "/", ~0 is "~"; refs are also URI-encoded.
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function refName(ref: string): string {
  return ref.split('/').pop() || 'the root schema';
}

/** Transforms every subschema (not the maps/lists holding them) with `fn`, depth-first. */
function mapSubschemas(node: Json, fn: (child: unknown) => unknown): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(key) && isRecord(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, fn(child)]));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map(fn);
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = Array.isArray(value) ? value.map(fn) : fn(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Replaces local `$ref`s by the schema they point to; a cycle becomes a described "any". */
function inlineRefs(node: unknown, root: Json, stack: readonly string[]): unknown {
  if (!isRecord(node)) return node;
  if (stack.length > MAX_DEPTH) return {};
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const { $ref: _ref, ...siblings } = node;
    const rest = inlineRefs(siblings, root, stack) as Json;
    if (stack.includes(ref)) {
      return { description: `Same shape as ${refName(ref)} (recursive).`, ...rest };
    }
    const target = pointerGet(root, ref);
    if (!isRecord(target)) return rest;
    // Siblings of $ref apply too (JSON Schema 2020-12 §8.2.3.1); here they override.
    return { ...(inlineRefs(target, root, [...stack, ref]) as Json), ...rest };
  }
  return mapSubschemas(node, (child) => inlineRefs(child, root, stack));
}

function dropMeta(node: Json): Json {
  return Object.fromEntries(Object.entries(node).filter(([key]) => !DROPPED.has(key)));
}

/** Folds top-level allOf (all apply) and anyOf/oneOf (one applies) into one object schema. */
function flattenTopCombinators(schema: Json): Json {
  let out: Json = { ...schema };
  const properties: Json = isRecord(out.properties) ? { ...out.properties } : {};
  const required = new Set(Array.isArray(out.required) ? out.required.filter((r) => typeof r === 'string') : []);
  const branchesOf = (key: string): Json[] => {
    const value = out[key];
    delete out[key];
    return Array.isArray(value) ? value.filter(isRecord) : [];
  };
  for (const branch of branchesOf('allOf')) {
    Object.assign(properties, isRecord(branch.properties) ? branch.properties : {});
    for (const r of Array.isArray(branch.required) ? branch.required : []) if (typeof r === 'string') required.add(r);
    if (out.description === undefined && typeof branch.description === 'string') out.description = branch.description;
  }
  const alternatives = [...branchesOf('anyOf'), ...branchesOf('oneOf')];
  if (alternatives.length > 0) {
    for (const branch of alternatives) {
      for (const [name, sub] of Object.entries(isRecord(branch.properties) ? branch.properties : {})) {
        if (!(name in properties)) properties[name] = sub;
      }
    }
    // Only what every alternative requires is required for sure.
    const [first, ...others] = alternatives.map(
      (b) => new Set(Array.isArray(b.required) ? b.required.filter((r) => typeof r === 'string') : []),
    );
    for (const name of first) if (others.every((set) => set.has(name))) required.add(name);
    const note = 'Accepts one of several shapes; send only the fields that belong together.';
    out.description = typeof out.description === 'string' ? `${out.description} ${note}` : note;
  }
  out = { ...out, type: 'object', properties };
  if (required.size > 0) out.required = [...required];
  else delete out.required;
  return out;
}

function describeFormat(node: Json): Json {
  const { format, ...rest } = node;
  if (typeof format !== 'string') return node;
  const note = `Format: ${format}.`;
  return { ...rest, description: typeof rest.description === 'string' ? `${rest.description} ${note}` : note };
}

/** OpenAI-dialect fixes for one subschema, applied everywhere below the top too. */
function openaiFixes(node: unknown): unknown {
  if (node === true) return {};
  if (node === false) return { not: {} };
  if (!isRecord(node)) return node;
  let out = describeFormat(dropMeta(node));
  if ('const' in out) {
    const { const: value, ...rest } = out;
    out = { ...rest, enum: [value] };
  }
  const fixed = mapSubschemas(out, openaiFixes);
  for (const key of SCHEMA_VALUES) if (typeof out[key] === 'boolean') fixed[key] = out[key];
  // `additionalProperties: {}` means "anything"; `true` says so in a form every parser reads.
  if (isRecord(fixed.additionalProperties) && Object.keys(fixed.additionalProperties).length === 0) {
    fixed.additionalProperties = true;
  }
  return fixed;
}

function dropMetaDeep(node: unknown): unknown {
  return isRecord(node) ? mapSubschemas(dropMeta(node), dropMetaDeep) : node;
}

/** Returns a copy of `schema` that the target API accepts; the input is not changed. */
export function sanitizeSchema(schema: JSONSchema, target: SchemaTarget): JSONSchema {
  const root: Json = isRecord(schema) ? schema : {};
  const inlined = inlineRefs(root, root, []) as Json;
  const top = flattenTopCombinators(dropMeta(inlined));
  return (target === 'openai' ? openaiFixes(top) : dropMetaDeep(top)) as JSONSchema;
}
