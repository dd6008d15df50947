// `wield replay ID|SESSION.jsonl [--json]`: re-runs a recorded session's tool calls through
// today's pipeline in a fresh temporary workspace (standing in for the recorded cwd, rebuilt from
// the files the session recorded, so the real project is never touched) and reports where
// results differ. Exit 0 when none differs in meaning; wording-only differences are shown apart.
// The calls are contained to that folder as far as this machine allows (replaySettings), and a
// file this installation did not write gets none of its recorded approvals given again.
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { readSession, sessionFile, UnusableSessionError, wieldHome } from '../../runtime/agent/session-store.js';
import { sessionKey, verifyChain } from '../../runtime/agent/session-key.js';
import { replaySession, type CallComparison, type ReplayReport } from '../../runtime/agent/replay.js';
import type { AskPermission, PermissionPolicy, ToolCallRequest } from '../../runtime/pipeline/types.js';
import type { WieldPolicy } from '../../coding/permissions/engine.js';
import type { WieldSettings } from '../../coding/settings/load.js';
import { sandboxStatus } from '../../coding/sandbox/index.js';
import { analyzeBash, loadBashAnalyzer } from '../../coding/bash/index.js';
import { createCliRuntime } from '../runtime.js';
import { loadCliSettings } from '../settings.js';
import type { CliFlags } from '../options.js';
import { writeOut } from '../exit.js';
import { SetupError } from '../setup-error.js';
import { createTerminalAsk, readlineAsk } from '../terminal-ask.js';

/** Per-line warnings printed before the rest are summed up (a binary file has thousands). */
const MAX_PROBLEMS_SHOWN = 20;

export function formatComparison(comparison: CallComparison): string {
  const mark = { same: '✓', wording: '≈', differs: '✗', unrecorded: '?', skipped: '–' }[comparison.status];
  if (comparison.status === 'skipped') return `${mark} ${comparison.toolName} ${comparison.toolUseId}: not compared: ${comparison.reason}`;
  const head = `${mark} ${comparison.toolName} ${comparison.toolUseId}: ${comparison.status}`;
  return comparison.diff ? `${head}\n${comparison.diff.trimEnd()}` : head;
}

/** `7 calls: 7 same`, with the wording-only differences, real differences and unrecorded calls when there are any. */
export function formatReport(report: ReplayReport): string {
  const parts = [`${report.same} same${report.wording > 0 ? ` (${report.wording} in other words)` : ''}`];
  if (report.differs > 0) parts.push(`${report.differs} differ`);
  if (report.unrecorded > 0) parts.push(`${report.unrecorded} without a recorded result`);
  if (report.skipped > 0) parts.push(`${report.skipped} not compared`);
  return `${report.calls.length} calls: ${parts.join(', ')}`;
}

/** A session id (as `--resume` takes) names a file under the sessions folder; anything else is a path. */
export function replaySource(arg: string, env: NodeJS.ProcessEnv = process.env): string {
  if (existsSync(arg) || arg.includes('/') || arg.endsWith('.jsonl')) return path.resolve(arg);
  try {
    return sessionFile(arg, env);
  } catch {
    return path.resolve(arg);
  }
}

