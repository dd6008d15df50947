// The JSON Schema a model sees for a Standard Schema. Libraries that implement the Standard JSON
// Schema interface (zod ≥ 4.2, ArkType) convert themselves; zod 3 and valibot do not, so their own
// converters are used, loaded from the user's project when installed. A schema nothing can
// convert is an error at definition time: a silent `{type: "object"}` would show the model a
// tool without parameters.
import { createRequire } from 'node:module';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { JSONSchema } from './types.js';

type Converter = (schema: StandardSchemaV1) => JSONSchema;

/** Per vendor: the package that converts its schemas and how to call it. */
const VENDOR_CONVERTERS: Record<string, { pkg: string; convert: (mod: Record<string, unknown>, schema: unknown) => unknown }> = {
  zod: {
    pkg: 'zod-to-json-schema',
    convert: (mod, schema) =>
      (mod.zodToJsonSchema as (s: unknown, o: object) => unknown)(schema, { target: 'jsonSchema7', $refStrategy: 'none' }),
  },
  valibot: {
    pkg: '@valibot/to-json-schema',
    convert: (mod, schema) => (mod.toJsonSchema as (s: unknown, o: object) => unknown)(schema, { errorMode: 'ignore' }),
  },
};

const requireFromHere = createRequire(import.meta.url);

export class SchemaConversionError extends Error {
  override readonly name = 'SchemaConversionError';
}

function hasJSONSchemaConverter(schema: unknown): schema is StandardJSONSchemaV1 {
  const props = (schema as { '~standard'?: { jsonSchema?: unknown } })['~standard'];
  return typeof props?.jsonSchema === 'object' && props.jsonSchema !== null;
}

/** A zod 4 schema from a zod release before the Standard JSON Schema interface (3.25's `zod/v4`). */
function isEarlyZod4(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && '_zod' in schema;
}

function vendorConverter(vendor: string, load: (pkg: string) => Record<string, unknown>): Converter | undefined {
  const entry = VENDOR_CONVERTERS[vendor];
  if (!entry) return undefined;
  let mod: Record<string, unknown>;
  try {
    mod = load(entry.pkg);
  } catch {
    return undefined;
  }
  return (schema) => entry.convert(mod, schema) as JSONSchema;
}

function advice(vendor: string, toolName: string): string {
  const head = `defineTool(${toolName}): cannot turn this ${vendor} schema into the JSON Schema the model sees`;
  if (vendor === 'zod') {
    return `${head}. Use zod 4.2 or later (npm i zod@4), or install zod-to-json-schema for zod 3 (npm i zod-to-json-schema), or pass inputJSONSchema yourself.`;
  }
  const entry = VENDOR_CONVERTERS[vendor];
  if (entry) return `${head}. Install ${entry.pkg} (npm i ${entry.pkg}), or pass inputJSONSchema yourself.`;
  return `${head}: ${vendor} offers no Standard JSON Schema converter. Pass inputJSONSchema (a JSON Schema object) beside inputSchema.`;
}

/**
 * Converts a Standard Schema to JSON Schema (draft 2020-12 where the library supports targets),
 * without `$schema` (providers reject or ignore it; it only costs tokens).
 * `load` resolves a converter package; injectable so tests can show the missing-package error.
 */
export function jsonSchemaOf(
  schema: StandardSchemaV1,
  toolName: string,
  load: (pkg: string) => Record<string, unknown> = (pkg) => requireFromHere(pkg) as Record<string, unknown>,
): JSONSchema {
  let json: JSONSchema | undefined;
  const vendor = schema['~standard'].vendor;
  if (hasJSONSchemaConverter(schema)) json = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
  else if (!isEarlyZod4(schema)) json = vendorConverter(vendor, load)?.(schema);
  if (!json || typeof json !== 'object') throw new SchemaConversionError(advice(vendor, toolName));
  const { $schema: _dropped, ...rest } = json;
  return rest;
}
