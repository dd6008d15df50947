// Runs one shell command in its own process group and ends the whole group (background
// children included) on exit, timeout or abort: SIGTERM first, SIGKILL after a grace period.
import { spawn } from 'node:child_process';
import type { Duplex, Readable } from 'node:stream';
import type { OutputCapture } from './bash-output.js';
import type { Captured } from './bash-output.js';

export interface RunOptions {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  capture: OutputCapture;
  /** Called with output as it arrives (throttled by the caller). */
  onOutput?: (chunk: Buffer) => void;
  /** Time between SIGTERM and SIGKILL. */
  graceMs?: number;
  /** One more pipe for the command, at `fd`, handed to `serve` (the sandbox's network bridge). */
  extraPipe?: ExtraPipe;
}

export interface ExtraPipe {
  fd: number;
  serve(channel: Duplex): void;
}

/** stdin closed, stdout and stderr captured, fd 3 the side channel; then the extra pipe, if any. */
function stdioFor(extra: ExtraPipe | undefined): ('ignore' | 'pipe')[] {
  const stdio: ('ignore' | 'pipe')[] = ['ignore', 'pipe', 'pipe', 'pipe'];
  if (extra) {
    while (stdio.length < extra.fd) stdio.push('ignore');
    stdio[extra.fd] = 'pipe';
  }
  return stdio;
}

export interface RunResult extends Captured {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  interrupted: boolean;
  /** What the command wrote to fd 3 (the wrapper's final `pwd -P`). */
  sideChannel: string;
  spawnError?: string;
}

const DEFAULT_GRACE_MS = 2_000;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

export function runProcess(options: RunOptions): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(options.file, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true, // own process group, so one kill reaches every descendant
      stdio: stdioFor(options.extraPipe),
    });
    if (options.extraPipe) options.extraPipe.serve(child.stdio[options.extraPipe.fd] as Duplex);
    let timedOut = false;
    let interrupted = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let spawnError: string | undefined;
    let side = '';
    let killTimer: NodeJS.Timeout | undefined;

    const terminate = () => {
      if (child.pid === undefined || killTimer) return;
      killGroup(child.pid, 'SIGTERM');
      const pid = child.pid;
      killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), options.graceMs ?? DEFAULT_GRACE_MS);
      killTimer.unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      terminate();
    }, options.timeoutMs);
    const onAbort = () => {
      interrupted = true;
      terminate();
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });

    for (const stream of [child.stdout, child.stderr] as Readable[]) {
      options.capture.attach(stream);
      if (options.onOutput) stream.on('data', options.onOutput);
    }
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      if (side.length < 8192) side += chunk.toString('utf8');
    });

    let finished = false;
    const finish = async () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      options.signal.removeEventListener('abort', onAbort);
      const captured = await options.capture.finish();
      resolve({ ...captured, exitCode, signal: exitSignal, timedOut, interrupted, sideChannel: side, spawnError });
    };
    child.on('error', (error) => {
      spawnError = error.message;
      // A process that never started has no 'close' to wait for.
      if (child.pid === undefined) void finish();
    });
    // The shell is done: end what it left running in the background (the group), so the
    // pipes close and the call can return.
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      if (child.pid !== undefined) terminate();
    });
    child.on('close', () => void finish());
  });
}
