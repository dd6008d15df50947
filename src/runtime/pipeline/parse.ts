// Stage 2: turn the model's arguments into an object, repairing common damage and coercing
// scalar types where the schema asks for them; every repair is reported back to the model.
// Arguments that end inside a string, array or object the model never closed were cut off, not
// damaged: "repairing" them would run half a call (a Write of half the file), so they are refused.
import { jsonrepair } from 'jsonrepair';
import type { JSONSchema } from '../tool/types.js';
import { coerceToSchema, schemaTypes } from './coerce.js';
import { fail, typeName, type StageResult } from './outcome.js';
import { messageOf } from '../util/message.js';
import { isRecord } from '../util/record.js';
import { jsonDepth, MAX_ARGUMENT_DEPTH, scanStructure } from '../util/json-depth.js';

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
  const depth = jsonDepth(text);
  if (depth > MAX_ARGUMENT_DEPTH) {
    return fail(
      'invalid_input',
      `Tool arguments nest ${depth} levels deep; at most ${MAX_ARGUMENT_DEPTH} are accepted, so nothing was run. Send a flatter object matching the tool's input schema.`,
    );
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const open = unclosed(text);
    if (open !== undefined) {
      return fail(
        'invalid_input',
        `Tool arguments were cut off: the JSON ends inside ${open} that was never closed, so nothing was run. ` +
          'Send the whole call again; if it is long, send it in smaller parts.',
      );
    }
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

const CLOSERS: Record<string, string> = { '{': '}', '[': ']' };

/** What the text ends inside of, if it stops before closing a string, array or object it opened. */
export function unclosed(text: string): string | undefined {
  const stack: string[] = [];
  const openQuote = scanStructure(text, `"'`, (bracket) => {
    if (bracket === '{' || bracket === '[') stack.push(CLOSERS[bracket] as string);
    // A closer also closes anything opened after its match and left open (damage, not a cut).
    else if (stack.includes(bracket)) stack.length = stack.lastIndexOf(bracket);
  });
  if (openQuote !== undefined) return 'a string';
  const last = stack.at(-1);
  return last === undefined ? undefined : last === '}' ? 'an object' : 'an array';
}
