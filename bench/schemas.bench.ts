// Schemas as real tools and models use them (test/data/schemas/SOURCE.md): for every definition,
// one valid call and each applicable model mistake run through the real pipeline (runToolCall);
// every definition through both provider dialects (does a probe set get the same verdicts, i.e.
// is the meaning kept?) and through OpenAI strict mode (accepted or not).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { builtinTools } from '../src/coding/tools/index.js';
import { allowAll } from '../src/runtime/pipeline/policies.js';
import { runToolCall } from '../src/runtime/pipeline/run.js';
import { createRuntime } from '../src/runtime/pipeline/runtime.js';
import { sanitizeSchema } from '../src/runtime/providers/schema.js';
import { strictSchema } from '../src/runtime/providers/strict.js';
import { ToolRegistry } from '../src/runtime/registry/registry.js';
import { defineTool } from '../src/runtime/tool/define.js';
import { createSession } from '../src/runtime/tool/session.js';
import type { JSONSchema } from '../src/runtime/tool/types.js';

type Json = Record<string, unknown>;
interface Definition {
  set: string;
  name: string;
  schema: JSONSchema;
}

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Json);
const definitions: Definition[] = [
  ...lines('test/data/schemas/functions.jsonl').map((d) => ({ set: 'own', name: String(d.name), schema: d.parameters as JSONSchema })),
  ...lines('test/data/toolsearch/tools.jsonl').map((d) => ({
    set: 'toolbench',
    name: String(d.name),
    schema: d.input_schema as JSONSchema,
  })),
  ...builtinTools({ applyPatch: true })
    .filter((tool) => !tool.freeform)
    .map((tool) => ({ set: 'builtin', name: tool.name, schema: tool.inputJSONSchema })),
];

const props = (schema: JSONSchema): Record<string, Json> => (schema.properties ?? {}) as Record<string, Json>;
const required = (schema: JSONSchema): string[] => (schema.required ?? []) as string[];

/** A valid value for a property schema; undefined when the bench cannot make one. */
function valueFor(schema: Json): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  // ToolBench defaults are often strings whatever the type ("false", "5"): only a string's is used.
  if (schema.type === 'string' && typeof schema.default === 'string') return schema.default;
  switch (schema.type) {
    case 'string':
      return schema.format === 'date'
        ? '2026-01-02'
        : schema.format === 'date-time'
          ? '2026-01-02T10:00:00Z'
          : schema.pattern
            ? 'ABC'
            : 'abc';
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, Math.min(3, Number(schema.maximum ?? 3))) : 3;
    case 'boolean':
      return true;
    case 'array': {
      const item = valueFor((schema.items ?? { type: 'string' }) as Json);
      return item === undefined ? undefined : [item];
    }
    case 'object':
      return validCall(schema as JSONSchema);
    default:
      return undefined;
  }
}

/** Every required property and the first optional one. */
function validCall(schema: JSONSchema): Json | undefined {
  const call: Json = {};
  const optional = Object.keys(props(schema)).find((key) => !required(schema).includes(key));
  for (const key of [...required(schema), ...(optional ? [optional] : [])]) {
    const value = valueFor(props(schema)[key] ?? {});
    if (value === undefined) return undefined;
    call[key] = value;
  }
  return call;
}

