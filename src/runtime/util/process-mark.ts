// Every process wield starts carries a mark in its environment, so the whole tree can be found
// and ended even where a process group cannot reach it: a command under `setsid`/`nohup`, or one
// that bubblewrap's `--new-session` put in a session of its own. A child inherits the environment,
// so grandchildren carry the mark too (unless one clears it on purpose). Linux reads it from
// /proc/<pid>/environ; elsewhere only the process group is reached.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

export const MARK_VAR = 'WIELD_PROCESS_MARK';

/** This wield process (its main thread's instance of this module): every mark it hands out starts with it. */
export const MARK_OWNER = `${process.pid}-${randomBytes(4).toString('hex')}`;
let counter = 0;

/** A fresh mark for one call's processes. */
export function newMark(): string {
  counter += 1;
  return `${MARK_OWNER}.${counter}`;
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

/** State and process group of `pid`, from /proc/<pid>/stat (`pid (comm) state ppid pgrp …`; comm may hold spaces). */
function statOf(pid: number): { state: string; group: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, group: Number(group) };
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

interface ProcessEntry {
  pid: number;
  environ: Buffer | undefined;
  /** Read on first use: only scans that name a group need it. */
  group?: number | null;
}

function readProcesses(): ProcessEntry[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const processes: ProcessEntry[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && pid !== process.pid) processes.push({ pid, environ: environOf(pid) });
  }
  return processes;
}

let turnSnapshot: ProcessEntry[] | undefined;

/** Keeps `processes` as this turn's snapshot, forgotten when the turn ends. */
function remember(processes: ProcessEntry[]): ProcessEntry[] {
  if (turnSnapshot === undefined) setImmediate(() => (turnSnapshot = undefined));
  turnSnapshot = processes;
  return processes;
}

/**
 * The machine's processes as read once per turn of the event loop. Commands that end together end
 * in one turn (a gateway running 1,000 at once saw ~200 exits per turn), and each exit looks for
 * what its command left running: with ~3,000 processes a pass over /proc took ~60 ms, so a pass
 * per exit blocked the loop for 12 s at a time (mcp-scale bench). One pass now serves the turn.
 */
function processesThisTurn(): ProcessEntry[] {
  return turnSnapshot ?? remember(readProcesses());
}

let looks: ((processes: ProcessEntry[]) => void)[] = [];

/**
 * `markedProcesses`, read once the exits this turn's poll reaped have all been handled (on its
 * check phase), in one pass for all of them. A snapshot taken earlier in the turn could predate
 * what a command started just before it ended; this one cannot.
 */
export function markedProcessesAfterPoll(mark: string, groupLeader?: number): Promise<MarkedProcess[]> {
  if (process.platform !== 'linux') return Promise.resolve([]);
  return new Promise((resolve) => {
    if (looks.length === 0)
      setImmediate(() => {
        const waiting = looks;
        looks = [];
        const processes = remember(readProcesses());
        for (const look of waiting) look(processes);
      });
    looks.push((processes) => resolve(scan(processes, markNeedle(mark), groupLeader)));
  });
}

/** Whether any process is still in the group `leader` led (a signal 0 checks without sending). */
export function groupHasMembers(leader: number): boolean {
  try {
    process.kill(-leader, 0);
    return true;
  } catch {
    return false;
  }
}

function hasMark(env: Buffer | undefined, needle: Buffer, inner: Buffer): boolean {
  return env !== undefined && (env.subarray(0, needle.length).equals(needle) || env.includes(inner));
}

/**
 * Processes whose environment has `needle` at the start of a variable, or that are in the group
 * `groupLeader` leads: a process in the middle of exec can show an empty environ for a moment.
 * `processes` may be this turn's snapshot, so each one found is read again: it may have ended
 * since (or be a zombie), or its pid gone to another process.
 */
function scan(processes: ProcessEntry[], needle: Buffer, groupLeader?: number): MarkedProcess[] {
  const inner = Buffer.concat([Buffer.of(0), needle]);
  const found: MarkedProcess[] = [];
  for (const entry of processes) {
    const marked = hasMark(entry.environ, needle, inner);
    if (!marked && groupLeader !== undefined && entry.group === undefined) entry.group = statOf(entry.pid)?.group ?? null;
    if (!marked && (groupLeader === undefined || entry.group !== groupLeader)) continue;
    const now = statOf(entry.pid);
    if (now === undefined || now.state === 'Z') continue;
    if (hasMark(environOf(entry.pid), needle, inner) || now.group === groupLeader)
      found.push({ pid: entry.pid, command: commandOf(entry.pid) });
  }
  return found;
}

const markNeedle = (mark: string): Buffer => Buffer.from(`${MARK_VAR}=${mark}\0`);

/** Live processes carrying exactly this mark, and those in the group `groupLeader` leads. */
export function markedProcesses(mark: string, groupLeader?: number): MarkedProcess[] {
  if (process.platform !== 'linux') return [];
  // The NUL ends the variable in environ, so mark `x.1` never matches `x.10`.
  return scan(processesThisTurn(), markNeedle(mark), groupLeader);
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

/**
 * Signals every process with the mark and every process in the group `group.leader` leads. The
 * group as a whole (`kill(-leader)`, atomic against a fork) only while its leader is not reaped:
 * after that an emptied group's number can be handed to a new process, and here pid_max is
 * 32,768 (the mcp-scale bench went round it within one run), so a late kill could reach another
 * command. Members are then those /proc shows in the group now.
 */
export function signalMarked(mark: string, signal: NodeJS.Signals, group?: { leader: number; reaped: boolean }): number {
  if (group !== undefined && !group.reaped) signalAll([-group.leader], signal);
  const found = markedProcesses(mark, group?.leader);
  signalAll(
    found.map((p) => p.pid),
    signal,
  );
  return found.length;
}

const live = new Set<string>();

/** Registers a mark whose processes must end with wield, whatever ends it. */
export function holdMark(mark: string): () => void {
  installExitCleanup();
  live.add(mark);
  return () => live.delete(mark);
}

/**
 * Kills (SIGKILL, synchronously) every process with a mark `owner` handed out. Read afresh: it
 * runs as wield ends, when this turn's snapshot may be behind, or from a thread that has none.
 */
export function killMarkedBy(owner: string): number {
  const marked = process.platform === 'linux' ? scan(readProcesses(), Buffer.from(`${MARK_VAR}=${owner}.`)) : [];
  signalAll(
    marked.map((p) => p.pid),
    'SIGKILL',
  );
  return marked.length;
}

/** Kills every process any mark of this wield process still has. */
export function killAllMarked(): number {
  if (live.size === 0) return 0;
  live.clear();
  return killMarkedBy(MARK_OWNER);
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
