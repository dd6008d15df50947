// The agent loop: model → tool calls → scheduler → results → model, until the model stops,
// the turn limit, an abort or a provider error. Calls start as soon as their arguments have
// streamed in, and every tool_use in the history gets exactly one tool_result.
import type { AnyTool, ToolCallResult } from '../tool/types.js';
import { toolSpec } from '../registry/spec.js';
import { messageOf } from '../util/message.js';
import type { RuntimeContext, ToolCallRequest, ToolEvent } from '../pipeline/types.js';
import type { HookInput } from '../hooks/types.js';
import type { AssistantPart, Message, ModelProvider, PromptCache, ReasoningOptions, StopReason, Usage } from '../providers/types.js';
import type { AgentRuntime } from '../pipeline/runtime.js';
import { createBatch } from '../scheduler/batch.js';
import { interruptedWhileRunning, modelFailedContent } from '../results/errors.js';
import { stopFeedback, submitPrompt } from './loop-hooks.js';
import type { AgentEvent, AgentResult, AgentStopReason, AssistantMessage, UserMessage } from './events.js';
import { pairResults, repairHistory, textOf, toolResultsMessage, toolUses, uniqueCallId } from './history.js';
import { endOfReply, isCompleteJSON, releaseHeld, type HeldCall } from './cutoff.js';
import { buildSystemPrompt } from './system-prompt.js';
import { agentSpanAttributes, inSpan, startChatSpan } from '../telemetry/agent-spans.js';
import { compactHistory, ContextTracker, promptCache, type ContextOptions } from './context-run.js';
import { addUsage, costUsd, emptyUsage, priceFor } from '../context/pricing.js';
import { isContextLimitError } from '../context/limits.js';
import { isRecord } from '../util/record.js';
import { jsonDepth, MAX_ARGUMENT_DEPTH } from '../util/json-depth.js';

/** The tools one request offers, and the system prompt text that goes with them. */
export interface TurnTools {
  tools: AnyTool[];
  systemPromptSection?: string;
  /** Names in `tools` that a ToolSearch result loaded (sent as deferred tools where the provider can). */
  loadedBySearch?: readonly string[];
}

export interface RunAgentOptions {
  provider: ModelProvider;
  model: string;
  /** A fixed system prompt, or one built from the turn's tools; default: buildSystemPrompt. */
  system?: string | ((tools: readonly AnyTool[], extra?: string) => string);
  /** History so far, ending with the new user prompt. */
  messages: readonly Message[];
  /**
   * The runtime (createRuntime): its pool is what the model is offered, its hooks run at the
   * tools' stages and, for UserPromptSubmit and Stop, in the loop.
   */
  rt: AgentRuntime;
  /** Model requests allowed; tool calls of the last one are answered "not run". Default 50. */
  maxTurns?: number;
  signal: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  maxConcurrency?: number;
  maxTokens?: number;
  /** Extended thinking / reasoning effort for every request of the run. */
  reasoning?: ReasoningOptions;
  /** Picks the turn's tools (ToolSearch); default: the registry's whole pool. */
  selectTools?: (pool: AnyTool[], messages: readonly Message[]) => TurnTools;
  /** The context as a managed resource: window, prompt caching, prices, turn budget, clearing, compaction. */
  context?: ContextOptions;
}

export const DEFAULT_MAX_TURNS = 50;
/** Continuations a Stop hook may force per prompt, so a hook that always blocks cannot loop forever. */
export const MAX_STOP_CONTINUATIONS = 3;

/** What every turn of one run shares. */
interface TurnSetup {
  cache: PromptCache | undefined;
  tracker: ContextTracker;
  date: Date;
}

interface TurnOutcome {
  assistant: AssistantMessage;
  results: ToolCallResult[];
  stopReason: StopReason;
  usage?: Usage;
  error?: unknown;
}

/** Runs the loop inside an `invoke_agent` span (a no-op without an OpenTelemetry SDK). */
export function runAgent(options: RunAgentOptions): Promise<AgentResult> {
  return inSpan('invoke_agent wield', agentSpanAttributes(options.model, options.provider.name), () => agentLoop(options));
}

