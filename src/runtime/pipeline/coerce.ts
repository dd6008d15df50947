// Stage 2b: fixing what the schema makes unambiguous, before validation. Every fix is told to the
// model as a note, except `null` for an optional parameter: OpenAI's strict mode makes every
// parameter required and optional ones nullable, so strict models send `null` for "absent".
//
// Unknown parameters (a documented choice): when the schema is closed (`additionalProperties:
// false`) they are left for validation, which refuses the call naming the known parameters; when
// it is open only by omission (no `additionalProperties`, `patternProperties` or combinators) they
// are dropped with a note, so a misspelt optional parameter never reaches the tool silently.
import type { JSONSchema } from '../tool/types.js';
import { typeName } from './outcome.js';
import { isRecord } from '../util/record.js';

export function schemaTypes(schema: JSONSchema | undefined): string[] {
  if (!schema) return [];
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  // zod emits optional/nullable fields as anyOf; look one level into it.
  const union = (schema.anyOf ?? schema.oneOf) as JSONSchema[] | undefined;
  if (Array.isArray(union)) return union.flatMap((member) => schemaTypes(member));
  return [];
}

/** Whether `null` is a value the schema could accept (so it must not be read as "absent"). */
function mayBeNull(schema: JSONSchema | undefined): boolean {
  if (!isRecord(schema) || schemaTypes(schema).includes('null')) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  if ('const' in schema) return schema.const === null;
  return schema.type === undefined && schema.anyOf === undefined && schema.oneOf === undefined;
}

/** The object's parameters when extra ones are open only because nothing closed them. */
function openByOmission(schema: JSONSchema, topLevel: boolean): string[] | undefined {
  const properties = schema.properties;
  // `properties: {}` is how generators (MCP SDKs, zod's z.object({})) say a tool takes no
  // parameters; deeper down it is as often a free-form object, so it stays open there.
  if (!isRecord(properties) || (Object.keys(properties).length === 0 && !topLevel)) return undefined;
  const opening = ['additionalProperties', 'unevaluatedProperties', 'patternProperties', 'anyOf', 'oneOf', 'allOf', '$ref', 'if'];
  return opening.some((key) => key in schema) ? undefined : Object.keys(properties);
}

/** The one enum string equal to `text` ignoring case and surrounding space, if exactly one is. */
function enumMatch(text: string, options: readonly unknown[]): string | undefined {
  const wanted = text.trim().toLowerCase();
  const matches = options.filter((option): option is string => typeof option === 'string' && option.toLowerCase() === wanted);
  return matches.length === 1 ? matches[0] : undefined;
}

/** Walks value and schema together, fixing what the schema makes unambiguous. */
export function coerceToSchema(value: unknown, schema: JSONSchema | undefined, path: string, notes: string[]): unknown {
  if (!schema) return value;
  const name = path || 'arguments';
  if (typeof value === 'string' && Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    const match = enumMatch(value, schema.enum);
    if (match !== undefined) {
      notes.push(`"${name}" was ${JSON.stringify(value.slice(0, 40))} and was read as ${JSON.stringify(match)}`);
      return match;
    }
  }
  const types = schemaTypes(schema);
  if (types.length === 0) return value;
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
  if (isRecord(value) && types.includes('object')) return coerceObject(value, schema, path, notes);
  if (Array.isArray(value) && types.includes('array')) {
    const items = schema.items as JSONSchema | undefined;
    return value.map((item, index) => coerceToSchema(item, items, `${name}[${index}]`, notes));
  }
  return value;
}

function coerceObject(value: Record<string, unknown>, schema: JSONSchema, path: string, notes: string[]): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JSONSchema>;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const known = openByOmission(schema, path === '');
  const dropped: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const declared = Object.hasOwn(properties, key);
    if (field === null && declared && !required.has(key) && !mayBeNull(properties[key])) continue;
    if (!declared && known !== undefined) {
      dropped.push(path ? `${path}.${key}` : key);
      continue;
    }
    // A "__proto__" key from the model stays a plain own key, as JSON.parse makes it.
    Object.defineProperty(out, key, {
      value: coerceToSchema(field, declared ? properties[key] : undefined, path ? `${path}.${key}` : key, notes),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  if (dropped.length > 0 && known !== undefined) {
    const list = dropped.map((key) => `"${key}"`).join(', ');
    notes.push(
      `${list} ${dropped.length === 1 ? 'is not a parameter' : 'are not parameters'} here and ${dropped.length === 1 ? 'was' : 'were'} ignored; ${known.length > 0 ? `the parameters are: ${known.join(', ')}` : 'this tool takes no parameters'}`,
    );
  }
  return out;
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
