// What a server lists, checked tool by tool: a malformed entry or a schema Ajv rejects is
// reported and skipped, and the server's other tools still load.
import type { Client } from '@modelcontextprotocol/client';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import type { JSONSchema } from '../tool/types.js';
import { headerDeclarationError } from './tool-headers.js';

const annotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

const toolSchema = z.looseObject({
  name: z.string().min(1, 'name must be a non-empty string'),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject(
    { type: z.literal('object', { error: 'inputSchema.type must be "object"' }) },
    { error: 'inputSchema must be a JSON Schema object' },
  ),
  annotations: annotationsSchema.optional(),
});

export type McpToolAnnotations = z.infer<typeof annotationsSchema>;

export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JSONSchema;
  annotations?: McpToolAnnotations;
  /** The entry as the server listed it (`$schema`, outputSchema, icons…), for the gateway. */
  definition?: Record<string, unknown>;
  /** `execution.taskSupport`: "required" tools must be called as tasks (MCP 2025-11-25). */
  taskSupport?: 'required' | 'optional' | 'forbidden';
}

/** A tool's `execution.taskSupport`, when it is one the spec defines. Pure. */
function taskSupportOf(tool: Record<string, unknown>): McpToolInfo['taskSupport'] {
  const execution = tool.execution;
  const support = typeof execution === 'object' && execution !== null ? (execution as Record<string, unknown>).taskSupport : undefined;
  return support === 'required' || support === 'optional' || support === 'forbidden' ? support : undefined;
}

export interface ToolListCheck {
  tools: McpToolInfo[];
  /** One line per rejected tool, naming it and what was wrong. */
  errors: string[];
}

// Only the meta-schema check runs here (compiling thousands of schemas up front would cost
// seconds); the pipeline compiles a tool's schema when it is first called.
const ajv = new Ajv2020({ strict: false, allErrors: false });

/** MCP's default dialect: kept as the server declared it (SEP-1613 asks clients to preserve it). */
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/**
 * Servers built on older generators declare draft-07; the keywords tools use are the same, and
 * Ajv (2020-12) cannot check a schema against another dialect's meta-schema, so that one goes.
 */
function withoutForeignDialect(schema: Record<string, unknown>): JSONSchema {
  if (!('$schema' in schema) || (typeof schema.$schema === 'string' && DRAFT_2020_12.test(schema.$schema))) return schema;
  const copy = { ...schema };
  delete copy.$schema;
  return copy;
}

export function checkToolList(raw: readonly unknown[]): ToolListCheck {
  const result: ToolListCheck = { tools: [], errors: [] };
  const seen = new Set<string>();
  raw.forEach((entry, index) => {
    const parsed = toolSchema.safeParse(entry);
    const label =
      typeof (entry as { name?: unknown } | null)?.name === 'string' ? `tool "${(entry as { name: string }).name}"` : `tool #${index}`;
    if (!parsed.success) {
      result.errors.push(`${label}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
      return;
    }
    const tool = parsed.data;
    if (seen.has(tool.name)) {
      result.errors.push(`${label}: listed twice; the first entry is used`);
      return;
    }
    const inputSchema = withoutForeignDialect(tool.inputSchema);
    if (!ajv.validateSchema(inputSchema)) {
      result.errors.push(`${label}: inputSchema is not valid JSON Schema (${ajv.errorsText(ajv.errors)})`);
      return;
    }
    const headers = headerDeclarationError(inputSchema);
    if (headers) {
      result.errors.push(`${label}: ${headers}`);
      return;
    }
    seen.add(tool.name);
    result.tools.push({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema,
      annotations: tool.annotations,
      definition: tool,
      ...(taskSupportOf(tool) ? { taskSupport: taskSupportOf(tool) } : {}),
    });
  });
  return result;
}

// A loose page shape: each tool is checked on its own so one bad entry cannot fail the whole
// listing, as the SDK's strict listTools() would.
const toolPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
/** Guard against a server whose cursors never end. */
const MAX_PAGES = 1000;

/** Pages through tools/list (the SDK's cursor walk, but per-tool checking). */
export async function listServerTools(client: Client, timeoutMs: number, signal?: AbortSignal): Promise<ReturnType<typeof checkToolList>> {
  if (!client.getServerCapabilities()?.tools) return checkToolList([]);
  const raw: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, toolPage, {
      timeout: timeoutMs,
      signal,
    });
    raw.push(...result.tools);
    if (result.nextCursor === undefined) break;
    if (cursors.has(result.nextCursor)) throw new Error(`tools/list repeated cursor ${JSON.stringify(result.nextCursor)}`);
    cursors.add(result.nextCursor);
    cursor = result.nextCursor;
  }
  return checkToolList(raw);
}