async function agentLoop(options: RunAgentOptions): Promise<AgentResult> {
  // A UI callback that throws must never break the run: loop events are best-effort, as tool events are.
  const emit = (event: AgentEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // ignored on purpose: see above
    }
  };
  const rt: RuntimeContext = {
    ...options.rt,
    emit: (event: ToolEvent) => {
      options.rt.emit?.(event);
      emit(event);
    },
  };
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  let usage = emptyUsage();
  let compactionUsage = emptyUsage();
  const price = priceFor(options.model, options.context?.prices);
  const cache = promptCache(options.context, rt.session.id);
  let cost: number | undefined = price === undefined ? undefined : 0;
  const account = (turnUsage: Usage): number | undefined => {
    usage = addUsage(usage, turnUsage);
    const turnCost = costUsd(turnUsage, price, cache?.ttl);
    if (cost !== undefined && turnCost !== undefined) cost += turnCost;
    return turnCost;
  };
  const tracker = new ContextTracker(options.model, options.context, options.maxTokens);
  // Taken once, so the system prompt stays byte-identical across turns (prompt caching).
  const setup: TurnSetup = { cache, tracker, date: new Date() };
  let compactions = 0;
  let cleared = 0;
  let turns = 0;
  let toolCalls = 0;
  let stopContinuations = 0;
  const hookInput = (event: 'UserPromptSubmit' | 'Stop'): HookInput => ({
    hook_event_name: event,
    session_id: rt.session.id,
    cwd: rt.session.cwd,
  });

  const loopHooks = { hooks: rt.hooks, signal: options.signal, emit };
  const submitted = await submitPrompt(loopHooks, options.messages, hookInput('UserPromptSubmit'));
  const messages = repairHistory(submitted.messages);
  const seenIds = new Set(messages.flatMap((message) => toolUses(message).map((use) => use.id)));

  const finish = (stopReason: AgentStopReason, error?: string): AgentResult => {
    const lastAssistant = [...messages].reverse().find((message) => message.role === 'assistant');
    const context = { window: tracker.window, tokens: tracker.tokens(messages), compactions, cleared, compactionUsage };
    const result: AgentResult = {
      messages,
      answer: textOf(lastAssistant),
      turns,
      toolCalls,
      usage: { ...usage },
      costUsd: cost,
      context,
      stopReason,
      error,
    };
    if (error !== undefined) emit({ type: 'error', message: error });
    emit({ type: 'done', result });
    return result;
  };
  if (submitted.blocked !== undefined) return finish('blocked', `Prompt blocked by a UserPromptSubmit hook: ${submitted.blocked}`);
  if (submitted.prompt) emit({ type: 'user_message', message: submitted.prompt, origin: 'prompt' });

  /** Summarises the older turns in place; the error (also sent as an event) when it could not. */
  const compact = async (reason: 'threshold' | 'prompt_too_long'): Promise<string | undefined> => {
    const outcome = await compactHistory({
      provider: options.provider,
      model: options.model,
      messages,
      signal: options.signal,
      keepTurns: tracker.compaction?.keepTurns,
    });
    if (outcome.usage) {
      account(outcome.usage);
      compactionUsage = addUsage(compactionUsage, outcome.usage);
    }
    if (!outcome.ok) {
      emit({ type: 'context_compaction_failed', turn: turns, reason, message: outcome.error });
      return outcome.error;
    }
    messages.splice(0, messages.length, ...outcome.messages);
    tracker.rewritten(messages);
    compactions++;
    emit({
      type: 'context_compacted',
      turn: turns,
      reason,
      messages: [...messages],
      summarised: outcome.summarised,
      contextTokens: tracker.tokens(messages),
    });
    return undefined;
  };
  let compactedAt = -1;

  for (;;) {
    if (options.signal.aborted) return finish('aborted');
    turns++;
    const lastTurn = turns >= maxTurns;
    emit({ type: 'turn_start', turn: turns });
    // Once per history length: a compaction that could not get under the trigger is not retried each turn.
    if (tracker.needsCompaction(messages) && compactedAt !== messages.length) {
      await compact('threshold');
      compactedAt = messages.length;
    }
    const sentLength = messages.length;
    let outcome = await inSpan(`turn ${turns}`, { 'wield.turn': turns }, () => runTurn(options, rt, messages, seenIds, emit, setup));
    if (outcome.error !== undefined && isContextLimitError(outcome.error) && tracker.compaction && !options.signal.aborted) {
      // The window is full: compact and ask again, once.
      if (outcome.usage) account(outcome.usage);
      const failed = await compact('prompt_too_long');
      if (failed !== undefined) return finish('error', `${messageOf(outcome.error)} ${failed}`);
      outcome = await runTurn(options, rt, messages, seenIds, emit, setup);
    }
    if (outcome.assistant.content.length > 0) {
      messages.push(outcome.assistant);
      emit({ type: 'assistant_message', message: outcome.assistant });
    }
    if (outcome.usage) tracker.counted(outcome.usage, messages.slice(0, sentLength), messages.length);
    if (outcome.results.length > 0) {
      const clearedNow = await tracker.clearOld(messages, outcome.results, rt.session);
      if (clearedNow > 0) {
        cleared += clearedNow;
        emit({
          type: 'context_cleared',
          turn: turns,
          cleared: clearedNow,
          messages: [...messages],
          contextTokens: tracker.tokens(messages),
        });
      }
      const message = toolResultsMessage(await tracker.fitTurn(outcome.results, messages, rt.session));
      messages.push(message);
      emit({ type: 'tool_results', message });
    }
    toolCalls += outcome.results.length;
    if (outcome.usage) {
      const turnCostUsd = account(outcome.usage);
      emit({
        type: 'usage',
        turn: turns,
        usage: outcome.usage,
        total: { ...usage },
        contextTokens: tracker.tokens(messages),
        contextWindow: tracker.window,
        costUsd: cost,
        turnCostUsd,
      });
    }
    emit({ type: 'turn_end', turn: turns, stopReason: outcome.stopReason, toolCalls: outcome.results.length });
    if (options.signal.aborted) return finish('aborted');
    if (outcome.error !== undefined) return finish('error', messageOf(outcome.error));
    if (outcome.results.length === 0) {
      const feedback =
        lastTurn || stopContinuations >= MAX_STOP_CONTINUATIONS
          ? undefined
          : await stopFeedback(loopHooks, { ...hookInput('Stop'), stop_hook_active: stopContinuations > 0 });
      if (options.signal.aborted) return finish('aborted');
      if (feedback === undefined) {
        const end = endOfReply(outcome.stopReason);
        return finish(end.stopReason, end.error);
      }
      stopContinuations++;
      const message: UserMessage = { role: 'user', content: [{ type: 'text', text: feedback }] };
      messages.push(message);
      emit({ type: 'user_message', message, origin: 'stop_hook' });
      continue;
    }
    if (lastTurn)
      return finish(
        'max_turns',
        `Stopped after ${maxTurns} turns, the turn limit (--max-turns; ${DEFAULT_MAX_TURNS} unless set); the model still wanted to continue.`,
      );
  }
}

