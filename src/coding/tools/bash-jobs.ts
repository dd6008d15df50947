// Background jobs of Bash (`run_in_background`): the model's deliberate way to keep a process
// (a dev server, a watcher) where a foreground call ends what it leaves running. A job is started
// by the Bash call itself, after its permission decision and through its sandbox wrapper, so it
// runs exactly as that call would have; BashOutput reads what it printed since the last read and
// KillShell stops it. Its processes carry a process mark, so they end with wield whatever ends it
// (process-mark.ts), and with the tools' owner (close()). Output is bounded like a foreground
// call's: the unread part in memory keeps its latest characters, the rest goes to a capped spill
// file (bash-output.ts).
import { StringDecoder } from 'node:string_decoder';
import { ToolError } from '../../runtime/tool/types.js';
import type { OutputCapture } from './bash-output.js';
import { runProcess, type ExtraPipe, type RunResult } from './bash-process.js';
import type { InheritedFile } from '../sandbox/argv.js';

/** More running at once is refused: a model looping on starts must not fork without bound. */
export const MAX_RUNNING_JOBS = 10;
/** Unread output kept in memory per job (its latest characters); the rest is in the spill file. */
export const UNREAD_CHARS = 28_000;

export type JobState = 'running' | 'completed' | 'failed' | 'killed';

export interface JobStart {
  command: string;
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Absent: the job runs until stopped. */
  timeoutMs?: number;
  graceMs?: number;
  extraPipe?: ExtraPipe;
  inherit?: InheritedFile;
  capture: OutputCapture;
  /** Run once the job has ended: a note for its last read (what the sandbox undid, why it failed). */
  afterEnd?: (result: RunResult) => Promise<string | undefined>;
}

/** What one read of a job gives: its state and the output since the previous read. */
export interface JobRead {
  id: string;
  command: string;
  state: JobState;
  output: string;
  /** Unread characters not kept in memory (the oldest), since the previous read. */
  droppedChars: number;
  /** Lines left out by the read's filter. */
  filteredLines: number;
  spillFile?: string;
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
  timedOut?: boolean;
  spawnError?: string;
  leftRunning: string[];
  note?: string;
}

interface Job {
  id: string;
  command: string;
  state: JobState;
  unread: string[];
  unreadChars: number;
  dropped: number;
  capture: OutputCapture;
  controller: AbortController;
  ended: Promise<void>;
  result?: RunResult;
  note?: string;
  waiters: (() => void)[];
}

/** How an ended job ended: stopped (KillShell, the owner closing), finished, or failed. */
export function endState(result: Pick<RunResult, 'interrupted' | 'timedOut' | 'spawnError' | 'exitCode'>): JobState {
  if (result.interrupted) return 'killed';
  return result.timedOut || result.spawnError !== undefined || result.exitCode !== 0 ? 'failed' : 'completed';
}

/** The lines of `text` that match `filter` (all without one), and how many were left out. */
export function filterLines(text: string, filter: RegExp | undefined): { text: string; left: number } {
  if (!filter || text === '') return { text, left: 0 };
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const kept = lines.filter((line) => filter.test(line));
  return { text: kept.map((line) => `${line}\n`).join(''), left: lines.length - kept.length };
}

export class BashJobs {
  private readonly jobs = new Map<string, Job>();
  private counter = 0;
  private closed = false;

