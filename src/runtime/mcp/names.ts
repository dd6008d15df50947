// MCP tool names as the model sees them: `mcp__<server>__<tool>`, limited to what every provider
// accepts ([A-Za-z0-9_-], at most 64 characters; Anthropic and OpenAI both enforce this pattern).
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME = 64;
const HASH_CHARS = 8;

export function sanitizeNamePart(part: string): string {
  const clean = part.replace(/[^A-Za-z0-9_-]/g, '_');
  return clean === '' ? '_' : clean;
}

/** The prefix every tool of a server shares; also the permission rule `mcp__<server>`. */
export function mcpServerPrefix(server: string): string {
  return `mcp__${sanitizeNamePart(server)}__`;
}

function shortHash(server: string, tool: string): string {
  return createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, HASH_CHARS);
}

function withHash(full: string, server: string, tool: string): string {
  return `${full.slice(0, MAX_TOOL_NAME - HASH_CHARS - 1)}_${shortHash(server, tool)}`;
}

/** One tool's name; a name that is too long is cut and gets a hash of the original as suffix. */
export function mcpToolName(server: string, tool: string): string {
  const full = `${mcpServerPrefix(server)}${sanitizeNamePart(tool)}`;
  return full.length <= MAX_TOOL_NAME ? full : withHash(full, server, tool);
}

/**
 * Names for all tools of one server, unique even when sanitising makes two originals alike
 * (`a.b` and `a_b`): later clashes take the hashed form. Returns original → exposed name.
 */
export function assignToolNames(server: string, tools: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool)) continue;
    let name = mcpToolName(server, tool);
    if (taken.has(name)) name = withHash(`${mcpServerPrefix(server)}${sanitizeNamePart(tool)}`, server, tool);
    taken.add(name);
    names.set(tool, name);
  }
  return names;
}
