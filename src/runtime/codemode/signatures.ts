// The pool as a program sees it: one `.d.ts`-like line per tool, its input type written from the
// tool's JSON Schema, so the model writes `await tools.Read({file_path})` with the right names
// without the full schemas in its context. Pure; schemas it cannot express become `unknown`.
import type { AnyTool, JSONSchema } from '../tool/types.js';
import { oneLine } from '../search/doc.js';
import { isRecord } from '../util/record.js';

/** Nesting written out; deeper parts are `unknown` (the tool still validates them). */
const MAX_DEPTH = 4;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** How a program names a tool: `tools.Read`, or `tools["my-tool"]` for names that are not identifiers. */
export function accessor(name: string): string {
  return IDENTIFIER.test(name) ? `tools.${name}` : `tools[${JSON.stringify(name)}]`;
}

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function literal(value: unknown): string {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? JSON.stringify(value) : 'unknown';
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  return unique.length === 0 ? 'unknown' : unique.includes('unknown') ? 'unknown' : unique.join(' | ');
}

/** The TypeScript type of a JSON Schema, written compactly. */
export function typeOf(schema: unknown, depth = 0): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (!isRecord(schema) || depth > MAX_DEPTH) return 'unknown';
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return union(alternatives.map((part) => typeOf(part, depth + 1)));
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => typeOf({ ...schema, type }, depth)));
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = typeOf(schema.items, depth + 1);
      return item.includes(' ') ? `Array<${item}>` : `${item}[]`;
    }
    case 'object':
      return objectType(schema, depth);
    default:
      return isRecord(schema.properties) ? objectType(schema, depth) : 'unknown';
  }
}

function objectType(schema: JSONSchema, depth: number): string {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields = Object.entries(properties).map(
    ([name, part]) => `${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(part, depth + 1)}`,
  );
  const extra = schema.additionalProperties;
  if (isRecord(extra)) fields.push(`[key: string]: ${typeOf(extra, depth + 1)}`);
  if (fields.length === 0) return extra === false ? '{}' : 'Record<string, unknown>';
  return `{ ${fields.join('; ')} }`;
}

/** One tool as a program calls it: a comment with its one-line description, then its signature. */
export function signatureOf(tool: AnyTool, cwd: string): string {
  const summary = oneLine(tool.description({ cwd }), 120);
  return `// ${summary}\n${accessor(tool.name)}(input: ${typeOf(tool.inputJSONSchema)}): Promise<string>`;
}
