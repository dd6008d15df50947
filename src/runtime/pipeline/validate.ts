// Stage 3: schema validation. Standard Schema (zod) when the tool has one, else the raw JSON
// Schema with Ajv 2020 (compiled on first use, cached per schema object).
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { AnyTool, JSONSchema } from '../tool/types.js';
import { fail, preview, typeName, type StageResult } from './outcome.js';
import { messageOf } from '../util/message.js';
import type { ToolInput } from './parse.js';

/** Validation errors beyond this many are summarised; the model fixes the first ones first. */
const MAX_LISTED_ISSUES = 8;

let ajv: Ajv2020 | undefined;
const compiled = new WeakMap<JSONSchema, ValidateFunction | Error>();

/** Ajv is loaded when the first raw JSON Schema is validated: built-ins never need it. */
async function loadAjv(): Promise<Ajv2020> {
  if (!ajv) {
    const { Ajv2020: AjvClass } = await import('ajv/dist/2020.js');
    // strict: false — MCP servers send vendor keywords and formats Ajv would otherwise reject.
    ajv = new AjvClass({ strict: false, allErrors: true, validateFormats: false });
  }
  return ajv;
}

function compile(ajv: Ajv2020, schema: JSONSchema): ValidateFunction | Error {
  const cached = compiled.get(schema);
  if (cached) return cached;
  let result: ValidateFunction | Error;
  try {
    result = ajv.compile(schema);
  } catch (error) {
    result = new Error(messageOf(error));
  }
  compiled.set(schema, result);
  return result;
}

export async function validateArguments(tool: AnyTool, input: ToolInput): Promise<StageResult<ToolInput>> {
  return tool.inputSchema ? validateStandard(tool, input) : validateJSONSchema(tool, input);
}

async function validateStandard(tool: AnyTool, input: ToolInput): Promise<StageResult<ToolInput>> {
  const schema = tool.inputSchema as StandardSchemaV1<unknown, ToolInput>;
  let result: StandardSchemaV1.Result<ToolInput>;
  try {
    result = await schema['~standard'].validate(input);
  } catch (error) {
    return fail('tool_failed', `${tool.name}: the input could not be validated (${messageOf(error)}).`);
  }
  if (!result.issues) return { ok: true, value: result.value };
  const lines = result.issues.map((issue) => {
    const path = (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)).map(String);
    return describeIssue(path, issue.message, valueAt(input, path));
  });
  return invalid(tool, lines);
}

async function validateJSONSchema(tool: AnyTool, input: ToolInput): Promise<StageResult<ToolInput>> {
  const validate = compile(ajv ?? (await loadAjv()), tool.inputJSONSchema);
  if (validate instanceof Error) {
    return fail(
      'tool_failed',
      `${tool.name} cannot be called: its input schema is invalid (${validate.message}). This is a problem of the tool, not of your call.`,
    );
  }
  if (validate(input)) return { ok: true, value: input };
  const lines = (validate.errors ?? []).map((error: ErrorObject) => {
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'required') path.push(String((error.params as { missingProperty?: string }).missingProperty));
    if (error.keyword === 'additionalProperties') {
      path.push(String((error.params as { additionalProperty?: string }).additionalProperty));
      return describeIssue(path, 'is not a parameter of this tool; remove it', valueAt(input, path));
    }
    return describeIssue(path, ajvMessage(error), valueAt(input, path));
  });
  return invalid(tool, lines);
}

/** Ajv's message, with the allowed values where it leaves them out (the model needs them). */
function ajvMessage(error: ErrorObject): string {
  const params = error.params as { allowedValues?: unknown[]; allowedValue?: unknown };
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return `must be one of ${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  if (error.keyword === 'const') return `must be ${JSON.stringify(params.allowedValue)}`;
  return error.message ?? error.keyword;
}

function invalid(tool: AnyTool, lines: string[]): StageResult<ToolInput> {
  const unique = [...new Set(lines)];
  const shown = unique.slice(0, MAX_LISTED_ISSUES);
  const more = unique.length > shown.length ? `\n- …and ${unique.length - shown.length} more` : '';
  const expected = Object.keys((tool.inputJSONSchema.properties ?? {}) as object);
  const required = (tool.inputJSONSchema.required ?? []) as string[];
  const signature = expected.map((key) => (required.includes(key) ? key : `${key}?`)).join(', ');
  return fail(
    'invalid_input',
    `Invalid input for ${tool.name}:\n${shown.map((line) => `- ${line}`).join('\n')}${more}\n` +
      `Expected parameters: {${signature}}. Fix these and call again.`,
  );
}

function describeIssue(path: string[], message: string, value: unknown): string {
  const where = path.length > 0 ? `"${path.join('.')}"` : 'input';
  const got = value === undefined ? 'nothing (missing)' : `${typeName(value)} ${preview(value)}`;
  return `${where}: ${message} (got ${got})`;
}

function valueAt(input: unknown, path: string[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
