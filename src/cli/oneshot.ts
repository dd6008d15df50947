// `wield -p PROMPT`: one prompt, no person to ask (an `ask` becomes a deny that names the rule
// that would allow it), the answer printed as text, one JSON object, or JSON lines of events.
import type { AgentEvent, AgentResult } from '../runtime/agent/events.js';
import type { McpServerStatus } from '../runtime/mcp/server-status.js';
import { type AgentSession, openAgentSession, resolveResumeId } from './agent-session.js';
import { ClaudeStreamJson, type InitFacts, initLine } from './stream-json.js';
import { readPipedInput, withPipedInput } from './prompt-input.js';
import type { CliFlags, OutputFormat } from './options.js';
import { writeOut } from './exit.js';
import { retryNotice } from '../runtime/providers/retry.js';
import { attachMentions } from './mentions.js';

export interface OneShotSummary {
  answer: string;
  turns: number;
  toolCalls: number;
  usage: AgentResult['usage'];
  /** USD at list price; null when the model's price is unknown (settings context.pricing adds one). */
  costUsd: number | null;
  /** The context window planned with and the history's size at the end, in tokens. */
  contextWindow: number;
  contextTokens: number;
  compactions: number;
  sessionId: string;
  /** True unless the model finished its answer (end_turn): cut off and refused answers count. */
  isError: boolean;
  /** end_turn, or: max_tokens, refusal, max_turns, aborted, error, blocked (see AgentStopReason). */
  stopReason: AgentResult['stopReason'];
  error?: string;
}

/** What is wrong with the prompt itself (a usage error), or undefined. */
export function promptProblem(prompt: string): string | undefined {
  if (prompt.trim() !== '') return undefined;
  return 'wield: the prompt is empty; give the text to send after -p, e.g. wield -p "explain src/main.ts", or pipe it in (wield -p < prompt.txt).';
}

/**
 * One line per MCP server that could not connect: the run goes on without its tools, or, for one
 * still connecting past its connect timeout, without them until it is up.
 */
export function unavailableServers(servers: readonly McpServerStatus[]): string[] {
  return servers.flatMap((server) => {
    const why = `MCP server "${server.name}" is not available (${server.error ?? 'no details'})`;
    if (server.state === 'failed') return [`${why}; its tools are left out of this run.`];
    if (server.state === 'connecting') return [`${why}; it is still connecting, and its tools join this run when it is up.`];
    return [];
  });
}

export function summarize(result: AgentResult, sessionId: string): OneShotSummary {
  return {
    answer: result.answer,
    turns: result.turns,
    toolCalls: result.toolCalls,
    usage: result.usage,
    costUsd: result.costUsd ?? null,
    contextWindow: result.context.window,
    contextTokens: result.context.tokens,
    compactions: result.context.compactions,
    sessionId,
    isError: result.stopReason !== 'end_turn',
    stopReason: result.stopReason,
    error: result.error,
  };
}

/** `given` is the prompt of the command line (see promptFromArgs); piped stdin is added after it. */
export async function runOneShot(given: string | undefined, flags: CliFlags): Promise<number> {
  const piped = await readPipedInput();
  if (!piped.ok) {
    process.stderr.write(`${piped.message}\n`);
    return 2;
  }
  const prompt = withPipedInput(given, piped.text) ?? '';
  const problem = promptProblem(prompt);
  if (problem !== undefined) {
    process.stderr.write(`${problem}\n`);
    return 2;
  }
  const format: OutputFormat = flags.outputFormat ?? 'text';
  const cwd = process.cwd();
  const session = await openAgentSession({ cwd, flags, resumeId: await resolveResumeId(flags, cwd, process.env) });
  for (const notice of session.runtime.notices) process.stderr.write(`wield: ${notice}\n`);
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts >= 2) process.exit(130);
    controller.abort(new Error('interrupted by the user'));
  };
  process.on('SIGINT', onSigint);
  const started = performance.now();
  const claude = format === 'stream-json' ? new ClaudeStreamJson(session.id, session.model) : undefined;
  const emit = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
  // A reply asked for again (so a stalled server never leaves -p silent) and notices go to stderr.
  const onEvent =
    format === 'events'
      ? (event: AgentEvent) => emit(streamEvent(event, session.id))
      : (event: AgentEvent) => {
          if (event.type === 'model_retry') process.stderr.write(`wield: ${retryNotice(event)}\n`);
          else if (event.type === 'notice') process.stderr.write(`wield: ${event.message}\n`);
          claude?.lines(event).forEach(emit);
        };
  try {
    // The first request must offer every server's tools: wait for each server's first connection
    // attempt (each bounded by its connect timeout, so a dead server cannot hang the run).
    await settledOrAborted(session.runtime.mcpReady(), controller.signal);
    for (const notice of unavailableServers(session.runtime.mcp?.list() ?? [])) process.stderr.write(`wield: ${notice}\n`);
    // `@path` in the command line's prompt attaches the file as in the interactive session (through
    // Read, so rules apply); piped text is data, its `@words` are not read.
    const attached = given === undefined ? undefined : await attachMentions(given, session.runtime.rt, controller.signal);
    if (attached && !attached.ok) {
      for (const error of attached.errors) process.stderr.write(`wield: ${error}\n`);
      process.stderr.write('wield: nothing was sent; fix the path, allow the read (--allow "Read(PATH)"), or drop the @\n');
      return 2;
    }
    if (claude) emit(initLine(initFacts(session)));
    const sent = attached?.ok ? (withPipedInput(attached.prompt, piped.text) ?? prompt) : prompt;
    const result = await session.send(sent, controller.signal, onEvent);
    const summary = summarize(result, session.id);
    if (format === 'json') await writeOut(`${JSON.stringify(summary)}\n`);
    else if (format === 'events') await writeOut(`${JSON.stringify({ type: 'result', ...summary })}\n`);
    else if (claude)
      await writeOut(`${JSON.stringify(claude.result(result, { durationMs: performance.now() - started, costUsd: result.costUsd }))}\n`);
    else {
      if (result.answer !== '') await writeOut(result.answer.endsWith('\n') ? result.answer : `${result.answer}\n`);
      if (summary.isError) process.stderr.write(`wield: ${result.error ?? `stopped (${result.stopReason})`}\n`);
      // JSON output carries the id; text output names it where it does not mix with the answer. A
      // run the model never answered saved nothing (SessionLog holdUntilReply): nothing to continue.
      if (session.log.saved) process.stderr.write(`wield: session ${session.id} (continue it: wield --resume ${session.id})\n`);
      else process.stderr.write('wield: nothing was saved (the model never answered)\n');
    }
    return summary.isError ? 1 : 0;
  } finally {
    process.off('SIGINT', onSigint);
    await session.close();
  }
}

/** Resolves when `work` settles or the signal aborts (Ctrl-C), whichever is first. */
function settledOrAborted(work: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    signal.addEventListener('abort', () => resolve(), { once: true });
    work.then(resolve, resolve);
  });
}

function initFacts(session: AgentSession): InitFacts {
  return {
    sessionId: session.id,
    cwd: session.runtime.session.cwd,
    model: session.model,
    tools: session.runtime.registry.all().map((tool) => tool.name),
    mcpServers: (session.runtime.mcp?.list() ?? []).map((server) => ({ name: server.name, status: server.state })),
    permissionMode: session.runtime.settings.permissions.defaultMode,
  };
}

/** Events as JSON lines; `done` is replaced by the final result line. */
function streamEvent(event: AgentEvent, sessionId: string): unknown {
  if (event.type === 'done') return { type: 'done', sessionId, stopReason: event.result.stopReason };
  return event;
}
