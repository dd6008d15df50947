// A conversation as the CLI runs it: provider, runtime, session log and history, for one-shot
// and interactive use alike.
import { existsSync } from 'node:fs';
import { resolveProviderConfig } from '../runtime/providers/config.js';
import type { Message, ModelProvider } from '../runtime/providers/types.js';
import type { AskPermission } from '../runtime/pipeline/types.js';
import type { AskUser } from '../runtime/tool/types.js';
import type { AgentEvent, AgentResult } from '../runtime/agent/events.js';
import { runAgent, DEFAULT_MAX_TURNS } from '../runtime/agent/loop.js';
import {
  loadSessionForResume,
  SESSION_FORMAT_VERSION,
  SessionLog,
  sessionFile,
  sessionsDir,
  UnusableSessionError,
  wieldHome,
} from '../runtime/agent/session-store.js';
import { sessionKey } from '../runtime/agent/session-key.js';
import { loadInstructions, type LoadedInstructions } from '../coding/instructions/load.js';
import { createFileSnapshots, recordingAnswers } from '../runtime/agent/replay-capture.js';
import { selectToolsForRequest } from '../runtime/search/defer.js';
import { buildSystemPrompt } from '../runtime/agent/system-prompt.js';
import { compactHistory, type CompactionOutcome, type ContextOptions } from '../runtime/agent/context-run.js';
import type { WieldSettings } from '../coding/settings/load.js';
import { createCliRuntime, type CliRuntime } from './runtime.js';
import { loadCliSettings } from './settings.js';
import { SetupError } from './setup-error.js';
import type { McpElicitHandler } from '../runtime/mcp/elicit.js';
import { type CliFlags, reasoningOf } from './options.js';
import { listSessions, type SessionEntry } from './session-list.js';

export interface AgentSessionOptions {
  cwd: string;
  flags: CliFlags;
  askPermission?: AskPermission;
  /** How AskUserQuestion reaches a person; absent in one-shot runs (the tool says no one can answer). */
  askUser?: AskUser;
  /** Answers MCP servers' elicitations (the interactive session); absent, they are declined with a note. */
  elicit?: McpElicitHandler;
  /** The session to continue (see resolveResumeId); a new one when absent. */
  resumeId?: string;
  env?: NodeJS.ProcessEnv;
}

export interface AgentSession {
  id: string;
  runtime: CliRuntime;
  provider: ModelProvider;
  /** The model the next request asks for (`/model NAME` changes it; the provider stays). */
  model: string;
  log: SessionLog;
  /** The history so far (grows with each send). */
  messages: Message[];
  /** True when this continues a saved session. */
  resumed: boolean;
  /** The project instructions in the system prompt (AGENTS.md / CLAUDE.md), read once at the start. */
  instructions: LoadedInstructions;
  send(prompt: string, signal: AbortSignal, onEvent?: (event: AgentEvent) => void): Promise<AgentResult>;
  /** Summarises the older turns now (`/compact`); recorded in the log, so a resume continues from it. */
  compact(signal: AbortSignal): Promise<CompactionOutcome>;
  close(): Promise<void>;
}

