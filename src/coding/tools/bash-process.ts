// Runs one shell command in its own process group and ends everything it started (background
// children included, and those that left the group: `setsid`, `nohup`, bubblewrap's own session)
// on exit, timeout or abort: SIGTERM first, SIGKILL after a grace period. The processes are found
// by the mark in their environment (see process-mark.ts).
import { spawn } from 'node:child_process';
import { groupHasMembers, holdMark, MARK_VAR, markedProcessesAfterPoll, newMark, signalMarked } from '../../runtime/util/process-mark.js';
import type { Duplex, Readable } from 'node:stream';
import type { OutputCapture } from './bash-output.js';
import type { Captured } from './bash-output.js';
import type { InheritedFile } from '../sandbox/argv.js';
import { stdioWith, type StdioEntry } from '../sandbox/inherit.js';

export interface RunOptions {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Absent: no timeout (a background job runs until stopped). */
  timeoutMs?: number;
  signal: AbortSignal;
  capture: OutputCapture;
  /** Called with output as it arrives, per stream (a multi-byte character may span two chunks of one stream). */
  onOutput?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
  /** Time between SIGTERM and SIGKILL. */
  graceMs?: number;
  /** One more pipe for the command, at `fd`, handed to `serve` (the sandbox's network bridge). */
  extraPipe?: ExtraPipe;
  /** A file opened and handed to the command at its fd (the sandbox's seccomp filter). */
  inherit?: InheritedFile;
}

export interface ExtraPipe {
  fd: number;
  serve(channel: Duplex): void;
}

/** stdin closed, stdout and stderr captured, fd 3 the side channel; then the extra pipe, if any. */
function stdioFor(extra: ExtraPipe | undefined): StdioEntry[] {
  const stdio: StdioEntry[] = ['ignore', 'pipe', 'pipe', 'pipe'];
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
  /** Command lines of the processes still running when the shell exited (then ended). */
  leftRunning: string[];
}

const DEFAULT_GRACE_MS = 2_000;

/** After the last kill, how long the pipes may stay open (held by a process no signal reaches) before the call returns anyway. */
const CLOSE_WAIT_MS = 1_000;

export function runProcess(options: RunOptions): Promise<RunResult> {
  return new Promise((resolve) => {
    // Opened first: a missing filter file fails the call before anything is held.
    const stdio = stdioWith(stdioFor(options.extraPipe), options.inherit);
    const mark = newMark();
    const release = holdMark(mark);
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(options.file, options.args, {
        cwd: options.cwd,
        env: { ...options.env, [MARK_VAR]: mark },
        detached: true, // own process group, so one kill reaches every descendant
        stdio: stdio.stdio,
      });
    } finally {
      stdio.close();
    }
    if (options.extraPipe) options.extraPipe.serve(child.stdio[options.extraPipe.fd] as Duplex);
    let timedOut = false;
    let interrupted = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let spawnError: string | undefined;
    let side = '';
    let leftRunning: string[] = [];
    let killTimer: NodeJS.Timeout | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    /** The look for what the shell left running, and their SIGTERM: finish waits for it. */
    let afterExit: Promise<void> | undefined;

    let exited = false;
    const terminate = () => {
      if (child.pid === undefined || killTimer) return;
      const pid = child.pid;
      signalMarked(mark, 'SIGTERM', { leader: pid, reaped: exited });
      killTimer = setTimeout(() => {
        signalMarked(mark, 'SIGKILL', { leader: pid, reaped: exited });
        // A process outside the mark's reach (one that cleared its environment and left the group)
        // may hold the pipes open forever: return without its output.
        closeTimer = setTimeout(() => {
          // Not before the loop has polled once: after a lag (an exit storm, a starved CPU) Node
          // runs timers due meanwhile back to back, and the pipes may still hold output and
          // their end, unread (the mcp-scale bench lost 429 of 1,000 outputs so).
          setImmediate(() => {
            for (const stream of [child.stdout, child.stderr, child.stdio[3]]) stream?.destroy();
            void finish();
          });
        }, CLOSE_WAIT_MS);
      }, options.graceMs ?? DEFAULT_GRACE_MS);
    };
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            terminate();
          }, options.timeoutMs);
    const onAbort = () => {
      interrupted = true;
      terminate();
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });

    for (const [name, stream] of [
      ['stdout', child.stdout],
      ['stderr', child.stderr],
    ] as const) {
      options.capture.attach(stream as Readable);
      const onOutput = options.onOutput;
      if (onOutput) (stream as Readable).on('data', (chunk: Buffer) => onOutput(chunk, name));
    }
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      if (side.length < 8192) side += chunk.toString('utf8');
    });

    let finished = false;
    const finish = async () => {
      if (finished) return;
      finished = true;
      await afterExit;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      if (closeTimer) clearTimeout(closeTimer);
      // Whatever is still marked now outlived the kill's grace: it does not outlive the call. A
      // shell that ended by itself, leaving nothing at its exit and no one in its group, needs no
      // further pass over /proc: in an exit storm that pass per command is what blocked the loop.
      const { pid } = child;
      const quiet = exited && !timedOut && !interrupted && leftRunning.length === 0 && pid !== undefined && !groupHasMembers(pid);
      if (!quiet) signalMarked(mark, 'SIGKILL');
      release();
      options.signal.removeEventListener('abort', onAbort);
      const captured = await options.capture.finish();
      resolve({ ...captured, exitCode, signal: exitSignal, timedOut, interrupted, sideChannel: side, spawnError, leftRunning });
    };
    child.on('error', (error) => {
      spawnError = error.message;
      // A process that never started has no 'close' to wait for.
      if (child.pid === undefined) void finish();
    });
    // The shell is done: end what it left running in the background (and say so), so the pipes
    // close and the call returns now rather than at its timeout.
    child.on('exit', (code, signal) => {
      exited = true;
      exitCode = code;
      exitSignal = signal;
      const { pid } = child;
      if (pid === undefined) return;
      afterExit = markedProcessesAfterPoll(mark, pid).then((found) => {
        if (!timedOut && !interrupted) leftRunning = found.map((p) => p.command);
        terminate();
      });
    });
    child.on('close', () => void finish());
  });
}