export async function runReplay(file: string, flags: CliFlags): Promise<number> {
  const source = replaySource(file);
  if (!existsSync(source)) {
    throw new SetupError(
      source.endsWith(`${path.sep}${file}.jsonl`)
        ? `No session "${file}" in ${path.dirname(source)}: pass an id wield printed (as --resume takes) or a session file.`
        : `Cannot read the session file ${file}: it does not exist. Pass a session id or a .jsonl file.`,
    );
  }
  let parsed: ReturnType<typeof readSession>;
  try {
    parsed = readSession(source);
  } catch (error) {
    throw new SetupError(`Cannot read the session file ${file}: ${(error as Error).message}`);
  }
  const shown = parsed.problems.slice(0, MAX_PROBLEMS_SHOWN);
  if (parsed.problems.length > shown.length) shown.push(`${parsed.problems.length - shown.length} more unreadable lines`);
  for (const problem of shown) process.stderr.write(`wield: ${file}: ${problem}\n`);
  // Nothing to compare is not "0 differ": a file of garbage must not pass as a clean replay.
  if (parsed.records.length === 0) throw new SetupError(`${new UnusableSessionError(file, parsed).message} Nothing to replay.`);
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'wield-replay-')));
  const env = process.env;
  const own = verifyChain(parsed.records, parsed.macs, sessionKey(wieldHome(env), false));
  const loaded = await loadCliSettings(workspace, flags, env);
  loaded.loaded.settings = replaySettings(loaded.loaded.settings);
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true && !flags.json;
  const rl = !own && interactive ? readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true }) : undefined;
  // The session's own files (the sandbox's support files, MCP logs) go beside the folder, not under
  // ~/.wield/sessions, and not inside the folder the commands may write.
  const artefacts = await mkdtemp(path.join(os.tmpdir(), 'wield-replay-session-'));
  const runtime = await createCliRuntime({ cwd: workspace, flags, settings: loaded, env, scratch: artefacts });
  if (!own)
    process.stderr.write(
      `wield: ${file} was not written by wield on this machine (or was changed since): its recorded approvals are not given again; ` +
        `${rl ? 'you are asked instead' : 'with no terminal to ask, those calls are not replayed'}. Edits inside the replay folder still run.\n`,
    );
  const status = await sandboxStatus(runtime.settings.sandbox);
  if (!status.available)
    process.stderr.write(`wield: no containment here (${status.reason}): replayed commands run in the replay folder without a sandbox.\n`);
  await loadBashAnalyzer().catch(() => undefined);
  const controller = new AbortController();
  const onSigint = (): void => controller.abort(new Error('interrupted by the user'));
  process.on('SIGINT', onSigint);
  rl?.on('SIGINT', onSigint);
  try {
    const report = await replaySession({
      records: parsed.records,
      workspace,
      rt: { ...runtime.rt, policy: containedPolicy(runtime.rt.policy) },
      signal: controller.signal,
      own,
      askPerson: rl ? replayAsk(rl, runtime.policy, workspace) : undefined,
      notComparable: (call, folder) => (asksForNoSandbox(call.input) ? UNSANDBOXED : gitWithoutRepository(call, folder)),
      onCall: flags.json ? undefined : (comparison) => process.stdout.write(`${formatComparison(comparison)}\n`),
    });
    await writeOut(flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
    return report.differs > 0 ? 1 : 0;
  } finally {
    process.off('SIGINT', onSigint);
    rl?.close();
    await runtime.close();
    await rm(workspace, { recursive: true, force: true });
    await rm(artefacts, { recursive: true, force: true });
  }
}

/**
 * Asks the person in the terminal, y or n only: an "always" answer would save a rule for a
 * folder that is gone when the replay ends (and record it in projects.json).
 */
function replayAsk(rl: readline.Interface, policy: WieldPolicy, workspace: string): AskPermission {
  const ask = createTerminalAsk({
    ask: readlineAsk(rl),
    policy,
    cwd: workspace,
    trusted: false,
    write: (text) => process.stdout.write(text),
  });
  return (request, signal) => ask({ ...request, decision: { ...request.decision, suggestions: [] } }, signal);
}

/**
 * The settings a replay runs under: the person's, with every Bash call in the sandbox whatever the
 * settings say (nothing writable but the replay folder, no network, no extra folders), and never
 * bypassPermissions (a recording must not write outside the folder because of the mode it meets).
 */
export function replaySettings(settings: WieldSettings): WieldSettings {
  const { network: _network, writableRoots: _writable, ...sandbox } = settings.sandbox;
  return {
    ...settings,
    permissions: {
      ...settings.permissions,
      additionalDirectories: [],
      defaultMode: settings.permissions.defaultMode === 'bypassPermissions' ? 'acceptEdits' : settings.permissions.defaultMode,
    },
    sandbox: { ...sandbox, enabled: true, contain: true, autoAllowBash: false },
  };
}

const UNSANDBOXED = 'it asks to run outside the sandbox ("sandbox": false), which a replay never does';

const asksForNoSandbox = (input: unknown): boolean =>
  typeof input === 'object' && input !== null && (input as { sandbox?: unknown }).sandbox === false;

/** Today's policy, but a call that asks to leave the sandbox is refused whatever the recording approved. */
export function containedPolicy(policy: PermissionPolicy): PermissionPolicy {
  return {
    decide: (request) =>
      asksForNoSandbox(request.input) ? { behavior: 'deny', reason: `not replayed: ${UNSANDBOXED}` } : policy.decide(request),
  };
}

/**
 * A Bash call that runs git where the replay folder has no repository (a session records files,
 * not a repository's history): its result is not comparable here. Asked of the table as it applies
 * contained, where the analyser follows git's arguments (alone it stops at `git`, outside its core).
 */
export function gitWithoutRepository(call: ToolCallRequest, workspace: string): string | undefined {
  if (call.name !== 'Bash' || existsSync(path.join(workspace, '.git'))) return undefined;
  const command = typeof call.input === 'object' && call.input !== null ? (call.input as { command?: unknown }).command : undefined;
  if (typeof command !== 'string' || analyzeBash(command, { cwd: workspace, contained: true }).gitDirs.length === 0) return undefined;
  return 'it runs git, and a session does not record the repository';
}
