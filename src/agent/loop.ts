// The agent loop: model → tool calls → scheduler → results → model, until the model stops,
// the turn limit, an abort or a provider error. Calls start as soon as their arguments have
// streamed in, and every tool_use in the history gets exactly one tool_result.
import type { AnyTool, ToolCallResult } from '../tool/types.js';
import type { RuntimeContext, ToolEvent } from '../pipeline/types.js';
import type { AssistantPart, Message, ModelProvider, StopReason, ToolSpec, Usage } from '../providers/types.js';
import type { ToolRegistry } from '../registry/registry.js';
import { createBatch } from '../scheduler/batch.js';
import type { AgentEvent, AgentResult, AgentStopReason, AssistantMessage } from './events.js';
import { INTERRUPTED, MAX_TURNS_NOT_RUN, pairResults, repairHistory, textOf, toolResultsMessage, toolUses, uniqueCallId } from './history.js';
import { buildSystemPrompt } from './system-prompt.js';

export interface ToolSelection {
  tools: AnyTool[];
  systemPromptSection?: string;
}

export interface RunAgentOptions {
  provider: ModelProvider;
  model: string;
  /** A fixed system prompt, or one built from the turn's tools; default: buildSystemPrompt. */
  system?: string | ((tools: readonly AnyTool[], extra?: string) => string);
  /** History so far, ending with the new user prompt. */
  messages: readonly Message[];
  registry: ToolRegistry;
  rt: RuntimeContext;
  /** Model requests allowed; tool calls of the last one are answered "not run". Default 50. */
  maxTurns?: number;
  signal: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  maxConcurrency?: number;
  maxTokens?: number;
  /** Picks the turn's tools (ToolSearch); default: the registry's whole pool. */
  selectTools?: (pool: AnyTool[], messages: readonly Message[]) => ToolSelection;
}

export const DEFAULT_MAX_TURNS = 50;

interface TurnOutcome {
  assistant: AssistantMessage;
  results: ToolCallResult[];
  stopReason: StopReason;
  usage?: Usage;
  error?: unknown;
}

export async function runAgent(options: RunAgentOptions): Promise<AgentResult> {
  const emit = (event: AgentEvent): void => options.onEvent?.(event);
  const rt: RuntimeContext = {
    ...options.rt,
    emit: (event: ToolEvent) => {
      options.rt.emit?.(event);
      emit(event);
    },
  };
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const messages = repairHistory(options.messages);
  const seenIds = new Set(messages.flatMap((message) => toolUses(message).map((use) => use.id)));
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let turns = 0;
  let toolCalls = 0;

  const finish = (stopReason: AgentStopReason, error?: string): AgentResult => {
    const lastAssistant = [...messages].reverse().find((message) => message.role === 'assistant');
    const result: AgentResult = { messages, answer: textOf(lastAssistant), turns, toolCalls, usage: { ...usage }, stopReason, error };
    if (error !== undefined) emit({ type: 'error', message: error });
    emit({ type: 'done', result });
    return result;
  };

  for (;;) {
    if (options.signal.aborted) return finish('aborted');
    turns++;
    const lastTurn = turns >= maxTurns;
    emit({ type: 'turn_start', turn: turns });
    const outcome = await runTurn(options, rt, messages, seenIds, lastTurn, emit);
    if (outcome.assistant.content.length > 0) {
      messages.push(outcome.assistant);
      emit({ type: 'assistant_message', message: outcome.assistant });
    }
    if (outcome.results.length > 0) {
      const message = toolResultsMessage(outcome.results);
      messages.push(message);
      emit({ type: 'tool_results', message });
    }
    toolCalls += outcome.results.length;
    if (outcome.usage) {
      usage.inputTokens += outcome.usage.inputTokens;
      usage.outputTokens += outcome.usage.outputTokens;
      emit({ type: 'usage', usage: outcome.usage, total: { ...usage } });
    }
    emit({ type: 'turn_end', turn: turns, stopReason: outcome.stopReason, toolCalls: outcome.results.length });
    if (options.signal.aborted) return finish('aborted');
    if (outcome.error !== undefined) return finish('error', errorText(outcome.error));
    if (outcome.results.length === 0) return finish('end_turn');
    if (lastTurn) return finish('max_turns', `Stopped after ${maxTurns} turns (--max-turns); the model still wanted to call tools.`);
  }
}

