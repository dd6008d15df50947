// /rewind as a pure decision: from a session's records, what restoring the files (and the
// conversation) to how they were before an earlier prompt would change, and what it cannot undo.
// The records are the file snapshots replay-capture.ts takes: a file a call may change is recorded
// before its first change in each prompt, and by hash after each change.
import { createHash } from 'node:crypto';
import { diffLines } from 'diff';
import type { Message } from '../providers/types.js';
import type { ErrorKind } from '../tool/types.js';
import { messagesOf, type SessionRecord } from './session-store.js';

type FileRecord = Extract<SessionRecord, { type: 'file' }>;

/** A prompt of the person's, as recorded. */
export interface RecordedPrompt {
  /** Its place among the session's prompts, from 0. */
  index: number;
  /** Its record's place in the log. */
  at: number;
  text: string;
}

/** A file as it is now: its bytes, or absent. */
export type DiskFile = { absent: true } | { absent?: false; data: Buffer };

/** One file to put back as it was. */
export interface FileRestore {
  path: string;
  /** Its content then; absent: it did not exist then, so it is deleted. */
  content?: Buffer;
  /** Lines added and removed going from now to then; undefined for a file that is not text. */
  added?: number;
  removed?: number;
  /** It changed since wield last changed it (by hand, another program, a command): restoring loses that. */
  changedOutside: boolean;
}

export interface RewindPlan {
  prompt: RecordedPrompt;
  files: FileRestore[];
  /** What restoring cannot undo, one sentence each. */
  cannot: string[];
  /** The conversation as it was before the prompt. */
  messages: Message[];
}

/** Calls that never ran: their tool changed nothing. */
const NEVER_RAN: ReadonlySet<ErrorKind> = new Set(['unknown_tool', 'invalid_input', 'hook_blocked', 'denied', 'cut_off']);

/** The person's prompts, in order: user messages with text and no tool results, Stop hook feedback left out. */
export function recordedPrompts(records: readonly SessionRecord[]): RecordedPrompt[] {
  const prompts: RecordedPrompt[] = [];
  records.forEach((record, at) => {
    if (record.type !== 'message' || record.origin === 'stop_hook' || record.message.role !== 'user') return;
    const parts = record.message.content;
    if (parts.some((part) => part.type === 'tool_result')) return;
    const text = parts.find((part) => part.type === 'text');
    if (text?.type === 'text') prompts.push({ index: prompts.length, at, text: text.text });
  });
  return prompts;
}

/** Whether two records of a file say the same state (by hash). */
function sameState(a: FileRecord, b: FileRecord): boolean {
  return a.absent === true ? b.absent === true : b.absent !== true && a.sha256 !== undefined && a.sha256 === b.sha256;
}

/**
 * The files wield changed since a prompt, in order: those with an `after` record that differs
 * from the record before it (a call that failed or wrote the same bytes changed nothing). With
 * no record before it (the session's record limit), it counts as changed.
 */
export function filesChangedSince(records: readonly SessionRecord[], prompt: RecordedPrompt): string[] {
  const last = new Map<string, FileRecord>();
  const changed = new Set<string>();
  for (const record of records.slice(prompt.at)) {
    if (record.type !== 'file') continue;
    const previous = last.get(record.path);
    if (record.after && (previous === undefined || !sameState(previous, record))) changed.add(record.path);
    last.set(record.path, record);
  }
  return [...changed];
}

/** A recorded call that may have changed files without a record of them (`untracked` says which tools). */
export interface UntrackedCall {
  name: string;
  input: unknown;
}

