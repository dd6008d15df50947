// `x-mcp-header` (MCP 2026-07-28, SEP-2243): a tool parameter the client mirrors into an
// `Mcp-Param-<Name>` HTTP header. A tool whose declarations are malformed is rejected like any
// other malformed tool (a header name that is not a token could smuggle header syntax; two
// parameters claiming one header would let one value stand in for another). The SDK builds the
// headers themselves from the schema of a tool this accepted. Pure.
import type { JSONSchema } from '../tool/types.js';
import { isRecord } from '../util/record.js';

/** The schema keyword that marks a parameter as mirrored into a header. */
export const HEADER_KEYWORD = 'x-mcp-header';
/** RFC 9110 token characters: no spaces, controls, non-ASCII or delimiters such as ":". */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Types a header can carry unambiguously (a number's text form is not canonical). */
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);

/** Keywords whose values are data, not schemas: a key named x-mcp-header there is just data. */
const DATA = new Set(['const', 'enum', 'default', 'examples']);

/**
 * What is wrong with the tool's `x-mcp-header` declarations, or undefined when they are fine
 * (or absent). Declarations count only on properties reached through `properties` from the root;
 * one anywhere else (the root, under items, a combinator, $defs…) is itself an error.
 */
export function headerDeclarationError(inputSchema: JSONSchema): string | undefined {
  const seen = new Map<string, string>();
  // `property`: the node is a property reached through `properties` only, so it may declare one.
  const visit = (node: unknown, path: string, property: boolean, chain: boolean): string | undefined => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) {
        const error = visit(item, `${path}[${i}]`, false, false);
        if (error) return error;
      }
      return undefined;
    }
    if (!isRecord(node)) return undefined;
    if (HEADER_KEYWORD in node) {
      const name = node[HEADER_KEYWORD];
      const at = path || 'the schema root';
      if (!property) return `${at}: x-mcp-header is only allowed on a property reached through "properties"`;
      if (typeof name !== 'string' || name === '') return `${at}: x-mcp-header must be a non-empty string`;
      if (!TOKEN.test(name)) return `${at}: x-mcp-header ${JSON.stringify(name)} is not a valid HTTP header name`;
      if (typeof node.type !== 'string' || !PRIMITIVES.has(node.type))
        return `${at}: x-mcp-header is only allowed on string, integer or boolean properties`;
      const prior = seen.get(name.toLowerCase());
      if (prior) return `x-mcp-header ${JSON.stringify(name)} is declared twice (${prior} and ${at})`;
      seen.set(name.toLowerCase(), at);
    }
    for (const [key, child] of Object.entries(node)) {
      if (DATA.has(key)) continue;
      if (key === 'properties' && chain && isRecord(child)) {
        for (const [name, schema] of Object.entries(child)) {
          const error = visit(schema, path ? `${path}.${name}` : name, true, true);
          if (error) return error;
        }
        continue;
      }
      const error = visit(child, path ? `${path}/${key}` : key, false, false);
      if (error) return error;
    }
    return undefined;
  };
  return visit(inputSchema, '', false, true);
}