export async function openAgentSession(options: AgentSessionOptions): Promise<AgentSession> {
  const env = options.env ?? process.env;
  const { flags } = options;
  // Checked first, so a missing model setup is reported before anything heavy loads.
  // Settings first: their `env` (keys, base URLs) and `model` choose the provider; flags win.
  const settings = await loadCliSettings(options.cwd, flags, env);
  Object.assign(env, settings.loaded.settings.env);
  const model = flags.model ?? settings.loaded.settings.model;
  const config = resolveProviderConfig({ provider: flags.provider, model, baseURL: flags.baseUrl, env });
  if (!config.ok) throw new SetupError(config.message);

  let history: Message[] = [];
  let file: string | undefined;
  let resumeNotice: string | undefined;
  const resumeId = options.resumeId;
  if (resumeId !== undefined) {
    try {
      file = sessionFile(resumeId, env);
    } catch (error) {
      throw new SetupError((error as Error).message);
    }
    if (!existsSync(file))
      throw new SetupError(
        `No session "${resumeId}" in ${sessionsDir(env)}; pass an id wield printed before (the file name without .jsonl).`,
      );
    try {
      ({ messages: history, notice: resumeNotice } = loadSessionForResume(file));
    } catch (error) {
      if (error instanceof UnusableSessionError)
        throw new SetupError(`Cannot resume "${resumeId}": ${error.message} Start without --resume, or pass another id.`);
      throw error;
    }
  }

  // Answers are recorded for replay; the log opens once the runtime has given the session its id.
  let answerLog: SessionLog | undefined;
  const askUser = options.askUser && recordingAnswers(options.askUser, (record) => answerLog?.append(record));
  // The SDK loads while the tools and settings do: start-up is the longer of the two, not the sum.
  const [runtime, provider] = await Promise.all([
    createCliRuntime({
      cwd: options.cwd,
      flags,
      settings,
      sessionId: resumeId,
      askPermission: options.askPermission,
      askUser,
      elicit: options.elicit,
      env,
      provider: config.provider,
    }),
    import('../runtime/providers/index.js').then(({ createProvider }) =>
      createProvider({ provider: config.provider, model: config.model, baseURL: config.baseURL, apiKey: config.apiKey, env }),
    ),
  ]);
  if (resumeNotice) runtime.notices.push(resumeNotice);
  const id = runtime.session.id;
  // Signed, so a replay can tell it from a file written elsewhere; a new one is written only once the model answers.
  const log = new SessionLog(file ?? sessionFile(id, env), { key: sessionKey(wieldHome(env)), holdUntilReply: file === undefined });
  answerLog = log;
  const snapshots = createFileSnapshots({ cwd: runtime.session.cwd, resolveTool: (name) => runtime.rt.resolveTool(name) });
  if (!file) {
    log.append({
      type: 'session',
      version: SESSION_FORMAT_VERSION,
      id,
      cwd: runtime.session.cwd,
      createdAt: new Date().toISOString(),
      provider: config.provider,
      model: config.model,
    });
  }

  // Taken once for the whole session, so the system prompt (and the cached prefix) never changes between prompts.
  const startedAt = new Date();
  const instructions = loadInstructions({ cwd: runtime.session.cwd, wieldHome: wieldHome(env), trusted: runtime.trusted });
  // Before the other extra sections (ToolSearch's), so the stable part of the prompt comes first.
  const extraOf = (extra: string | undefined): string | undefined =>
    [instructions.text, extra ?? ''].filter((part) => part !== '').join('\n\n') || undefined;
  const session: AgentSession = {
    id,
    runtime,
    provider,
    model: config.model,
    log,
    messages: history,
    resumed: file !== undefined,
    instructions,
    async send(prompt, signal, onEvent) {
      // Recorded by the loop (user_message), as sent: a UserPromptSubmit hook may add context or block it.
      const message: Message = { role: 'user', content: [{ type: 'text', text: prompt }] };
      const result = await runAgent({
        provider,
        model: session.model,
        messages: [...session.messages, message],
        system: (tools, extra) => buildSystemPrompt({ tools, cwd: runtime.session.cwd, date: startedAt, extra: extraOf(extra) }),
        rt: runtime.rt,
        maxTurns: flags.maxTurns ?? DEFAULT_MAX_TURNS,
        reasoning: reasoningOf(flags),
        selectTools: (pool, messages) => selectToolsForRequest(pool, messages, runtime.deferral),
        context: contextOptions(runtime.settings, flags),
        signal,
        onEvent: (event) => {
          for (const record of snapshots(event)) log.append(record);
          log.record(event);
          onEvent?.(event);
        },
      });
      session.messages = result.messages;
      return result;
    },
    async compact(signal) {
      const outcome = await compactHistory({ provider, model: session.model, messages: session.messages, signal });
      if (outcome.ok) {
        session.messages = outcome.messages;
        log.append({ type: 'history', reason: 'compacted', messages: outcome.messages });
      }
      return outcome;
    },
    close: () => runtime.close(),
  };
  return session;
}

/** Settings `context` and --context-window as runAgent's context option. */
export function contextOptions(settings: WieldSettings, flags: CliFlags): ContextOptions {
  const context = settings.context;
  const prices = Object.fromEntries(
    Object.entries(context.pricing ?? {}).map(([id, p]) => [
      id,
      { input: p.input, output: p.output, cacheRead: p.cacheRead ?? p.input, cacheWrite: p.cacheWrite ?? 0 },
    ]),
  );
  return {
    window: flags.contextWindow ?? context.window,
    cache: context.cache === false ? false : { ttl: context.cacheTtl ?? '5m', deferredTools: context.deferredTools },
    prices,
    turnBudget: context.turnBudget,
    clearing: context.clearing === false ? false : context.clearing === true ? undefined : context.clearing,
    compaction: context.compaction === false ? false : undefined,
  };
}

/**
 * The session id `--resume ID` or `-c/--continue` names; undefined for a new session. A bare
 * `--resume` needs the picker (`pick`, interactive only); without one it is a setup error.
 */
export async function resolveResumeId(
  flags: CliFlags,
  cwd: string,
  env: NodeJS.ProcessEnv,
  pick?: (entries: SessionEntry[]) => Promise<string | undefined>,
): Promise<string | undefined> {
  if (typeof flags.resume === 'string') return flags.resume;
  if (flags.continue) {
    const latest = listSessions(env, cwd)[0];
    if (latest === undefined) throw new SetupError(`No saved session was started in ${cwd}; run without -c to start one.`);
    return latest.id;
  }
  if (flags.resume !== true) return undefined;
  if (pick === undefined)
    throw new SetupError(
      '--resume without an id opens a picker in an interactive session; with -p pass the id (`wield sessions` lists them) or use -c.',
    );
  const entries = listSessions(env, cwd);
  if (entries.length === 0) throw new SetupError(`No saved session was started in ${cwd}; \`wield sessions --all\` lists the others.`);
  return pick(entries);
}
