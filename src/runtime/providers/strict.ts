// OpenAI strict mode for function tools: the schema rewritten to the subset strict mode accepts,
// or the reason it cannot be. Pure. Rules from OpenAI's Structured Outputs guide ("Supported
// schemas"): every object lists all its properties in `required` and sets
// `additionalProperties: false`; optional parameters become nullable (wield reads `null` for an
// optional parameter as absent, see pipeline/coerce.ts); only the keywords below are supported;
// at most 5,000 properties, 10 levels of nesting and 1,000 enum values.
// Validation keywords strict mode lacks (minLength, maxItems' cousins, default...) are dropped:
// wield validates every call against the original schema, so they are still enforced.
import type { JSONSchema } from '../tool/types.js';
import { isRecord } from '../util/record.js';
import { sanitizeSchema } from './schema.js';

type Json = Record<string, unknown>;

const MAX_PROPERTIES = 5_000;
const MAX_NESTING = 10;
const MAX_ENUM_VALUES = 1_000;
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Keywords strict mode reads, besides the structural ones handled below. */
const KEPT = new Set([
  'type',
  'description',
  'title',
  'enum',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

export type StrictResult = { ok: true; schema: JSONSchema } | { ok: false; reason: string };

class NotStrict extends Error {}

interface Count {
  properties: number;
  enumValues: number;
}

function nullable(node: Json): Json {
  if (Array.isArray(node.anyOf))
    return node.anyOf.some((b) => isRecord(b) && b.type === 'null') ? node : { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  const out: Json = { ...node };
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (!types.includes('null')) out.type = [...types, 'null'];
  return out;
}

function strictNode(node: unknown, where: string, depth: number, count: Count): Json {
  if (!isRecord(node)) throw new NotStrict(`${where} allows any value`);
  if (depth > MAX_NESTING) throw new NotStrict(`it nests deeper than ${MAX_NESTING} levels`);
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf.map((branch, i) => strictNode(branch, `${where} (alternative ${i + 1})`, depth, count));
    return { ...(typeof node.description === 'string' ? { description: node.description } : {}), anyOf: branches };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) if (KEPT.has(key) && typeof value !== 'boolean') out[key] = value;
  const types = Array.isArray(out.type) ? out.type : out.type === undefined ? [] : [out.type];
  if (Array.isArray(out.enum)) {
    count.enumValues += out.enum.length;
    if (out.type === undefined) {
      const kinds = new Set(out.enum.map((v) => (v === null ? 'null' : Number.isInteger(v) ? 'number' : typeof v)));
      out.type = kinds.size === 1 ? [...kinds][0] : [...kinds];
    }
  } else if (types.length === 0 || !types.every((t) => typeof t === 'string' && TYPES.has(t))) {
    throw new NotStrict(`${where} has no type strict mode can express`);
  }
  if (types.includes('object')) {
    const properties = isRecord(node.properties) ? node.properties : {};
    const extra = node.additionalProperties;
    if ((extra !== undefined && extra !== false) || isRecord(node.patternProperties) || Object.keys(properties).length === 0) {
      throw new NotStrict(`${where} is an object with free-form keys`);
    }
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    count.properties += Object.keys(properties).length;
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, sub]) => {
        const strict = strictNode(sub, `"${name}"`, depth + 1, count);
        return [name, required.has(name) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (types.includes('array')) {
    if (node.items === undefined || Array.isArray(node.items)) throw new NotStrict(`${where} is an array without one item schema`);
    out.items = strictNode(node.items, `${where} items`, depth + 1, count);
  }
  return out;
}

/** The strict form of an OpenAI-dialect schema (see schema.ts), or why there is none. */
export function strictSchema(schema: JSONSchema): StrictResult {
  const count: Count = { properties: 0, enumValues: 0 };
  try {
    const empty = !isRecord(schema.properties) || Object.keys(schema.properties).length === 0;
    // A tool without parameters is still an object; strict mode accepts it empty.
    const strict =
      empty && (schema.additionalProperties === undefined || schema.additionalProperties === false)
        ? { type: 'object', properties: {}, required: [], additionalProperties: false }
        : strictNode(schema, 'the input', 1, count);
    if (count.properties > MAX_PROPERTIES) return { ok: false, reason: `it has more than ${MAX_PROPERTIES} properties` };
    if (count.enumValues > MAX_ENUM_VALUES) return { ok: false, reason: `it has more than ${MAX_ENUM_VALUES} enum values` };
    return { ok: true, schema: strict };
  } catch (error) {
    if (error instanceof NotStrict) return { ok: false, reason: error.message };
    throw error;
  }
}

/** Strict mode as a provider was asked for it: `onNotStrict` says why a tool goes without it. */
export interface StrictMode {
  onNotStrict: (tool: string, reason: string) => void;
}

/** A tool's OpenAI parameters and strict flag; non-strict when not asked for or not possible. */
export function openaiParameters(
  name: string,
  schema: JSONSchema,
  mode: StrictMode | undefined,
): { parameters: JSONSchema; strict: boolean } {
  const parameters = sanitizeSchema(schema, 'openai');
  if (mode === undefined) return { parameters, strict: false };
  const strict = strictSchema(parameters);
  if (strict.ok) return { parameters: strict.schema, strict: true };
  mode.onNotStrict(name, strict.reason);
  return { parameters, strict: false };
}

/** The strict mode a provider option asks for, saying once per tool why one cannot be strict. */
export function strictModeOf(enabled: boolean | undefined, notice: (message: string) => void): StrictMode | undefined {
  if (enabled !== true) return undefined;
  const said = new Set<string>();
  return {
    onNotStrict(tool, reason) {
      if (said.has(tool)) return;
      said.add(tool);
      notice(`${tool} is sent without OpenAI strict mode: ${reason}. wield still validates its calls.`);
    },
  };
}