async function runTurn(
  options: RunAgentOptions,
  rt: RuntimeContext,
  messages: readonly Message[],
  seenIds: Set<string>,
  emit: (event: AgentEvent) => void,
  setup: TurnSetup,
): Promise<TurnOutcome> {
  const { tools, systemPromptSection, loadedBySearch = [] } = chooseTools(options, messages);
  const system = systemFor(options, tools, systemPromptSection, setup.date);
  const specs = tools.map((tool) => {
    const spec = toolSpec(tool, rt.session.cwd);
    return loadedBySearch.includes(tool.name) ? { ...spec, loadedBySearch: true } : spec;
  });
  setup.tracker.sending(system, JSON.stringify(specs));

  // Each attempt at the reply has its own controller and batch: a provider failure stops the
  // attempt's tools as an abort does, and a retried reply drops what the broken one started.
  const newAttempt = () => {
    const abort = new AbortController();
    // The last allowed turn's calls run too (as Claude Code's do): the model asked for them, and
    // their results stay in the history for a resumed session.
    const batch = createBatch(rt, { signal: abort.signal, maxConcurrency: options.maxConcurrency });
    return { abort, batch, parts: [] as AssistantPart[], calls: [] as { id: string; name: string }[], held: [] as HeldCall[] };
  };
  let attempt = newAttempt();
  const relay = (): void => attempt.abort.abort(options.signal.reason);
  options.signal.addEventListener('abort', relay, { once: true });
  let stopReason: StopReason = 'other';
  let usage: Usage | undefined;
  let error: unknown;
  const chat = startChatSpan(options.model, options.provider.name, options.maxTokens);
  try {
    const stream = options.provider.stream(
      {
        model: options.model,
        system,
        messages: [...messages],
        tools: specs,
        maxTokens: options.maxTokens,
        cache: setup.cache,
        reasoning: options.reasoning,
      },
      options.signal,
    );
    for await (const event of stream) {
      const { parts, calls, held, batch } = attempt;
      if (event.type === 'text_delta') {
        const last = parts[parts.length - 1];
        if (last?.type === 'text') last.text += event.text;
        else parts.push({ type: 'text', text: event.text });
        emit(event);
      } else if (event.type === 'thinking') {
        parts.push(event.part);
      } else if (event.type === 'tool_call_end') {
        const id = uniqueCallId(event.id, seenIds);
        const input = decodeStreamedArguments(event.input);
        parts.push({ type: 'tool_use', id, name: event.name, input });
        calls.push({ id, name: event.name });
        emit({ type: 'tool_call', id, name: event.name, input });
        const call: ToolCallRequest = { id, name: event.name, input };
        const complete = isCompleteJSON(event.input);
        // Only a read-only call starts before the reply has ended: a call with effects never runs
        // from a reply that breaks off (and is then asked for again), nor out of the model's order.
        if (held.length > 0 || !complete || !startsEarly(tools, call)) held.push({ call, complete });
        else batch.push(call);
      } else if (event.type === 'message_end') {
        stopReason = event.stopReason;
        usage = event.usage;
      } else if (event.type === 'retry') {
        // The reply so far is void: stop what it started, forget its calls, and wait for the new one.
        attempt.abort.abort(new Error(event.reason));
        batch.end();
        await batch.results;
        for (const call of calls) seenIds.delete(call.id);
        attempt = newAttempt();
        emit({ ...event, type: 'model_retry' });
      }
    }
    chat.end(stopReason, usage);
  } catch (caught) {
    error = caught;
    chat.fail(caught);
    attempt.abort.abort(caught);
  }
  const { parts, calls, held, batch } = attempt;
  // After a failed stream the held calls stay unrun: they get the model-failed result below.
  const { run, cutOff } = error === undefined ? releaseHeld(held, stopReason) : { run: [], cutOff: [] };
  for (const call of run) batch.push(call);
  batch.end();
  const finished = [...(await batch.results), ...cutOff];
  options.signal.removeEventListener('abort', relay);
  const missing = error !== undefined && !options.signal.aborted ? modelFailedContent(messageOf(error)) : interruptedWhileRunning();
  return { assistant: { role: 'assistant', content: parts }, results: pairResults(calls, finished, missing), stopReason, usage, error };
}

