// What the index knows about a tool: plain strings pulled from a Tool object or from a catalog
// line ({name, description, input_schema?, server?}), so tools and files are ranked alike.
import type { AnyTool, JSONSchema } from '../tool/types.js';

export interface ToolDoc {
  name: string;
  description: string;
  server?: string;
  searchHint?: string;
  /** Parameter names and their descriptions, as one text. */
  params: string;
}

const MCP_NAME = /^mcp__([^_](?:[^_]|_(?!_))*)__(.+)$/;

/**
 * The server a name belongs to when none is given: `mcp__<server>__<tool>` (MCP convention), or
 * `<server>__<tool>` for catalogs that join provider and endpoint with a double underscore.
 */
export function inferServer(name: string): string | undefined {
  const mcp = MCP_NAME.exec(name);
  if (mcp) return mcp[1];
  const cut = name.indexOf('__');
  return cut > 0 ? name.slice(0, cut) : undefined;
}

/** The tool's own part of its name, without `mcp__` and the server prefix. */
export function ownName(name: string, server: string | undefined): string {
  const mcp = MCP_NAME.exec(name);
  if (mcp) return mcp[2];
  if (server && name.startsWith(`${server}__`)) return name.slice(server.length + 2);
  // Catalog names are often `<sanitised provider>__<endpoint>` while server is the raw title.
  const cut = name.indexOf('__');
  return server && cut > 0 ? name.slice(cut + 2) : name;
}

const MAX_PARAM_DEPTH = 3;

const MAX_VALUE_CHARS = 60;

/** Short enum, default and example values: they document what a parameter takes ("USD", "celsius"). */
function exampleValues(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const { enum: choices, default: fallback, examples } = schema as { enum?: unknown; default?: unknown; examples?: unknown };
  const values = [...(Array.isArray(choices) ? choices : []), fallback, ...(Array.isArray(examples) ? examples : [])];
  return values
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map(String)
    .filter((v) => v.length > 0 && v.length <= MAX_VALUE_CHARS);
}

/** Names and descriptions of the properties of a JSON Schema, nested objects included. */
export function paramText(schema: unknown, depth = 0): string {
  if (typeof schema !== 'object' || schema === null || depth > MAX_PARAM_DEPTH) return '';
  const parts: string[] = [];
  const { properties, items } = schema as { properties?: unknown; items?: unknown };
  if (typeof properties === 'object' && properties !== null) {
    for (const [key, value] of Object.entries(properties)) {
      parts.push(key);
      const { description, title } = (value ?? {}) as { description?: unknown; title?: unknown };
      if (typeof title === 'string') parts.push(title);
      if (typeof description === 'string') parts.push(description);
      parts.push(...exampleValues(value));
      const nested = paramText(value, depth + 1);
      if (nested) parts.push(nested);
    }
  }
  if (items) parts.push(paramText(items, depth + 1));
  return parts.filter(Boolean).join(' ');
}

/** Descriptions that throw (a buggy tool) must not break search: they index as empty. */
function safeDescription(tool: AnyTool): string {
  try {
    return tool.description({ cwd: process.cwd() });
  } catch {
    return '';
  }
}

export function docFromTool(tool: AnyTool): ToolDoc {
  return {
    name: tool.name,
    description: safeDescription(tool),
    server: tool.server ?? (tool.source === 'mcp' ? inferServer(tool.name) : undefined),
    searchHint: tool.searchHint,
    params: paramText(tool.inputJSONSchema),
  };
}

/** A catalog line; returns an error message instead when the shape is wrong. */
export function docFromJSON(value: unknown): ToolDoc | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'expected a JSON object';
  const line = value as Record<string, unknown>;
  if (typeof line.name !== 'string' || line.name.trim() === '') return 'missing "name" (a non-empty string)';
  if (line.description !== undefined && typeof line.description !== 'string') return '"description" must be a string';
  if (line.server !== undefined && typeof line.server !== 'string') return '"server" must be a string';
  const schema = line.input_schema ?? line.inputSchema;
  return {
    name: line.name,
    description: (line.description as string | undefined) ?? '',
    server: (line.server as string | undefined) ?? inferServer(line.name),
    searchHint: typeof line.searchHint === 'string' ? line.searchHint : undefined,
    params: paramText(schema as JSONSchema | undefined),
  };
}

const ONE_LINE_CHARS = 160;

/** First sentence or line of a description, whitespace collapsed, at most 160 characters. */
export function oneLine(description: string, max = ONE_LINE_CHARS): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  // "e.g." and "i.e." end no sentence: Glob's "Finds files by glob pattern (e.g. …" was cut there.
  const sentence = /^(.+?(?<!\b(?:e\.g|i\.e))[.!?])(?:\s|$)/.exec(flat)?.[1] ?? flat;
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1).trimEnd()}…`;
}
