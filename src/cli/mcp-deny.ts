// A deny rule that names a whole MCP server (`mcp__docs`, `mcp__docs__*`) keeps the server from
// starting at all: hiding its tools alone would leave its resources (ListMcpResources,
// ReadMcpResource) and prompts reachable, and its process running with the person's rights.
import type { LoadedMcpConfigs } from '../runtime/mcp/load.js';
import { mcpServerPrefix } from '../runtime/mcp/names.js';
import { type Rule, toolNameMatches } from '../coding/permissions/rules.js';

const DENIED_SERVER = 'MCP server denied whole: ';

/** The servers a deny rule refuses whole are dropped, each named in a note. Pure. */
export function withoutDeniedServers(configs: LoadedMcpConfigs, deny: readonly Rule[]): LoadedMcpConfigs {
  const whole = deny.filter((rule) => rule.content === undefined);
  const servers: LoadedMcpConfigs['servers'] = {};
  const notes = [...configs.notes];
  for (const [name, config] of Object.entries(configs.servers)) {
    const rule = whole.find((r) => toolNameMatches(r.tool, { name: mcpServerPrefix(name), aliases: [], source: 'mcp', server: name }));
    if (rule) notes.push(`${DENIED_SERVER}"${name}" is not started, as the deny rule ${rule.text} refuses all its tools and resources`);
    else servers[name] = config;
  }
  return { ...configs, servers, notes };
}

export function isDeniedServerNote(note: string): boolean {
  return note.startsWith(DENIED_SERVER);
}
