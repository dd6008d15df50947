// A conversation as the CLI runs it: provider, runtime, session log and history, for one-shot
// and interactive use alike.
import { existsSync } from 'node:fs';
import { resolveProviderConfig } from '../runtime/providers/config.js';
import type { Message } from '../runtime/providers/types.js';
import type { AgentEvent } from '../runtime/agent/events.js';
import type { WieldSettings } from '../coding/settings/load.js';
import type { AskPermission } from '../runtime/pipeline/types.js';
import type { AskUser } from '../runtime/tool/types.js';
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
import { createCodingAgent, type CodingAgent } from '../coding/agent/create.js';
import { createFileSnapshots, recordingAnswers } from '../runtime/agent/replay-capture.js';
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

/** The library's coding agent (coding/agent/create.ts) with the CLI's session log and resume. */
export interface AgentSession extends CodingAgent {
  id: string;
  runtime: CliRuntime;
  log: SessionLog;
  /** True when this continues a saved session. */
  resumed: boolean;
  /** Forgets the conversation so far (/clear), in the log too, so a resume or a rewind starts from it; how many messages were forgotten. */
  clear(): number;
}

/** The settings' reply timeouts (seconds) as the provider takes them. */
function streamTimeouts(stream: WieldSettings['modelStream']): { firstByteTimeoutMs?: number; idleTimeoutMs?: number } {
  return {
    ...(stream.firstByteTimeout !== undefined ? { firstByteTimeoutMs: stream.firstByteTimeout * 1000 } : {}),
    ...(stream.idleTimeout !== undefined ? { idleTimeoutMs: stream.idleTimeout * 1000 } : {}),
  };
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
      createProvider({
        provider: config.provider,
        model: config.model,
        baseURL: config.baseURL,
        apiKey: config.apiKey,
        env,
        ...streamTimeouts(settings.loaded.settings.modelStream),
        strictTools: flags.strictTools ?? settings.loaded.settings.strictTools,
        onNotice: (message) => process.stderr.write(`wield: ${message}\n`),
      }),
    ),
  ]);
  if (resumeNotice) runtime.notices.push(resumeNotice);
  const id = runtime.session.id;
  // A log that stops saving says so once: at the start among the notices, later as a run event.
  let unsaid: string | undefined;
  // Signed, so a replay can tell it from a file written elsewhere; a new one is written only once the model answers.
  const log = new SessionLog(file ?? sessionFile(id, env), {
    key: sessionKey(wieldHome(env)),
    holdUntilReply: file === undefined,
    onFailure: (message) => {
      unsaid = message;
    },
  });
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
  if (unsaid !== undefined) runtime.notices.push(unsaid);
  unsaid = undefined;
  // The session is the library's coding agent, plus what the CLI keeps: the log and the resume.
  const agent = await createCodingAgent({
    cwd: options.cwd,
    runtime,
    provider,
    model: config.model,
    messages: history,
    env,
    maxTurns: flags.maxTurns,
    reasoning: reasoningOf(flags),
    contextWindow: flags.contextWindow,
    onEvent: (event) => {
      for (const record of snapshots(event)) log.append(record);
      log.record(event);
    },
  });
  const { compact, send } = agent;
  return Object.assign(agent, {
    id,
    log,
    resumed: file !== undefined,
    send: (prompt: string, signal: AbortSignal, onEvent?: (event: AgentEvent) => void) =>
      send(prompt, signal, (event) => {
        onEvent?.(event);
        if (unsaid !== undefined) {
          onEvent?.({ type: 'notice', message: unsaid });
          unsaid = undefined;
        }
      }),
    clear() {
      const forgotten = agent.messages.length;
      agent.messages = [];
      log.append({ type: 'history', reason: 'cleared', messages: [] });
      return forgotten;
    },
    async compact(signal: AbortSignal) {
      const outcome = await compact(signal);
      // Recorded in the log, so a resume continues from it.
      if (outcome.ok) log.append({ type: 'history', reason: 'compacted', messages: outcome.messages });
      return outcome;
    },
  });
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
