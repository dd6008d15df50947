// Where MCP server entries come from: settings' `mcpServers`, the project's `.mcp.json` (only
// when the project is trusted, since it names programs to run), and `--mcp-config`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseJsonWithPositions } from '../util/json-positions.js';
import { isHttpConfig, mergeConfigSets, parseServerRecord, type McpConfigSet, type McpServerConfig } from './config.js';
import { messageOf } from '../util/message.js';

export interface LoadMcpConfigsOptions {
  cwd: string;
  /** Merged settings; only `mcpServers` is read. */
  settings?: { mcpServers?: unknown };
  /** Whether the project may start the servers its `.mcp.json` names. */
  trusted: boolean;
  /** `--mcp-config`: a JSON string or the path of a JSON file. */
  mcpConfigFlag?: string;
  env?: Record<string, string | undefined>;
}

export interface LoadedMcpConfigs extends McpConfigSet {
  /** Things the user should know that are not errors (an untrusted project's file skipped). */
  notes: string[];
  /** The project's `.mcp.json`, when it exists and was not read because the project is not trusted. */
  untrustedFile?: string;
}

function failed(source: string, message: string): McpConfigSet {
  return { servers: {}, errors: [{ server: '*', source, message }] };
}

/** Parses JSON text; a syntax error names its line and column, as for settings files. */
function parseJson(text: string, where: string, source: string): { ok: true; value: unknown } | { ok: false; set: McpConfigSet } {
  const parsed = parseJsonWithPositions(text);
  if (parsed.ok) return { ok: true, value: parsed.value };
  return { ok: false, set: failed(source, `${where}:${parsed.position.line}:${parsed.position.column}: invalid JSON: ${parsed.message}`) };
}

function readJsonFile(file: string, source: string): { ok: true; value: unknown } | { ok: false; set: McpConfigSet } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const message = messageOf(error);
    return { ok: false, set: failed(source, `cannot read ${file}: ${message}`) };
  }
  return parseJson(text, file, source);
}

function fromFlag(flag: string, cwd: string, env: Record<string, string | undefined>): McpConfigSet {
  const source = '--mcp-config';
  const trimmed = flag.trim();
  if (trimmed.startsWith('['))
    return failed(source, 'expected a JSON object {"mcpServers": {"name": {...}}} or a file path, not a JSON array');
  const read = trimmed.startsWith('{') ? parseJson(trimmed, 'inline JSON', source) : readJsonFile(path.resolve(cwd, trimmed), source);
  return read.ok ? parseServerRecord(read.value, source, env) : read.set;
}

/**
 * What is wrong with a `--mcp-config` value as a whole (unreadable, not JSON, not a servers
 * object), or undefined. One bad server entry is not this: it is reported (`wield mcp list`
 * lists it) and the other servers still start.
 */
export function mcpConfigFlagError(flag: string, cwd: string): string | undefined {
  const whole = fromFlag(flag, cwd, {}).errors.find((error) => error.server === '*');
  return whole && `--mcp-config: ${whole.message}`;
}

/** A stdio server's relative `cwd` means relative to the project. */
function anchorCwd(set: McpConfigSet, cwd: string): McpConfigSet {
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, config] of Object.entries(set.servers)) {
    servers[name] = isHttpConfig(config) || config.cwd === undefined ? config : { ...config, cwd: path.resolve(cwd, config.cwd) };
  }
  return { servers, errors: set.errors };
}

export function loadMcpConfigs(options: LoadMcpConfigsOptions): LoadedMcpConfigs {
  const env = options.env ?? process.env;
  const notes: string[] = [];
  let untrustedFile: string | undefined;
  const sets: McpConfigSet[] = [parseServerRecord(options.settings?.mcpServers, 'settings', env)];
  const projectFile = path.join(options.cwd, '.mcp.json');
  if (existsSync(projectFile)) {
    if (options.trusted) {
      const read = readJsonFile(projectFile, '.mcp.json');
      sets.push(read.ok ? parseServerRecord(read.value, '.mcp.json', env) : read.set);
    } else {
      notes.push(`${projectFile} ignored: the project is not trusted, so its servers are not started`);
      untrustedFile = projectFile;
    }
  }
  if (options.mcpConfigFlag !== undefined) sets.push(fromFlag(options.mcpConfigFlag, options.cwd, env));
  return { ...anchorCwd(mergeConfigSets(...sets), options.cwd), notes, ...(untrustedFile ? { untrustedFile } : {}) };
}
