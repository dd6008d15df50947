// Deferred loading: which tool schemas go into a model request. Core tools always; the rest only
// when the pool is small, or once the model has found them (ToolSearch results or direct calls in
// the history). Pure: same pool + same messages → same tools in the same order, which keeps
// resumed sessions identical and the request prefix cacheable.
import type { Message } from '../providers/types.js';
import { toolSpec } from '../registry/spec.js';
import type { AnyTool } from '../tool/types.js';
import { discoveredToolNames, searchFoundNames } from './result-text.js';
import { renderDeferredSection } from './section.js';

export const CORE_TOOL_NAMES: readonly string[] = ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob', 'LS', 'ToolSearch'];

export interface DeferralOptions {
  /** The model's context window in tokens (default 200,000). */
  contextTokens?: number;
  /** Defer when more tools than this could be deferred (default 30; core and always-loaded tools do not count). */
  maxLoadedTools?: number;
  /** Defer when all definitions take more than this share of the context (default 0.10). */
  budgetShare?: number;
  /** false turns deferral off: every tool is sent. */
  enabled?: boolean;
  /** Servers whose tools are always sent (settings `alwaysLoad` per server). */
  alwaysLoadServers?: readonly string[];
  /** One-line descriptions of servers for the system prompt (configured `description`). */
  serverDescriptions?: Readonly<Record<string, string>>;
  /** Upper bound for the system prompt section (characters, default 10,000). */
  maxSectionChars?: number;
  /** For tools whose description depends on the working directory. */
  cwd?: string;
}

export interface ToolSelection {
  /** To send, in stable order: core, always-loaded, then discovered in first-found order. */
  tools: AnyTool[];
  /** Reachable through ToolSearch, or by calling the exact name. */
  deferred: AnyTool[];
  /** Text for the system prompt; empty when nothing is deferred. */
  systemPromptSection: string;
  /** The names in `tools` a ToolSearch result loaded (not those called directly): see ToolSpec.loadedBySearch. */
  loadedBySearch: string[];
}

export const DEFAULT_CONTEXT_TOKENS = 200_000;
export const DEFAULT_MAX_LOADED_TOOLS = 30;
export const DEFAULT_BUDGET_SHARE = 0.1;
/** Rough rule of thumb for English/JSON text with current tokenizers: ~4 characters per token. */
const CHARS_PER_TOKEN = 4;

export function estimateTokens(tools: readonly AnyTool[], cwd?: string): number {
  let chars = 0;
  for (const tool of tools) chars += JSON.stringify(toolSpec(tool, cwd ?? process.cwd())).length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export function isCore(tool: AnyTool): boolean {
  return CORE_TOOL_NAMES.includes(tool.name);
}

function alwaysLoaded(tool: AnyTool, alwaysLoadServers: readonly string[]): boolean {
  return isCore(tool) || tool.alwaysLoad === true || (tool.server !== undefined && alwaysLoadServers.includes(tool.server));
}

/** Whether this pool needs deferral at all. */
export function shouldDefer(allTools: readonly AnyTool[], opts: DeferralOptions = {}): boolean {
  if (opts.enabled === false) return false;
  // Counted without the tools that are sent anyway: a companion tool (BashOutput beside Bash) must
  // not tip a small MCP server's tools into deferral.
  const deferrable = allTools.filter((tool) => !alwaysLoaded(tool, opts.alwaysLoadServers ?? []));
  if (deferrable.length > (opts.maxLoadedTools ?? DEFAULT_MAX_LOADED_TOOLS)) return true;
  const budget = (opts.contextTokens ?? DEFAULT_CONTEXT_TOKENS) * (opts.budgetShare ?? DEFAULT_BUDGET_SHARE);
  return estimateTokens(allTools, opts.cwd) > budget;
}

export function selectToolsForRequest(
  allTools: readonly AnyTool[],
  messages: readonly Message[],
  opts: DeferralOptions = {},
): ToolSelection {
  if (!shouldDefer(allTools, opts)) return { tools: [...allTools], deferred: [], systemPromptSection: '', loadedBySearch: [] };

  const alwaysLoadServers = opts.alwaysLoadServers ?? [];
  const fixed = allTools.filter((tool) => alwaysLoaded(tool, alwaysLoadServers));
  const deferrable = allTools.filter((tool) => !alwaysLoaded(tool, alwaysLoadServers));
  if (deferrable.length === 0) return { tools: fixed, deferred: [], systemPromptSection: '', loadedBySearch: [] };

  const byName = new Map(deferrable.map((tool) => [tool.name, tool]));
  const discovered: AnyTool[] = [];
  for (const name of discoveredToolNames(messages)) {
    const tool = byName.get(name);
    if (tool) {
      discovered.push(tool);
      byName.delete(name);
    }
  }
  const found = new Set(searchFoundNames(messages));
  return {
    tools: [...fixed, ...discovered],
    deferred: [...byName.values()],
    loadedBySearch: discovered.filter((tool) => found.has(tool.name)).map((tool) => tool.name),
    // Built from every deferrable tool, not just the still-deferred ones, so the system prompt
    // stays byte-identical while the model discovers tools (prompt caching).
    systemPromptSection: renderDeferredSection(deferrable, {
      serverDescriptions: opts.serverDescriptions,
      maxChars: opts.maxSectionChars,
      cwd: opts.cwd,
    }),
  };
}
