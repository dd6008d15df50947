// Stage 2: turn the model's arguments into an object, repairing common damage and coercing
// scalar types where the schema asks for them; every repair is reported back to the model.
import { jsonrepair } from 'jsonrepair';
import type { JSONSchema } from '../tool/types.js';
import { fail, typeName, type StageResult } from './outcome.js';
import { messageOf } from '../util/message.js';
import { isRecord } from '../util/record.js';

/** Repairing megabytes of garbage is slow and never what the model meant. */
const MAX_REPAIR_CHARS = 200_000;

export type ToolInput = Record<string, unknown>;

export function parseArguments(raw: unknown, schema: JSONSchema): StageResult<ToolInput> {
  const notes: string[] = [];
  let value: unknown = raw;
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    value = {};
  } else if (typeof raw === 'string') {
    const parsed = parseJSONText(raw, schema);
    if (!parsed.ok) return parsed;
    value = parsed.value;
    notes.push(...(parsed.notes ?? []));
  }
  // Some models encode the arguments twice: the object arrives as a JSON string holding the object.
  if (typeof value === 'string' && value.trim().startsWith('{')) {
    const inner = parseJSONText(value, schema);
    if (inner.ok && isRecord(inner.value)) {
      value = inner.value;
      notes.push('the arguments were a JSON object encoded as a string and were decoded; send the object itself');
      notes.push(...(inner.notes ?? []));
    }
  }
  if (!isRecord(value)) {
    return fail(
      'invalid_input',
      `Tool arguments must be a JSON object like {"name": value, ...}, but got ${typeName(value)}. ` +
        `Send the parameters as an object matching the tool's input schema.`,
    );
  }
  const coerced = coerceToSchema(value, schema, '', notes);
  return { ok: true, value: coerced as ToolInput, notes };
}

function parseJSONText(text: string, schema: JSONSchema): StageResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    if (text.length > MAX_REPAIR_CHARS) {
      return fail('invalid_input', `Tool arguments are not valid JSON (${messageOf(error)}). Send a JSON object.`);
    }
    try {
      const repaired = JSON.parse(jsonrepair(text));
      return { ok: true, value: repaired, notes: ['the arguments were not valid JSON and were repaired'] };
    } catch {
      return fail(
        'invalid_input',
        `Tool arguments are not valid JSON (${messageOf(error)}) and could not be repaired. ` +
          `Send one JSON object with this tool's parameters, e.g. ${exampleArguments(schema)}.`,
      );
    }
  }
}

/** Placeholder values by JSON Schema type, for the shape of an example. */
const PLACEHOLDERS: Record<string, unknown> = { string: '...', number: 1, integer: 1, boolean: true, array: [], object: {}, null: null };

/** The shape of a call to this tool: its required parameters (or the first few) with placeholders. */
function exampleArguments(schema: JSONSchema): string {
  const properties = isRecord(schema.properties) ? (schema.properties as Record<string, JSONSchema>) : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string' && name in properties)
    : [];
  const names = required.length > 0 ? required : Object.keys(properties).slice(0, 3);
  const example = Object.fromEntries(names.map((name) => [name, PLACEHOLDERS[schemaTypes(properties[name])[0] ?? 'string'] ?? '...']));
  return JSON.stringify(example);
}

function schemaTypes(schema: JSONSchema | undefined): string[] {
  if (!schema) return [];
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  // zod emits optional/nullable fields as anyOf; look one level into it.
  const union = (schema.anyOf ?? schema.oneOf) as JSONSchema[] | undefined;
  if (Array.isArray(union)) return union.flatMap((member) => schemaTypes(member));
  return [];
}

/** Walks value and schema together, fixing what the schema makes unambiguous. */
function coerceToSchema(value: unknown, schema: JSONSchema | undefined, path: string, notes: string[]): unknown {
  if (!schema) return value;
  const types = schemaTypes(schema);
  if (types.length === 0) return value;
  const name = path || 'arguments';
  if (typeof value === 'string') {
    if (types.includes('string')) return value;
    const fixed = coerceString(value, types);
    if (fixed !== undefined) {
      notes.push(`"${name}" was the string ${JSON.stringify(value.slice(0, 40))} and was read as ${typeName(fixed)}`);
      return coerceToSchema(fixed, schema, path, notes);
    }
    return value;
  }
  if (typeof value === 'number' && !types.includes('number') && !types.includes('integer') && types.includes('string')) {
    notes.push(`"${name}" was the number ${value} and was read as a string`);
    return String(value);
  }
  if (isRecord(value) && types.includes('object')) {
    const properties = (schema.properties ?? {}) as Record<string, JSONSchema>;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      // A "__proto__" key from the model stays a plain own key, as JSON.parse makes it.
      Object.defineProperty(out, key, {
        value: coerceToSchema(field, Object.hasOwn(properties, key) ? properties[key] : undefined, path ? `${path}.${key}` : key, notes),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  if (Array.isArray(value) && types.includes('array')) {
    const items = schema.items as JSONSchema | undefined;
    return value.map((item, index) => coerceToSchema(item, items, `${name}[${index}]`, notes));
  }
  return value;
}

function coerceString(text: string, types: string[]): unknown {
  const trimmed = text.trim();
  if ((types.includes('number') || types.includes('integer')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(trimmed)) {
    const number = Number(trimmed);
    if (Number.isFinite(number)) return number;
  }
  if (types.includes('boolean') && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  if (types.includes('null') && trimmed === 'null') return null;
  // A JSON-encoded object or array inside a string field ("{\"a\": 1}").
  if ((types.includes('object') && trimmed.startsWith('{')) || (types.includes('array') && trimmed.startsWith('['))) {
    try {
      const decoded: unknown = JSON.parse(trimmed);
      if ((isRecord(decoded) && types.includes('object')) || (Array.isArray(decoded) && types.includes('array'))) {
        return decoded;
      }
    } catch {
      return undefined;
    }
  }
  return undefined;
}