type Expect = { repaired: Json } | { refused: RegExp };
interface Mistake {
  kind: string;
  raw: unknown;
  expect: Expect;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function mistakes(schema: JSONSchema, call: Json): Mistake[] {
  const out: Mistake[] = [];
  const entries = Object.entries(call);
  const typed = (type: string) => entries.find(([key]) => props(schema)[key]?.type === type && !props(schema)[key]?.enum);
  const number = typed('number') ?? typed('integer');
  if (number) out.push({ kind: 'number as string', raw: { ...call, [number[0]]: String(number[1]) }, expect: { repaired: call } });
  const bool = typed('boolean');
  if (bool) out.push({ kind: 'boolean as string', raw: { ...call, [bool[0]]: String(bool[1]) }, expect: { repaired: call } });
  const array = typed('array');
  if (array) out.push({ kind: 'array as JSON string', raw: { ...call, [array[0]]: JSON.stringify(array[1]) }, expect: { repaired: call } });
  const optional = entries.find(([key]) => !required(schema).includes(key));
  if (optional) {
    const { [optional[0]]: _dropped, ...without } = call;
    out.push({ kind: 'null for an optional parameter', raw: { ...call, [optional[0]]: null }, expect: { repaired: without } });
  }
  const needed = required(schema)[0];
  if (needed) {
    const { [needed]: _missing, ...rest } = call;
    out.push({ kind: 'missing required parameter', raw: rest, expect: { refused: new RegExp(escapeRegExp(needed)) } });
  }
  const enumerated = entries.find(([key]) => Array.isArray(props(schema)[key]?.enum));
  if (enumerated) {
    const allowed = props(schema)[enumerated[0]].enum as unknown[];
    out.push({
      kind: 'value not in the enum',
      raw: { ...call, [enumerated[0]]: 'not-a-listed-value' },
      expect: { refused: new RegExp(allowed.map((v) => escapeRegExp(JSON.stringify(v))).join('.*'), 's') },
    });
  }
  // Unknown keys: refused naming a known one when the schema is closed, dropped with a note otherwise.
  const closed = schema.additionalProperties === false;
  out.push({
    kind: 'unexpected parameter',
    raw: { ...call, colour: 'blue' },
    expect: closed ? { refused: new RegExp(`colour[\\s\\S]*${escapeRegExp(Object.keys(props(schema))[0] ?? '')}`) } : { repaired: call },
  });
  const text = JSON.stringify(call);
  if (text !== '{}') out.push({ kind: 'trailing comma', raw: `${text.slice(0, -1)},}`, expect: { repaired: call } });
  const stringAt = text.lastIndexOf('":"');
  if (stringAt > 0) out.push({ kind: 'cut off inside a string', raw: text.slice(0, stringAt + 4), expect: { refused: /cut off/i } });
  return out;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wield-bench-schemas-'));
const session = createSession({ cwd: dir, dir: path.join(dir, '.session') });
const byKind = new Map<string, { handled: number; total: number }>();
const failures: string[] = [];
let valid = 0;
let calls = 0;
for (const def of definitions) {
  const call = validCall(def.schema);
  if (!call) continue;
  let received: Json | undefined;
  const tool = defineTool({
    name: 'Probe',
    description: def.name,
    inputJSONSchema: def.schema,
    call: async (input: Json) => {
      received = input;
      return 'ok';
    },
  });
  const registry = new ToolRegistry();
  registry.register(tool);
  const rt = createRuntime({ registry, session, policy: allowAll });
  const run = async (raw: unknown) => {
    received = undefined;
    const result = await runToolCall({ id: 'b', name: 'Probe', input: raw }, rt);
    return { result, text: result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n') };
  };
  calls++;
  const plain = await run(call);
  if (!plain.result.isError && isDeepStrictEqual(received, call)) valid++;
  else failures.push(`${def.set}/${def.name} valid call: ${plain.text.slice(0, 160)}`);
  for (const mistake of mistakes(def.schema, call)) {
    const { result, text } = await run(mistake.raw);
    const ok =
      'repaired' in mistake.expect
        ? !result.isError && isDeepStrictEqual(received, mistake.expect.repaired)
        : result.isError && received === undefined && mistake.expect.refused.test(text);
    const tally = byKind.get(mistake.kind) ?? { handled: 0, total: 0 };
    tally.total++;
    if (ok) tally.handled++;
    else if (failures.length < 400) failures.push(`${def.set}/${def.name} ${mistake.kind}: ${text.slice(0, 160)}`);
    byKind.set(mistake.kind, tally);
  }
}

// Meaning: the original and each dialect's schema must agree on every probe instance.
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
function probes(schema: JSONSchema, call: Json): unknown[] {
  const out: unknown[] = [call, { ...call, colour: 'blue' }, {}];
  for (const key of Object.keys(props(schema))) {
    out.push({ ...call, [key]: null }, { ...call, [key]: 12345 }, { ...call, [key]: 'text' }, { ...call, [key]: [1] });
  }
  return out;
}
let changed = 0;
const changedNames: string[] = [];
let strictOk = 0;
const strictReasons = new Map<string, number>();
for (const def of definitions) {
  const call = validCall(def.schema) ?? {};
  const original = ajv.compile(def.schema);
  const targets = (['anthropic', 'openai'] as const).map((target) => ajv.compile(sanitizeSchema(def.schema, target)));
  const differs = probes(def.schema, call).some((probe) => targets.some((converted) => converted(probe) !== original(probe)));
  if (differs) {
    changed++;
    if (changedNames.length < 10) changedNames.push(`${def.set}/${def.name}`);
  }
  const strict = strictSchema(def.schema);
  if (strict.ok) strictOk++;
  else strictReasons.set(strict.reason, (strictReasons.get(strict.reason) ?? 0) + 1);
}
fs.rmSync(dir, { recursive: true, force: true });

const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
let handled = 0;
let total = 0;
console.log(
  `definitions: ${definitions.length} (own 16, ToolBench 2,479, built-in ${definitions.filter((d) => d.set === 'builtin').length}); valid calls accepted as sent: ${valid}/${calls}`,
);
console.log('mistake kind | handled');
for (const [kind, tally] of byKind) {
  handled += tally.handled;
  total += tally.total;
  console.log(`${kind} | ${tally.handled}/${tally.total} (${pct(tally.handled, tally.total)})`);
}
console.log(`all mistakes | ${handled}/${total} (${pct(handled, total)})`);
console.log(`schemas whose meaning changed in a dialect: ${changed}${changedNames.length ? ` (${changedNames.join(', ')})` : ''}`);
console.log(`strict mode accepted: ${strictOk}/${definitions.length} (${pct(strictOk, definitions.length)})`);
for (const [reason, count] of strictReasons) console.log(`  not strict (${count}): ${reason}`);
if (process.env.SCHEMAS_BENCH_FAILURES) for (const line of failures) console.log(`  ${line}`);
