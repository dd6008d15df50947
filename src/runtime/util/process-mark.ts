// Every process wield starts carries a mark in its environment, so the whole tree can be found
// and ended even where a process group cannot reach it: a command under `setsid`/`nohup`, or one
// that bubblewrap's `--new-session` put in a session of its own. A child inherits the environment,
// so grandchildren carry the mark too (unless one clears it on purpose). Linux reads it from
// /proc/<pid>/environ; elsewhere only the process group is reached.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

export const MARK_VAR = 'WIELD_PROCESS_MARK';

/** This wield process: every mark it hands out starts with it. */
const owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
let counter = 0;

/** A fresh mark for one call's processes. */
export function newMark(): string {
  counter += 1;
  return `${owner}.${counter}`;
}

export interface MarkedProcess {
  pid: number;
  /** Its command line, for the report of what a call left running. */
  command: string;
}

function environOf(pid: number): Buffer | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined; // gone, or not ours to read
  }
}

/** The process group of `pid`, from /proc/<pid>/stat (`pid (comm) state ppid pgrp …`; comm may hold spaces). */
function groupOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`).toString('utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

/**
 * Processes whose environment has `needle` at the start of a variable, or that are in the group
 * `groupLeader` leads: a process in the middle of exec can show an empty environ for a moment.
 */
function scan(needle: Buffer, groupLeader?: number): MarkedProcess[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const inner = Buffer.concat([Buffer.of(0), needle]);
  const found: MarkedProcess[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const env = environOf(pid);
    const marked = env !== undefined && (env.subarray(0, needle.length).equals(needle) || env.includes(inner));
    if (marked || (groupLeader !== undefined && groupOf(pid) === groupLeader)) found.push({ pid, command: commandOf(pid) });
  }
  return found;
}

/** Live processes carrying exactly this mark, and those in the group `groupLeader` leads. */
export function markedProcesses(mark: string, groupLeader?: number): MarkedProcess[] {
  // The NUL ends the variable in environ, so mark `x.1` never matches `x.10`.
  return scan(Buffer.from(`${MARK_VAR}=${mark}\0`), groupLeader);
}

function signalAll(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** Signals the process group led by `groupLeader` (if any) and every process with the mark. */
export function signalMarked(mark: string, signal: NodeJS.Signals, groupLeader?: number): number {
  if (groupLeader !== undefined) signalAll([-groupLeader], signal);
  const marked = markedProcesses(mark);
  signalAll(
    marked.map((p) => p.pid),
    signal,
  );
  return marked.length;
}

const live = new Set<string>();

/** Registers a mark whose processes must end with wield, whatever ends it. */
export function holdMark(mark: string): () => void {
  installExitCleanup();
  live.add(mark);
  return () => live.delete(mark);
}

/** Kills (SIGKILL, synchronously) every process any mark of this wield process still has. */
export function killAllMarked(): number {
  if (live.size === 0) return 0;
  const marked = scan(Buffer.from(`${MARK_VAR}=${owner}.`));
  signalAll(
    marked.map((p) => p.pid),
    'SIGKILL',
  );
  live.clear();
  return marked.length;
}

const SIGNAL_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
let installed = false;

function installExitCleanup(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAllMarked);
  for (const [signal, code] of Object.entries(SIGNAL_CODES) as [NodeJS.Signals, number][]) {
    // Listening replaces node's default exit: keep it when nobody else handles the signal (those
    // who do end the call, which ends its processes, or exit, which runs the cleanup above).
    const onSignal = (): void => {
      if (process.listenerCount(signal) === 1) process.exit(code);
    };
    process.on(signal, onSignal);
  }
}
