// Command hooks, Claude Code's protocol (so users can reuse theirs): the hook input as JSON on
// stdin; exit 0 with optional JSON on stdout (hookSpecificOutput.permissionDecision,
// updatedInput, additionalContext; legacy top-level decision/reason); exit 2 blocks with stderr
// as the reason; any other exit code is a non-blocking error. A timeout kills the hook's whole
// process group and does not block.
import { spawn } from 'node:child_process';
import type { HookEventName, HookInput, HookOutcome } from '../../runtime/hooks/types.js';
import type { CommandHookSpec } from '../settings/schema.js';
import { isRecord } from '../../runtime/util/record.js';

/** Claude Code's default hook timeout. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
/** Output kept per stream; a hook's answer is a small JSON object. */
const MAX_OUTPUT_BYTES = 1 << 20;

export interface CommandHookOptions {
  /** Folder the command runs in (the project folder); also exported as WIELD_PROJECT_DIR. */
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Non-blocking errors (bad exit codes, timeouts, unreadable output). Defaults to stderr. */
  log?: (message: string) => void;
  defaultTimeoutMs?: number;
}

const defaultLog = (message: string) => {
  process.stderr.write(`wield: ${message}\n`);
};

const DECISIONS = new Set(['allow', 'deny', 'ask']);

/** Reads a hook's exit-0 stdout into an outcome; problems are returned, not thrown. */
export function parseHookStdout(event: HookEventName, stdout: string): { outcome: HookOutcome; problems: string[] } {
  const text = stdout.trim();
  const problems: string[] = [];
  if (text === '') return { outcome: {}, problems };
  if (!text.startsWith('{')) {
    // Claude Code adds plain stdout of a UserPromptSubmit hook to the context; elsewhere it is a log line.
    return { outcome: event === 'UserPromptSubmit' ? { additionalContext: text } : {}, problems };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { outcome: {}, problems: [`stdout is not valid JSON (${(e as Error).message}); print one JSON object or nothing`] };
  }
  if (!isRecord(data)) return { outcome: {}, problems: ['stdout JSON must be an object'] };
  const outcome: HookOutcome = {};
  const reason = typeof data.reason === 'string' ? data.reason : undefined;
  if (data.continue === false) {
    // `continue: false` stops the agent; for a tool call that also means the call does not run.
    outcome.halt = { reason: typeof data.stopReason === 'string' ? data.stopReason : (reason ?? 'a hook stopped processing') };
    if (event !== 'Stop') outcome.block = outcome.halt;
  }
  if (data.decision === 'block') outcome.block ??= { reason: reason ?? 'blocked by a hook' };
  if (data.decision === 'approve') outcome.permissionDecision = 'allow';
  if (reason && outcome.permissionDecision) outcome.permissionDecisionReason = reason;
  const specific = data.hookSpecificOutput;
  if (specific !== undefined && !isRecord(specific)) problems.push('hookSpecificOutput must be an object');
  if (isRecord(specific)) {
    const pd = specific.permissionDecision;
    if (typeof pd === 'string' && DECISIONS.has(pd)) {
      outcome.permissionDecision = pd as 'allow' | 'deny' | 'ask';
      if (typeof specific.permissionDecisionReason === 'string') outcome.permissionDecisionReason = specific.permissionDecisionReason;
    } else if (pd !== undefined) {
      problems.push(`permissionDecision ${JSON.stringify(pd)} is not one of allow, deny, ask`);
    }
    // PermissionRequest hooks answer with decision: {behavior, message?, updatedInput?}.
    const d = specific.decision;
    if (isRecord(d) && (d.behavior === 'allow' || d.behavior === 'deny')) {
      outcome.permissionDecision = d.behavior;
      if (typeof d.message === 'string') outcome.permissionDecisionReason = d.message;
      if (isRecord(d.updatedInput)) outcome.updatedInput = d.updatedInput;
    }
    if (isRecord(specific.updatedInput)) outcome.updatedInput = specific.updatedInput;
    else if (specific.updatedInput !== undefined) problems.push('updatedInput must be an object');
    if (typeof specific.additionalContext === 'string') outcome.additionalContext = specific.additionalContext;
  }
  return { outcome, problems };
}

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  spawnError?: string;
}

function collect(stream: NodeJS.ReadableStream | null, into: Buffer[]): void {
  let size = 0;
  stream?.on('data', (chunk: Buffer) => {
    if (size < MAX_OUTPUT_BYTES) into.push(chunk);
    size += chunk.length;
  });
}

function execute(command: string, stdin: string, timeoutMs: number, signal: AbortSignal, opts: CommandHookOptions): Promise<Exit> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    // detached: the hook leads its own process group, so a timeout can kill its children too.
    const child = spawn('/bin/sh', ['-c', command], {
      cwd: opts.cwd,
      env: { ...(opts.env ?? process.env), WIELD_PROJECT_DIR: opts.cwd },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let aborted = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    collect(child.stdout, out);
    collect(child.stderr, err);
    const done = (code: number | null, spawnError?: string) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
        aborted,
        spawnError,
      });
    };
    child.on('error', (e) => done(null, e.message));
    child.on('close', (code) => done(code));
    // A hook that never reads stdin closes the pipe early; that is not an error.
    child.stdin?.on('error', () => {});
    child.stdin?.end(stdin);
  });
}

export async function runCommandHook(
  spec: CommandHookSpec,
  input: HookInput,
  signal: AbortSignal,
  opts: CommandHookOptions,
): Promise<HookOutcome> {
  const log = opts.log ?? defaultLog;
  const timeoutMs = spec.timeout !== undefined ? spec.timeout * 1000 : (opts.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
  const name = `${input.hook_event_name} hook ${JSON.stringify(spec.command)}`;
  const exit = await execute(spec.command, JSON.stringify(input), timeoutMs, signal, opts);
  if (exit.spawnError) {
    log(`${name} could not start: ${exit.spawnError}`);
    return {};
  }
  if (exit.timedOut) {
    log(`${name} timed out after ${timeoutMs / 1000} s and was killed; continuing without it`);
    return {};
  }
  if (exit.aborted) return {};
  if (exit.code === 2) {
    return { block: { reason: exit.stderr.trim() || `${name} exited with code 2 (blocked) without a reason on stderr` } };
  }
  if (exit.code !== 0) {
    log(
      `${name} failed with exit code ${exit.code ?? 'none (killed by a signal)'}${exit.stderr.trim() ? `: ${exit.stderr.trim()}` : ''}; continuing`,
    );
    return {};
  }
  const { outcome, problems } = parseHookStdout(input.hook_event_name, exit.stdout);
  for (const problem of problems) log(`${name}: ${problem}`);
  return outcome;
}
