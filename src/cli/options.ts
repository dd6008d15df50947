// The command-line flags (DESIGN.md "CLI") and their parsing; light, so start-up stays fast.
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { PermissionMode } from '../runtime/pipeline/types.js';
import type { ProviderName } from '../runtime/providers/types.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

/** Flags after commander has parsed them (camelCase, as commander names them). */
export interface CliFlags {
  /** `-p TEXT`, or true for a bare `-p` (the prompt is then the words after it, or stdin). */
  prompt?: string | true;
  provider?: ProviderName;
  model?: string;
  baseUrl?: string;
  permissionMode?: PermissionMode;
  allow?: string[];
  deny?: string[];
  outputFormat?: OutputFormat;
  maxTurns?: number;
  contextWindow?: number;
  mcpConfig?: string;
  sandbox?: boolean;
  /** An id, or true for `--resume` alone (a picker in a terminal). */
  resume?: string | true;
  /** `-c/--continue`: the newest session started in this folder. */
  continue?: boolean;
  trust?: boolean;
  json?: boolean;
}

export const PERMISSION_MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'];

/** Commander reducer for repeatable flags. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a whole number of 1 or more, got ${JSON.stringify(value)}`);
  return n;
}

/** Flags that shape the tool runtime: permissions, MCP, sandbox, trust. */
export function addRuntimeOptions(command: Command): Command {
  return command
    .addOption(new Option('--permission-mode <mode>', 'permission mode').choices(PERMISSION_MODES))
    .option('--allow <rule>', 'allow rule, e.g. "Bash(git log *)" (repeatable)', collect)
    .option('--deny <rule>', 'deny rule, e.g. "WebFetch" (repeatable)', collect)
    .option('--mcp-config <json>', 'MCP servers: a JSON object or the path of a JSON file')
    .option('--sandbox', 'run Bash commands in the OS sandbox')
    .option('--trust', "trust this project's settings and .mcp.json for this run");
}

/** Flags that choose the model. */
export function addModelOptions(command: Command): Command {
  return command
    .addOption(new Option('--provider <name>', 'model API dialect').choices(['anthropic', 'openai', 'openai-responses']))
    .option('--model <id>', 'model id (any id the endpoint accepts)')
    .option('--base-url <url>', 'API endpoint, e.g. http://localhost:11434/v1 for Ollama')
    .option('--max-turns <n>', 'stop after this many model requests', parsePositiveInt)
    .option('--context-window <tokens>', "the model's context window in tokens (default: known for common model ids)", parsePositiveInt);
}

export function addJsonOption(command: Command): Command {
  return command.option('--json', 'print JSON');
}
