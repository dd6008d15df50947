// createCodingAgent: the coding agent as a library object — the built-in tools, permission engine,
// settings, sandbox, MCP servers, project instructions and context management of the CLI, with no
// terminal. The CLI's session (cli/agent-session.ts) is one client of it; a person's answers come
// through askPermission / askUser, what happens through onEvent.
import type { WieldSettings } from '../settings/load.js';
import { loadInstructions, type LoadedInstructions } from '../instructions/load.js';
import { createCodingRuntime, type CodingRuntime, type CodingRuntimeOptions } from './runtime.js';
import type { Message, ModelProvider, ReasoningOptions } from '../../runtime/providers/types.js';
import type { AgentEvent, AgentResult } from '../../runtime/agent/events.js';
import { DEFAULT_MAX_TURNS, runAgent } from '../../runtime/agent/loop.js';
import { compactHistory, type CompactionOutcome, type ContextOptions } from '../../runtime/agent/context-run.js';
import { buildSystemPrompt } from '../../runtime/agent/system-prompt.js';
import { wieldHome } from '../../runtime/agent/session-store.js';
import { selectToolsForRequest } from '../../runtime/search/defer.js';

export interface CodingAgentOptions extends CodingRuntimeOptions {
  provider: ModelProvider;
  model: string;
  /** A runtime built already (the CLI's, with its own notices); built from these options otherwise. */
  runtime?: CodingRuntime;
  /** History to continue (a resumed session); empty by default. */
  messages?: Message[];
  /** Model requests per prompt; default 50. */
  maxTurns?: number;
  reasoning?: ReasoningOptions;
  /** The context window in tokens, over settings' `context.window`. */
  contextWindow?: number;
  /** Sees every event of every prompt (a session log); a throwing observer never breaks the run. */
  onEvent?: (event: AgentEvent) => void;
}

export interface CodingAgent {
  runtime: CodingRuntime;
  provider: ModelProvider;
  /** The model the next request asks for (the CLI's `/model NAME` changes it; the provider stays). */
  model: string;
  /** The history so far (grows with each send). */
  messages: Message[];
  /** The project instructions in the system prompt (AGENTS.md / CLAUDE.md), read once at the start. */
  instructions: LoadedInstructions;
  /** Runs one prompt to the end: the model's turns and every tool call, under the runtime's rules. */
  send(prompt: string, signal: AbortSignal, onEvent?: (event: AgentEvent) => void): Promise<AgentResult>;
  /** Summarises the older turns now, keeping the recent ones verbatim. */
  compact(signal: AbortSignal): Promise<CompactionOutcome>;
  close(): Promise<void>;
}

export async function createCodingAgent(options: CodingAgentOptions): Promise<CodingAgent> {
  const { provider, model } = options;
  const runtime = options.runtime ?? (await createCodingRuntime(options));
  const env = options.env ?? process.env;
  // Taken once for the whole session, so the system prompt (and the cached prefix) never changes between prompts.
  const startedAt = new Date();
  const instructions = loadInstructions({ cwd: runtime.session.cwd, wieldHome: wieldHome(env), trusted: runtime.trusted });
  // Before the other extra sections (ToolSearch's), so the stable part of the prompt comes first.
  const extraOf = (extra: string | undefined): string | undefined =>
    [instructions.text, extra ?? ''].filter((part) => part !== '').join('\n\n') || undefined;
  const context = contextOptions(runtime.settings, options.contextWindow);
  const agent: CodingAgent = {
    runtime,
    provider,
    model,
    messages: options.messages ?? [],
    instructions,
    async send(prompt, signal, onEvent) {
      const message: Message = { role: 'user', content: [{ type: 'text', text: prompt }] };
      const result = await runAgent({
        provider,
        model: agent.model,
        messages: [...agent.messages, message],
        system: (tools, extra) => buildSystemPrompt({ tools, cwd: runtime.session.cwd, date: startedAt, extra: extraOf(extra) }),
        rt: runtime.rt,
        maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS,
        reasoning: options.reasoning,
        selectTools: (pool, messages) => selectToolsForRequest(pool, messages, runtime.deferral),
        context,
        signal,
        onEvent: (event) => {
          options.onEvent?.(event);
          onEvent?.(event);
        },
      });
      agent.messages = result.messages;
      return result;
    },
    async compact(signal) {
      const outcome = await compactHistory({ provider, model: agent.model, messages: agent.messages, signal });
      if (outcome.ok) agent.messages = outcome.messages;
      return outcome;
    },
    close: () => runtime.close(),
  };
  return agent;
}

/** Settings `context` (and a window given over it) as runAgent's context option. */
export function contextOptions(settings: WieldSettings, window?: number): ContextOptions {
  const context = settings.context;
  const prices = Object.fromEntries(
    Object.entries(context.pricing ?? {}).map(([id, p]) => [
      id,
      { input: p.input, output: p.output, cacheRead: p.cacheRead ?? p.input, cacheWrite: p.cacheWrite ?? 0 },
    ]),
  );
  return {
    window: window ?? context.window,
    cache: context.cache === false ? false : { ttl: context.cacheTtl ?? '5m', deferredTools: context.deferredTools },
    prices,
    turnBudget: context.turnBudget,
    clearing: context.clearing === false ? false : context.clearing === true ? undefined : context.clearing,
    compaction: context.compaction === false ? false : undefined,
  };
}