/** Whether a call may start while its reply is still streaming: its tool says it is read-only. */
function startsEarly(tools: readonly AnyTool[], call: ToolCallRequest): boolean {
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (tool === undefined || !isRecord(call.input)) return false;
  try {
    return tool.isReadOnly(call.input) === true;
  } catch {
    return false;
  }
}

function chooseTools(options: RunAgentOptions, messages: readonly Message[]): TurnTools {
  const pool = options.rt.pool();
  return options.selectTools ? options.selectTools(pool, messages) : { tools: pool };
}

function systemFor(options: RunAgentOptions, tools: readonly AnyTool[], extra: string | undefined, date: Date): string {
  if (typeof options.system === 'string') return extra ? `${options.system}\n\n${extra}` : options.system;
  if (options.system) return options.system(tools, extra);
  return buildSystemPrompt({ tools, cwd: options.rt.session.cwd, date, extra });
}

/**
 * The parsed object when the streamed JSON is a valid object ('' means no arguments), else the
 * raw text for the pipeline to repair or refuse (also when it nests too deeply to send back).
 */
export function decodeStreamedArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  if (jsonDepth(raw) > MAX_ARGUMENT_DEPTH) return raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    // Histories need an object here; anything else goes to the pipeline to be reported.
    return isRecord(parsed) ? parsed : raw;
  } catch {
    return raw;
  }
}
