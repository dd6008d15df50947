// What a program run is given and gives back: the host it may reach, its limits, how it ended.
// Free of the interpreter's own types, so the package's declarations need nothing of QuickJS.
export type CallOutcome = { ok: true; text: string } | { ok: false; message: string; kind: string };

/** What the program may reach: the tools (each call on wield's call path) and how long a person took. */
export interface ProgramHost {
  call(name: string, input: unknown): Promise<CallOutcome>;
  /** Milliseconds spent waiting for a person so far, the wait in progress included. */
  waitedMs(): number;
  signal: AbortSignal;
}

export interface ProgramLimits {
  /** The program's heap (QuickJS memory limit); its interpreter's whole memory is capped at this plus INTERPRETER_BYTES. */
  memoryBytes: number;
  stackBytes: number;
  /** Time spent running the program's own code, tool calls excluded. */
  cpuMs: number;
  /** Wall time from start to end, excluding time spent waiting for a person. */
  deadlineMs: number;
  /** Printed characters kept; the rest is dropped and said so. */
  maxOutputChars: number;
}

/** What an interpreter holds besides the program's heap: its stack, static data, the runtime itself. */
export const INTERPRETER_BYTES = 32 * 1024 * 1024;

export const DEFAULT_LIMITS: ProgramLimits = {
  memoryBytes: 64 * 1024 * 1024,
  // QuickJS's frames sit on Node's own stack too (about 1 MB): past ~300 KB here Node overflows
  // first (measured), so QuickJS must stop a deep recursion before that.
  stackBytes: 256 * 1024,
  cpuMs: 5_000,
  deadlineMs: 120_000,
  maxOutputChars: 1_000_000,
};

export type ProgramEnd =
  | { kind: 'completed' }
  /** Uncaught: a syntax error, a thrown error, a rejected tool call the program did not catch. */
  | { kind: 'error'; name: string; message: string; line?: number }
  | { kind: 'cpu' | 'memory' | 'deadline' | 'stalled' | 'aborted' };

export interface ProgramRun {
  output: string;
  outputTruncated: boolean;
  end: ProgramEnd;
}
