// defineTool(): fills what a tool leaves out with the safe choice (not read-only, not
// concurrency-safe, not destructive, interrupt = block, permissions = passthrough).
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { jsonSchemaOf } from './json-schema.js';
import { freeformProblem, freeformSchema } from './freeform.js';
import { responseFormatsProblem, withResponseFormatParameter } from './response-format.js';
import type {
  DescribeContext,
  FreeformInput,
  JSONSchema,
  PermissionCheck,
  ResponseFormats,
  ResultBudget,
  Tool,
  ToolContext,
  ToolResultContent,
  ToolSource,
  TouchedPath,
  ValidationResult,
  InterruptBehavior,
} from './types.js';

export const DEFAULT_MAX_RESULT_CHARS = 30_000;

type Text = string | ((ctx: DescribeContext) => string);

export interface ToolDefinition<I, O> {
  name: string;
  aliases?: readonly string[];
  searchHint?: string;
  source?: ToolSource;
  server?: string;
  alwaysLoad?: boolean;
  description: Text;
  prompt?: Text;
  /** Any Standard Schema (zod 4 for our own tools). */
  inputSchema?: StandardSchemaV1<unknown, I>;
  /** Raw JSON Schema (as MCP tools bring); validated with Ajv when no inputSchema is given. */
  inputJSONSchema?: JSONSchema;
  outputSchema?: JSONSchema;
  /**
   * A grammar for raw-text input (a `custom` tool on the OpenAI Responses API, a one-string JSON
   * function elsewhere); the tool then gets `{input: string}` and needs no input schema.
   */
  freeform?: FreeformInput;
  /** Result formats the model may choose; the model's schema gets a `response_format` parameter. */
  responseFormats?: ResponseFormats;
  isEnabled?: () => boolean;
  isReadOnly?: (input: I) => boolean;
  isConcurrencySafe?: (input: I) => boolean;
  isDestructive?: (input: I) => boolean;
  interruptBehavior?: () => InterruptBehavior;
  validateInput?: (input: I, ctx: ToolContext) => ValidationResult | Promise<ValidationResult>;
  checkPermissions?: (input: I, ctx: ToolContext) => PermissionCheck | Promise<PermissionCheck>;
  permissionMatcher?: (input: I) => (ruleContent: string) => boolean;
  ruleParts?: (input: I) => I[];
  touchedPaths?: (input: I, ctx: { cwd: string }) => TouchedPath[];
  mentionedPaths?: (input: I, ctx: { cwd: string }) => string[];
  writeKey?: (input: I, ctx: { cwd: string }) => string | undefined;
  call: (input: I, ctx: ToolContext) => Promise<O>;
  toModel?: (output: O, budget: ResultBudget, format?: string) => ToolResultContent;
  toDisplay?: (output: O) => string;
  maxResultChars?: number;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Behaviour of a tool that only reads: it may run beside other safe calls and can be stopped
 * mid-way without harm. Spread it into a definition: `defineTool({ ...READ_ONLY, ... })`.
 */
export const READ_ONLY = {
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  interruptBehavior: (): InterruptBehavior => 'cancel',
} as const;

function asText(text: Text): (ctx: DescribeContext) => string {
  return typeof text === 'function' ? text : () => text;
}

/** Default mapping: strings pass through, anything else is shown as pretty JSON. */
export function defaultToModel(output: unknown): ToolResultContent {
  const text = typeof output === 'string' ? output : output === undefined ? '(no output)' : JSON.stringify(output, null, 2);
  return { content: [{ type: 'text', text }] };
}

export function defineTool<I = Record<string, unknown>, O = unknown>(def: ToolDefinition<I, O>): Tool<I, O> {
  // (test() would read a missing name as the word "undefined")
  if (typeof def.name !== 'string' || !TOOL_NAME.test(def.name)) {
    throw new Error(`defineTool: name ${JSON.stringify(def.name)} must be 1-64 characters of [A-Za-z0-9_-]`);
  }
  if (def.freeform) {
    if (def.inputSchema || def.inputJSONSchema) {
      throw new Error(`defineTool(${def.name}): a freeform tool takes its input as {input: string}; drop inputSchema and inputJSONSchema`);
    }
    const problem = freeformProblem(def.freeform);
    if (problem) throw new Error(`defineTool(${def.name}): ${problem}`);
  } else if (!def.inputSchema && !def.inputJSONSchema) {
    throw new Error(`defineTool(${def.name}): give inputSchema (Standard Schema) or inputJSONSchema`);
  }
  if (typeof def.call !== 'function') throw new Error(`defineTool(${def.name}): give call, the function that runs the tool`);
  const ownSchema = def.freeform
    ? freeformSchema(def.freeform)
    : (def.inputJSONSchema ?? jsonSchemaOf(def.inputSchema as StandardSchemaV1, def.name));
  // Every model API takes tool arguments as one JSON object; a string or array schema could never be called.
  if (typeof ownSchema !== 'object' || ownSchema === null || (ownSchema.type !== undefined && ownSchema.type !== 'object')) {
    throw new Error(
      `defineTool(${def.name}): the input schema must describe a JSON object ({"type": "object", "properties": {...}}, or z.object(...)), not ${JSON.stringify(ownSchema.type ?? ownSchema)}`,
    );
  }
  const formatsProblem = def.responseFormats && responseFormatsProblem(def.responseFormats, ownSchema);
  if (formatsProblem) throw new Error(`defineTool(${def.name}): ${formatsProblem}`);
  const inputJSONSchema = def.responseFormats ? withResponseFormatParameter(ownSchema, def.responseFormats) : ownSchema;
  return {
    name: def.name,
    aliases: def.aliases ?? [],
    searchHint: def.searchHint,
    source: def.source ?? 'user',
    server: def.server,
    alwaysLoad: def.alwaysLoad,
    description: asText(def.description),
    prompt: def.prompt === undefined ? undefined : asText(def.prompt),
    inputSchema: def.inputSchema,
    inputJSONSchema,
    outputSchema: def.outputSchema,
    freeform: def.freeform,
    responseFormats: def.responseFormats,
    isEnabled: def.isEnabled ?? (() => true),
    isReadOnly: def.isReadOnly ?? (() => false),
    isConcurrencySafe: def.isConcurrencySafe ?? (() => false),
    isDestructive: def.isDestructive ?? (() => false),
    interruptBehavior: def.interruptBehavior ?? (() => 'block'),
    validateInput: def.validateInput,
    checkPermissions: def.checkPermissions ?? (() => ({ behavior: 'passthrough' })),
    permissionMatcher: def.permissionMatcher,
    ruleParts: def.ruleParts,
    touchedPaths: def.touchedPaths,
    mentionedPaths: def.mentionedPaths,
    writeKey: def.writeKey,
    call: def.call,
    toModel: def.toModel ?? defaultToModel,
    toDisplay: def.toDisplay,
    maxResultChars: def.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
  };
}