  /** Starts a job and returns its id at once. */
  start(options: JobStart): string {
    if (this.closed) throw new ToolError('Background jobs are closed (the session is ending); run the command in the foreground.');
    const running = [...this.jobs.values()].filter((job) => job.state === 'running');
    if (running.length >= MAX_RUNNING_JOBS)
      throw new ToolError(
        `${running.length} background jobs are running (${running.map((job) => job.id).join(', ')}); stop one with KillShell before starting another.`,
      );
    this.counter += 1;
    const controller = new AbortController();
    const job: Job = {
      id: `bash_${this.counter}`,
      command: options.command,
      state: 'running',
      unread: [],
      unreadChars: 0,
      dropped: 0,
      capture: options.capture,
      controller,
      ended: Promise.resolve(),
      waiters: [],
    };
    const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
    job.ended = runProcess({
      file: options.file,
      args: options.args,
      cwd: options.cwd,
      env: options.env,
      timeoutMs: options.timeoutMs,
      signal: controller.signal,
      capture: options.capture,
      graceMs: options.graceMs,
      extraPipe: options.extraPipe,
      inherit: options.inherit,
      onOutput: (chunk, stream) => this.push(job, decoders[stream].write(chunk)),
    }).then(
      async (result) => {
        this.push(job, decoders.stdout.end() + decoders.stderr.end());
        job.note = await options.afterEnd?.(result).catch(() => undefined);
        job.result = result;
        job.state = endState(result);
        this.wake(job);
      },
      (error: unknown) => {
        // Nothing was spawned (the sandbox's filter file could not be opened): a failed job, not a crash.
        job.note = `could not start: ${error instanceof Error ? error.message : String(error)}`;
        job.state = 'failed';
        this.wake(job);
      },
    );
    this.jobs.set(job.id, job);
    return job.id;
  }

  private push(job: Job, text: string): void {
    if (text === '') return;
    job.unread.push(text);
    job.unreadChars += text.length;
    // Drop whole chunks from the front while the rest still fills the budget, then trim the first.
    while (job.unread.length > 1 && job.unreadChars - job.unread[0].length >= UNREAD_CHARS) {
      job.dropped += job.unread[0].length;
      job.unreadChars -= job.unread[0].length;
      job.unread.shift();
    }
    if (job.unreadChars > UNREAD_CHARS) {
      const cut = job.unreadChars - UNREAD_CHARS;
      job.unread[0] = job.unread[0].slice(cut);
      job.unreadChars -= cut;
      job.dropped += cut;
    }
    this.wake(job);
  }

  private wake(job: Job): void {
    for (const waiter of job.waiters.splice(0)) waiter();
  }

  private get(id: string): Job {
    const job = this.jobs.get(id);
    if (job) return job;
    const known = [...this.jobs.keys()];
    throw new ToolError(
      `No background job ${JSON.stringify(id)}. ${known.length ? `Jobs of this session: ${known.join(', ')}.` : 'This session started none (Bash with "run_in_background": true starts one).'}`,
    );
  }

  /** The output since the previous read (only the lines matching `filter`, the others consumed too) and the state. */
  read(id: string, filter?: RegExp): JobRead {
    const job = this.get(id);
    const all = job.unread.join('');
    const dropped = job.dropped;
    job.unread = [];
    job.unreadChars = 0;
    job.dropped = 0;
    const shown = filterLines(all, filter);
    const result = job.result;
    return {
      id: job.id,
      command: job.command,
      state: job.state,
      output: shown.text,
      droppedChars: dropped,
      filteredLines: shown.left,
      spillFile: result ? result.spillFile : job.capture.spillFileSoFar,
      leftRunning: result?.leftRunning ?? [],
      ...(result ? { exitCode: result.exitCode, signal: result.signal, timedOut: result.timedOut, spawnError: result.spawnError } : {}),
      ...(job.note !== undefined ? { note: job.note } : {}),
    };
  }

  /** Stops a job (SIGTERM, SIGKILL after the grace) and waits until it has ended; then reads it. */
  async kill(id: string): Promise<JobRead> {
    const job = this.get(id);
    job.controller.abort();
    await job.ended;
    return this.read(id);
  }

  /** Resolves when the job has output not read yet or has ended: at once if so now, else at the next. */
  changed(id: string): Promise<void> {
    const job = this.get(id);
    if (job.state !== 'running' || job.unreadChars > 0) return Promise.resolve();
    return new Promise((resolve) => job.waiters.push(resolve));
  }

  /** Resolves once the job has ended, its output all read in (not consumed). */
  ended(id: string): Promise<void> {
    return this.get(id).ended;
  }

  /** Stops every job and waits for them: the tools' owner is closing. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.jobs.values()) job.controller.abort();
    await Promise.all([...this.jobs.values()].map((job) => job.ended));
  }
}
