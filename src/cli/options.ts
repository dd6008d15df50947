// The command-line flags (docs/architecture.md, "CLI") and their parsing; light, so start-up stays fast.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { PERMISSION_MODES, type PermissionMode } from '../runtime/pipeline/types.js';
import type { ProviderName, ReasoningEffort, ReasoningOptions } from '../runtime/providers/types.js';
import { MIN_THINKING_BUDGET } from '../runtime/providers/reasoning.js';

/** `stream-json` is Claude Code's headless event shapes; `events` is wield's own, richer stream. */
export type OutputFormat = 'text' | 'json' | 'stream-json' | 'events';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json', 'events'];

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
  /** OpenAI strict mode for function tools (setting `strictTools`). */
  strictTools?: boolean;
  /** false with --no-code-mode (setting `codeMode`); commander sets true otherwise, which means "as settings say". */
  codeMode?: boolean;
  /** `--thinking` alone (true) or with a token budget. */
  thinking?: true | number;
  effort?: ReasoningEffort;
  mcpConfig?: string;
  sandbox?: boolean;
  /** An id, or true for `--resume` alone (a picker in a terminal). */
  resume?: string | true;
  /** `-c/--continue`: the newest session started in this folder. */
  continue?: boolean;
  trust?: boolean;
  json?: boolean;
  /** `wield tools --json --schemas`: rows carry each tool's input schema. */
  schemas?: boolean;
}

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
    .option('--no-code-mode', 'do not offer RunCode, the tool that runs a program calling other tools (setting codeMode: false)')
    .option('--trust', "trust this project's settings and .mcp.json for this run");
}

/** Flags that choose the model. */
export function addModelOptions(command: Command): Command {
  return command
    .addOption(new Option('--provider <name>', 'model API dialect').choices(['anthropic', 'openai', 'openai-responses']))
    .option('--model <id>', 'model id (any id the endpoint accepts)')
    .option('--base-url <url>', 'API endpoint, e.g. http://localhost:11434/v1 for Ollama')
    .option('--max-turns <n>', 'stop after this many model requests', parsePositiveInt)
    .option('--context-window <tokens>', "the model's context window in tokens (default: known for common model ids)", parsePositiveInt)
    .option('--strict-tools', 'OpenAI strict mode for tool schemas (a schema that cannot be strict is sent as is, said once)')
    .option(
      '--thinking [tokens]',
      'extended thinking (Anthropic; a token budget, default by --effort) or reasoning (OpenAI)',
      parseThinkingBudget,
    )
    .addOption(new Option('--effort <level>', 'reasoning effort: OpenAI reasoning effort, Anthropic thinking budget').choices(EFFORTS));
}

const EFFORTS: readonly ReasoningEffort[] = ['low', 'medium', 'high'];

function parseThinkingBudget(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < MIN_THINKING_BUDGET)
    throw new InvalidArgumentError(`expected a token budget of ${MIN_THINKING_BUDGET} or more, got ${JSON.stringify(value)}`);
  return n;
}

/** The reasoning a run asks for: none unless --thinking or --effort is given. */
export function reasoningOf(flags: CliFlags): ReasoningOptions | undefined {
  if (flags.thinking === undefined && flags.effort === undefined) return undefined;
  return { effort: flags.effort, budgetTokens: typeof flags.thinking === 'number' ? flags.thinking : undefined };
}

export function addJsonOption(command: Command): Command {
  return command.option('--json', 'print JSON');
}