export interface PlanInput {
  records: readonly SessionRecord[];
  prompt: RecordedPrompt;
  /** The files filesChangedSince names, as they are now. */
  current: ReadonlyMap<string, DiskFile>;
  /** Whether a call may write files that the log does not record (a shell command). */
  untracked: (call: UntrackedCall) => boolean;
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function contentOf(record: FileRecord): Buffer | undefined {
  return record.content === undefined ? undefined : Buffer.from(record.content, record.encoding ?? 'utf8');
}

/** Whether the file now is what the record says (hash-only records compare by hash). */
function matches(now: DiskFile, record: FileRecord): boolean {
  if (now.absent || record.absent) return now.absent === true && record.absent === true;
  return record.sha256 !== undefined && sha256(now.data) === record.sha256;
}

function isText(data: Buffer): boolean {
  return !data.includes(0) && Buffer.from(data.toString('utf8'), 'utf8').equals(data);
}

/** Lines added and removed from `now` to `then`; undefined when either is not text. */
function lineCounts(now: Buffer | undefined, then: Buffer | undefined): { added?: number; removed?: number } {
  if ((now && !isText(now)) || (then && !isText(then))) return {};
  let added = 0;
  let removed = 0;
  for (const change of diffLines(now?.toString('utf8') ?? '', then?.toString('utf8') ?? '')) {
    if (change.added) added += change.count ?? 0;
    if (change.removed) removed += change.count ?? 0;
  }
  return { added, removed };
}

/** `Bash(make build)`, `Write(../notes.txt)`: the call by its command or file, else its tool. */
function callLabel(call: UntrackedCall): string {
  const input = typeof call.input === 'object' && call.input !== null ? (call.input as { command?: unknown; file_path?: unknown }) : {};
  const named = typeof input.command === 'string' ? input.command : input.file_path;
  if (typeof named !== 'string') return call.name;
  const line = named.replace(/\s+/g, ' ').trim();
  return `${call.name}(${line.length > 60 ? `${line.slice(0, 59)}…` : line})`;
}

/** The calls since the prompt that ran and may have written files unrecorded. */
function untrackedCalls(later: readonly SessionRecord[], untracked: PlanInput['untracked']): UntrackedCall[] {
  const neverRan = new Set(later.flatMap((r) => (r.type === 'tool_end' && r.errorKind && NEVER_RAN.has(r.errorKind) ? [r.toolUseId] : [])));
  return later.flatMap((record) => {
    if (record.type !== 'message' || record.message.role !== 'assistant') return [];
    return record.message.content.flatMap((part) =>
      part.type === 'tool_use' && !neverRan.has(part.id) && untracked({ name: part.name, input: part.input })
        ? [{ name: part.name, input: part.input }]
        : [],
    );
  });
}

/**
 * What rewinding to before `prompt` does: each file wield changed since, back to its first record
 * from then on (the state before that prompt, or before the first change after it); files already
 * so are left out. What it cannot do is said: files whose earlier state was not kept, and commands.
 */
export function planRewind(input: PlanInput): RewindPlan {
  const { records, prompt } = input;
  const later = records.slice(prompt.at);
  const files: FileRestore[] = [];
  const cannot: string[] = [];
  for (const file of filesChangedSince(records, prompt)) {
    const mine = later.filter((record): record is FileRecord => record.type === 'file' && record.path === file);
    const then = mine.find((record) => !record.after);
    const last = mine.filter((record) => record.after).at(-1);
    const now = input.current.get(file) ?? { absent: true };
    if (then === undefined) {
      cannot.push(`${file}: its earlier state was not recorded (the session's record limit was reached)`);
      continue;
    }
    if (matches(now, then)) continue;
    const content = then.absent ? undefined : contentOf(then);
    if (!then.absent && content === undefined) {
      cannot.push(
        `${file}: its earlier content was not kept (${then.size ?? '?'} bytes, over the session's recording limits), so it stays as it is`,
      );
      continue;
    }
    const nowData = now.absent ? undefined : now.data;
    files.push({
      path: file,
      ...(content ? { content } : {}),
      ...lineCounts(nowData, content),
      changedOutside: last !== undefined && !matches(now, last),
    });
  }
  const calls = untrackedCalls(later, input.untracked);
  if (calls.length > 0) {
    const shown = calls.slice(0, 5).map(callLabel);
    const more = calls.length > shown.length ? ` and ${calls.length - shown.length} more` : '';
    cannot.push(`what these calls since then wrote is not undone (the log keeps no copy of it): ${shown.join(', ')}${more}`);
  }
  return { prompt, files, cannot, messages: messagesOf(records.slice(0, prompt.at)) };
}
