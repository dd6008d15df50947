// `wield mcp add <name> <command-or-url> [args…]` and `wield mcp remove <name>`, in Claude Code's
// shape (`-s local|project|user`, `-t stdio|http`, `-e KEY=value`, `-H "Name: value"`): the entry
// is checked as the loader will read it, then written to the scope's file, other keys kept.
// local: .wield/settings.local.json · project: .mcp.json (shared, read once the folder is
// trusted) · user: ~/.wield/settings.json.
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import type { parseServerConfig } from '../../runtime/mcp/config.js';
import { commandAction as run, writeOut } from '../exit.js';
import { SetupError } from '../setup-error.js';

/** Loaded when the command runs: this module is imported when the CLI starts and must stay light. */
const files = async () => ({
  ...(await import('../../coding/settings/json-file.js')),
  ...(await import('../../coding/settings/load.js')),
  parseServerConfig: (await import('../../runtime/mcp/config.js')).parseServerConfig,
  home: (await import('../../runtime/agent/session-store.js')).wieldHome(),
});

export const MCP_SCOPES = ['local', 'project', 'user'] as const;
export type McpScope = (typeof MCP_SCOPES)[number];

/** The scope's file (the user and local ones are where the settings loader reads them). */
export function scopeFile(scope: McpScope, cwd: string, home: string): string {
  if (scope === 'project') return path.join(cwd, '.mcp.json');
  return scope === 'user' ? path.join(home, '.wield', 'settings.json') : path.join(cwd, '.wield', 'settings.local.json');
}

export interface AddOptions {
  transport?: string;
  env?: string[];
  header?: string[];
}

/** `KEY=value` pairs (or `Name: value` headers) as a record; a malformed one is an error naming it. */
function pairs(items: readonly string[], separator: '=' | ':', what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    const key = at > 0 ? item.slice(0, at).trim() : '';
    if (key === '') throw new SetupError(`${what} ${JSON.stringify(item)} is not ${separator === '=' ? 'KEY=value' : '"Name: value"'}`);
    out[key] = item.slice(at + 1).trim();
  }
  return out;
}

/** The settings entry `wield mcp add` writes, checked as the loader reads it; bad input is a SetupError saying what to send. */
export function serverEntry(
  target: string,
  args: readonly string[],
  options: AddOptions,
  parse: typeof parseServerConfig,
): Record<string, unknown> {
  const url = /^https?:\/\//i.test(target);
  const transport = options.transport ?? (url ? 'http' : 'stdio');
  if (transport !== 'stdio' && transport !== 'http')
    throw new SetupError(`--transport ${JSON.stringify(transport)} is not supported; use stdio (a command) or http (Streamable HTTP)`);
  const env = pairs(options.env ?? [], '=', '--env');
  const headers = pairs(options.header ?? [], ':', '--header');
  const entry: Record<string, unknown> =
    transport === 'http'
      ? { type: 'http', url: target, ...(Object.keys(headers).length > 0 ? { headers } : {}) }
      : { command: target, args: [...args], ...(Object.keys(env).length > 0 ? { env } : {}) };
  if (transport === 'http' && args.length > 0)
    throw new SetupError(`an http server takes no arguments after its URL (got ${args.join(' ')}); pass headers with -H "Name: value"`);
  const checked = parse(entry);
  if (!checked.ok) throw new SetupError(`wield mcp add: ${checked.message}`);
  return entry;
}

function serversOf(data: Record<string, unknown>): Record<string, unknown> {
  const servers = data.mcpServers;
  return typeof servers === 'object' && servers !== null && !Array.isArray(servers) ? (servers as Record<string, unknown>) : {};
}

function parseScope(value: string): McpScope {
  if ((MCP_SCOPES as readonly string[]).includes(value)) return value as McpScope;
  throw new InvalidArgumentError(`expected one of ${MCP_SCOPES.join(', ')}, got ${JSON.stringify(value)}`);
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

async function add(name: string, target: string, args: string[], options: AddOptions & { scope: McpScope }): Promise<number> {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new SetupError(`server name ${JSON.stringify(name)}: use letters, digits, _ and - only`);
  const { parseServerConfig, updateJsonFile, home } = await files();
  const entry = serverEntry(target, args, options, parseServerConfig);
  const file = scopeFile(options.scope, process.cwd(), home);
  let replaced = false;
  await updateJsonFile(file, (data) => {
    const servers = serversOf(data);
    replaced = Object.hasOwn(servers, name);
    return { ...data, mcpServers: { ...servers, [name]: entry } };
  });
  await writeOut(
    `${replaced ? 'Replaced' : 'Added'} MCP server "${name}" in ${file} (${options.scope}); \`wield mcp list\` shows whether it starts\n`,
  );
  return 0;
}

async function remove(name: string, scope: McpScope | undefined): Promise<number> {
  const { readJsonFile, updateJsonFile, home } = await files();
  const cwd = process.cwd();
  const removedFrom: string[] = [];
  for (const each of scope ? [scope] : MCP_SCOPES) {
    const file = scopeFile(each, cwd, home);
    const read = await readJsonFile(file);
    const data = read.kind === 'ok' && typeof read.value === 'object' && read.value !== null ? (read.value as Record<string, unknown>) : {};
    if (!Object.hasOwn(serversOf(data), name)) continue;
    await updateJsonFile(file, (data) => {
      const { [name]: _, ...rest } = serversOf(data);
      return { ...data, mcpServers: rest };
    });
    removedFrom.push(file);
  }
  if (removedFrom.length === 0) {
    process.stderr.write(
      `wield: no MCP server "${name}" in ${scope ? scopeFile(scope, cwd, home) : 'the local, project or user settings'}\n`,
    );
    return 1;
  }
  await writeOut(`Removed MCP server "${name}" from ${removedFrom.join(', ')}\n`);
  return 0;
}

export function registerEdit(mcp: Command): void {
  const addCommand = mcp
    .command('add')
    .description('add an MCP server to settings: a command run over stdio, or an http(s) URL (Streamable HTTP)')
    .argument('<name>', 'the server name (tools become mcp__NAME__tool)')
    .argument('<commandOrUrl>', 'the program to run, or the server URL')
    .argument('[args...]', "the program's arguments (put -- before ones that start with -)")
    .option(
      '-s, --scope <scope>',
      'local (.wield/settings.local.json), project (.mcp.json) or user (~/.wield/settings.json)',
      parseScope,
      'local',
    )
    .option('-t, --transport <transport>', 'stdio or http (default: http for a URL, else stdio)')
    .option('-e, --env <KEY=value>', 'an environment variable for a stdio server (repeatable)', collect)
    .option('-H, --header <"Name: value">', 'a header for an http server (repeatable)', collect);
  addCommand.action(
    run(() => {
      const [name, target, args] = addCommand.processedArgs as [string, string, string[]];
      return add(name, target, args, addCommand.opts<AddOptions & { scope: McpScope }>());
    }),
  );
  const removeCommand = mcp
    .command('remove')
    .description('remove an MCP server from settings (every scope holding it, unless -s names one)')
    .argument('<name>')
    .option('-s, --scope <scope>', 'only this scope: local, project or user', parseScope);
  removeCommand.action(run(() => remove(removeCommand.processedArgs[0] as string, removeCommand.opts<{ scope?: McpScope }>().scope)));
}
