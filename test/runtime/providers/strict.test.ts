// OpenAI strict mode: schemas rewritten to the subset it accepts (checked here by its rules,
// independently of the converter), the rest sent non-strict and said once, end to end through
// the real SDK against a stand-in server.
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createProvider, sanitizeSchema, strictSchema } from '../../../src/runtime/providers/index.js';
import type { JSONSchema } from '../../../src/runtime/tool/types.js';
import { startStandin, type Standin } from '../../support/standin/index.js';
import { collect, request } from './helpers.js';
import { ajvCheck, near, toolSchema } from './schema-arbitrary.js';

type Json = Record<string, unknown>;

const ALLOWED = new Set(['type', 'description', 'title', 'enum', 'pattern', 'format', 'multipleOf', 'minimum', 'maximum']);
const STRUCTURE = new Set([
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

/** The rules of OpenAI's "Supported schemas", as a list of what a schema breaks. */
function ruleBreaks(node: unknown, where = '$'): string[] {
  if (typeof node !== 'object' || node === null) return [`${where} is not a schema`];
  const s = node as Json;
  const out = Object.keys(s)
    .filter((key) => !ALLOWED.has(key) && !STRUCTURE.has(key))
    .map((key) => `${where} uses ${key}`);
  if (Array.isArray(s.anyOf)) return [...out, ...s.anyOf.flatMap((b, i) => ruleBreaks(b, `${where}.anyOf[${i}]`))];
  if (s.type === undefined) out.push(`${where} has no type`);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('object')) {
    const properties = (s.properties ?? {}) as Json;
    if (s.additionalProperties !== false) out.push(`${where} is open`);
    if (JSON.stringify(s.required) !== JSON.stringify(Object.keys(properties))) out.push(`${where} does not require all`);
    for (const [name, sub] of Object.entries(properties)) out.push(...ruleBreaks(sub, `${where}.${name}`));
  }
  if (types.includes('array')) out.push(...ruleBreaks(s.items, `${where}[]`));
  return out;
}

/** The instance as a strict model sends it: every absent optional parameter as null. */
function asStrictModelSends(instance: unknown, original: unknown): unknown {
  const s = original as Json;
  if (typeof instance !== 'object' || instance === null || Array.isArray(instance) || typeof s?.properties !== 'object') return instance;
  const out: Json = { ...(instance as Json) };
  for (const [name, sub] of Object.entries(s.properties as Json)) out[name] = name in out ? asStrictModelSends(out[name], sub) : null;
  return out;
}

describe('strictSchema', () => {
  const accepts = ajvCheck();

  it('follows strict mode rules when it succeeds, and never refuses a call the original accepts', () => {
    let strict = 0;
    fc.assert(
      fc.property(
        toolSchema.chain((schema) => fc.tuple(fc.constant(schema), fc.array(near(schema), { minLength: 4, maxLength: 4 }))),
        ([schema, instances]) => {
          const openai = sanitizeSchema(schema as JSONSchema, 'openai');
          const result = strictSchema(openai);
          if (!result.ok) return void expect(result.reason).toMatch(/any value|free-form|no type|item schema|deeper|more than/);
          strict++;
          expect(ruleBreaks(result.schema)).toEqual([]);
          for (const instance of instances) {
            if (!accepts(openai, instance)) continue;
            // Nested optional objects keep their own shape: only the top level is filled here.
            const sent = asStrictModelSends(instance, openai);
            expect(accepts(result.schema, sent), JSON.stringify({ strict: result.schema, sent })).toBe(true);
          }
        },
      ),
      { numRuns: 150, seed: 7 },
    );
    expect(strict).toBeGreaterThan(20);
  });

  it('makes optional parameters required and nullable, closes objects, and drops keywords strict mode lacks', () => {
    const schema = {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1 },
        mode: { enum: ['a', 'b'] },
        deep: { type: 'object', properties: { n: { type: 'integer', default: 1 } } },
      },
      required: ['path'],
    };
    expect(strictSchema(schema)).toEqual({
      ok: true,
      schema: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          mode: { enum: ['a', 'b', null], type: ['string', 'null'] },
          deep: {
            type: ['object', 'null'],
            properties: { n: { type: ['integer', 'null'] } },
            required: ['n'],
            additionalProperties: false,
          },
        },
        required: ['path', 'mode', 'deep'],
        additionalProperties: false,
      },
    });
    expect(strictSchema({ type: 'object', properties: {} })).toMatchObject({ ok: true });
    expect(strictSchema({ type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } } } })).toEqual({
      ok: false,
      reason: '"env" is an object with free-form keys',
    });
  });
});

describe('strict mode through the OpenAI SDK', () => {
  let standin: Standin | undefined;
  afterEach(async () => {
    await standin?.close();
    standin = undefined;
  });

  it.each(['openai', 'openai-responses'] as const)('%s: strict where possible, the rest non-strict and said once', async (dialect) => {
    standin = await startStandin({ dialect, script: [{ text: 'one' }, { text: 'two' }] });
    const notices: string[] = [];
    const provider = await createProvider({
      provider: dialect,
      baseURL: standin.url,
      apiKey: 'k',
      env: {},
      strictTools: true,
      onNotice: (m) => notices.push(m),
    });
    const tools = [
      {
        name: 'Read',
        description: 'r',
        inputSchema: { type: 'object', properties: { file_path: { type: 'string' }, limit: { type: 'integer' } }, required: ['file_path'] },
      },
      { name: 'Env', description: 'e', inputSchema: { type: 'object', properties: { vars: { type: 'object' } } } },
    ];
    for (let i = 0; i < 2; i++) await collect(provider.stream(request({ tools }), new AbortController().signal));
    const sent = (standin.requests as Json[]).map((body) =>
      (body.tools as Json[]).map((t) => (dialect === 'openai' ? (t.function as Json) : t)),
    );
    expect(sent[1][0]).toMatchObject({ strict: true, parameters: { required: ['file_path', 'limit'], additionalProperties: false } });
    expect(sent[1][1]).toMatchObject({ strict: false });
    expect(notices).toEqual([
      'Env is sent without OpenAI strict mode: "vars" is an object with free-form keys. wield still validates its calls.',
    ]);
  });
});
