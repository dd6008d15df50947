// Every Standard Schema library gives the model the same parameters, or defineTool says why not.
import { describe, expect, it } from 'vitest';
import { type } from 'arktype';
import * as v from 'valibot';
import { z as z4 } from 'zod';
import { z as z3 } from 'zod3';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { jsonSchemaOf, SchemaConversionError } from '../../../src/runtime/tool/json-schema.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { makeRuntime } from '../pipeline/helpers.js';

const schemas: Record<string, StandardSchemaV1> = {
  'zod 4': z4.object({ city: z4.string(), days: z4.number().optional() }),
  'zod 3': z3.object({ city: z3.string(), days: z3.number().optional() }),
  valibot: v.object({ city: v.string(), days: v.optional(v.number()) }),
  arktype: type({ city: 'string', 'days?': 'number' }),
};

describe('JSON Schema from Standard Schema libraries', () => {
  it.each(Object.entries(schemas))('%s: the model sees both parameters, city required', (_name, schema) => {
    const json = jsonSchemaOf(schema, 'get_weather');
    expect(json).toMatchObject({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'number' } }, required: ['city'] });
    expect(json).not.toHaveProperty('$schema');
  });

  it.each(Object.entries(schemas))('%s: a damaged call is coerced and validated by the library itself', async (_name, schema) => {
    const tool = defineTool({ name: 'get_weather', description: 'weather', inputSchema: schema, call: async (input) => input });
    const rt = makeRuntime([tool]);
    const ok = await runToolCall(
      { id: 'a', name: 'get_weather', input: '{"city": "Lima", "days": "3"}' },
      rt,
      new AbortController().signal,
    );
    expect(ok.isError).toBe(false);
    expect(JSON.parse((ok.content[0] as { text: string }).text.split('\n\n').at(-1) as string)).toEqual({ city: 'Lima', days: 3 });
    const bad = await runToolCall({ id: 'b', name: 'get_weather', input: { days: 2 } }, rt, new AbortController().signal);
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toMatch(/city/);
    // The parameters the model is shown are the tool's own, never an empty object.
    expect((bad.content[0] as { text: string }).text).not.toMatch(/Expected parameters: \{\}/);
  });

  it('a library without a converter fails at definition, naming what to install', () => {
    const missing = (pkg: string): never => {
      throw new Error(`Cannot find module '${pkg}'`);
    };
    expect(() => jsonSchemaOf(schemas['zod 3'], 'get_weather', missing)).toThrow(SchemaConversionError);
    expect(() => jsonSchemaOf(schemas['zod 3'], 'get_weather', missing)).toThrow(/zod 4\.2 or later.*zod-to-json-schema.*inputJSONSchema/);
    expect(() => jsonSchemaOf(schemas.valibot, 'get_weather', missing)).toThrow(/npm i @valibot\/to-json-schema/);
  });

  it('an unknown library without the Standard JSON Schema interface is refused, not shown as {}', () => {
    const opaque: StandardSchemaV1 = {
      '~standard': { version: 1, vendor: 'homemade', validate: (value) => ({ value }) },
    };
    expect(() => defineTool({ name: 'x', description: 'x', inputSchema: opaque, call: async () => 1 })).toThrow(
      /defineTool\(x\): cannot turn this homemade schema.*Pass inputJSONSchema/,
    );
    // With inputJSONSchema beside it, the library still validates and the model sees the given schema.
    const tool = defineTool({
      name: 'x',
      description: 'x',
      inputSchema: opaque,
      inputJSONSchema: { type: 'object', properties: { a: { type: 'string' } } },
      call: async () => 1,
    });
    expect(tool.inputJSONSchema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });
});