async function runTurn(
  options: RunAgentOptions,
  rt: RuntimeContext,
  messages: readonly Message[],
  seenIds: Set<string>,
  lastTurn: boolean,
  emit: (event: AgentEvent) => void,
): Promise<TurnOutcome> {
  const { tools, systemPromptSection } = chooseTools(options, messages);
  const system = systemFor(options, tools, systemPromptSection);
  const specs = tools.map((tool) => toolSpec(tool, rt.session.cwd));

  // The turn's own controller: a provider failure stops the turn's tools as an abort does.
  const turnAbort = new AbortController();
  const relay = (): void => turnAbort.abort(options.signal.reason);
  options.signal.addEventListener('abort', relay, { once: true });
  // On the last allowed turn calls are recorded but never started.
  const batch = lastTurn ? undefined : createBatch(rt, { signal: turnAbort.signal, maxConcurrency: options.maxConcurrency });
  const parts: AssistantPart[] = [];
  const calls: { id: string; name: string }[] = [];
  let stopReason: StopReason = 'other';
  let usage: Usage | undefined;
  let error: unknown;
  try {
    const stream = options.provider.stream(
      { model: options.model, system, messages: [...messages], tools: specs, maxTokens: options.maxTokens },
      options.signal,
    );
    for await (const event of stream) {
      if (event.type === 'text_delta') {
        const last = parts[parts.length - 1];
        if (last?.type === 'text') last.text += event.text;
        else parts.push({ type: 'text', text: event.text });
        emit(event);
      } else if (event.type === 'tool_call_end') {
        const id = uniqueCallId(event.id, seenIds);
        const input = parseArguments(event.input);
        parts.push({ type: 'tool_use', id, name: event.name, input });
        calls.push({ id, name: event.name });
        emit({ type: 'tool_call', id, name: event.name, input });
        batch?.push({ id, name: event.name, input });
      } else if (event.type === 'message_end') {
        stopReason = event.stopReason;
        usage = event.usage;
      }
    }
  } catch (caught) {
    error = caught;
    turnAbort.abort(caught);
  }
  batch?.end();
  const finished = batch ? await batch.results : [];
  options.signal.removeEventListener('abort', relay);
  const missing = lastTurn ? MAX_TURNS_NOT_RUN : error !== undefined && !options.signal.aborted ? modelFailed(error) : INTERRUPTED;
  return { assistant: { role: 'assistant', content: parts }, results: pairResults(calls, finished, missing), stopReason, usage, error };
}

function chooseTools(options: RunAgentOptions, messages: readonly Message[]): ToolSelection {
  const pool = options.registry.pool();
  return options.selectTools ? options.selectTools(pool, messages) : { tools: pool };
}

function systemFor(options: RunAgentOptions, tools: readonly AnyTool[], extra: string | undefined): string {
  if (typeof options.system === 'string') return extra ? `${options.system}\n\n${extra}` : options.system;
  if (options.system) return options.system(tools, extra);
  return buildSystemPrompt({ tools, cwd: options.rt.session.cwd, date: new Date(), extra });
}

export function toolSpec(tool: AnyTool, cwd: string): ToolSpec {
  return { name: tool.name, description: tool.description({ cwd }), inputSchema: tool.inputJSONSchema };
}

/** The parsed object when the streamed JSON is a valid object ('' means no arguments), else the raw text for the pipeline to repair. */
export function parseArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    // Histories need an object here; anything else goes to the pipeline to be reported.
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : raw;
  } catch {
    return raw;
  }
}

function modelFailed(error: unknown): string {
  return `Not run: the model's reply failed before the turn finished (${errorText(error)}).`;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
