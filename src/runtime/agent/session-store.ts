// Sessions as JSONL under the user's wield folder: one record per line (header, messages,
// tool-call endings, permission decisions), appended as they happen so a crash loses little.
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PermissionDecision } from '../pipeline/types.js';
import type { Message } from '../providers/types.js';
import type { ErrorKind } from '../tool/types.js';
import type { AgentEvent } from './events.js';
import { recordProblem } from './session-records.js';
import { recordMac } from './session-key.js';

export const SESSION_FORMAT_VERSION = 1;

export type SessionRecord =
  | { type: 'session'; version: number; id: string; cwd: string; createdAt: string; provider?: string; model?: string }
  /** `origin`: a Stop hook's feedback, not the person's prompt (absent: a prompt, the model's or results). */
  | { type: 'message'; message: Message; origin?: 'stop_hook' }
  /** The history was rewritten (old results cleared, older turns compacted, the person rewound it): it continues from `messages`. */
  | { type: 'history'; reason: 'cleared' | 'compacted' | 'rewound'; messages: Message[] }
  | {
      type: 'tool_end';
      toolUseId: string;
      toolName: string;
      isError: boolean;
      errorKind?: ErrorKind;
      durationMs: number;
      display?: string;
    }
  | { type: 'permission'; toolUseId: string; toolName: string; decision: PermissionDecision; by: 'policy' | 'user' | 'hook' | 'no-tty' }
  /**
   * A file as it was before the first call that touched it (for replay), or before a call that
   * may change it first did so in a prompt (for /rewind): its content within the size caps, else
   * only its hash and size; `absent` when it did not exist. `after`: as a call that may change it
   * left it, by hash only. `path` is relative to cwd.
   */
  | {
      type: 'file';
      path: string;
      after?: true;
      sha256?: string;
      size?: number;
      content?: string;
      encoding?: 'utf8' | 'base64';
      absent?: true;
      /** Its modification time (Glob lists newest first; a replay restores it so the order holds). */
      mtimeMs?: number;
    }
  /** The person's answers to an AskUserQuestion call (null: dismissed), in the order asked. */
  | { type: 'answer'; questions: string[]; answers: string[][] | null };

/** The folder standing in for `~` (WIELD_HOME lets tests and CI use their own). */
export function wieldHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.WIELD_HOME && env.WIELD_HOME.trim() !== '' ? path.resolve(env.WIELD_HOME) : os.homedir();
}

export function sessionsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(wieldHome(env), '.wield', 'sessions');
}

const SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The JSONL file of a session; the id is checked so `--resume ../x` cannot escape the folder. */
export function sessionFile(id: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!SESSION_ID.test(id))
    throw new Error(`Invalid session id ${JSON.stringify(id)}: use the id wield printed (letters, digits, - and _).`);
  return path.join(sessionsDir(env), `${id}.jsonl`);
}

/** Spill files and other artefacts of a session live next to its log. */
export function sessionArtefactsDir(id: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(sessionsDir(env), id);
}

export interface SessionLogOptions {
  /** Chains a MAC into every record, so a replay can tell this installation's logs (session-key.ts). */
  key?: Buffer;
  /**
   * Keeps the records in memory until the model first answers: a run that fails before that (a
   * rejected key, an unreachable server) leaves no session behind that holds only the prompt.
   */
  holdUntilReply?: boolean;
  /** Hears, once, that the log stopped saving and why; the run goes on without it. */
  onFailure?: (message: string) => void;
}

export class SessionLog {
  /** Whether the file is known to end with a newline (checked before the first append). */
  private endsClean = false;
  /** The last record's MAC, once known ('' before the first record of a new file). */
  private previousMac: string | undefined;
  private pending: SessionRecord[] | undefined;
  /** Why saving stopped; once set, nothing more is written. */
  private stopped: string | undefined;

  constructor(
    readonly file: string,
    private readonly options: SessionLogOptions = {},
  ) {
    if (options.holdUntilReply) this.pending = [];
    try {
      mkdirSync(path.dirname(file), { recursive: true });
    } catch (error) {
      this.stop(error);
    }
  }

  /** False while records are held (nothing written yet); see SessionLogOptions.holdUntilReply. */
  get saved(): boolean {
    return this.pending === undefined;
  }

  /** Why the log stopped saving, when it did. */
  get failure(): string | undefined {
    return this.stopped;
  }

  // Synchronous appends: records stay in order and survive a process exit right after. A log
  // that cannot be written (a full disk, a record too deeply nested to encode) never takes the
  // turn down: it stops saving and says so once.
  append(record: SessionRecord): void {
    if (this.stopped !== undefined) return;
    if (this.pending) {
      this.pending.push(record);
      if (!isReply(record)) return;
      const held = this.pending;
      this.pending = undefined;
      for (const entry of held) this.write(entry);
      return;
    }
    this.write(record);
  }

  private write(record: SessionRecord): void {
    if (this.stopped !== undefined) return;
    try {
      const line = this.line(record);
      // A log torn mid-line (a crash, a full disk) would otherwise swallow the next record into its
      // broken last line; the torn bytes are kept, the new record starts on a line of its own.
      const lead = this.endsClean || endsWithNewline(this.file) ? '' : '\n';
      appendFileSync(this.file, `${lead}${line}\n`, { mode: 0o600 });
      this.endsClean = true;
    } catch (error) {
      this.stop(error);
    }
  }

  private line(record: SessionRecord): string {
    const json = JSON.stringify(record);
    const key = this.options.key;
    if (!key) return json;
    this.previousMac ??= lastMac(this.file);
    const mac = recordMac(key, this.previousMac, json);
    this.previousMac = mac;
    return `${json.slice(0, -1)},"mac":"${mac}"}`;
  }

  /** Records what a session log keeps from an agent event (other events are transient). */
  record(event: AgentEvent): void {
    const record = recordFor(event);
    if (record) this.append(record);
  }

  private stop(error: unknown): void {
    this.stopped = `${whyNotSaved(error)}, so the session is no longer saved to ${this.file} from here on (the conversation goes on; a resume ends before this point)`;
    this.options.onFailure?.(this.stopped);
  }
}

/** What went wrong writing the log, in words. */
export function whyNotSaved(error: unknown): string {
  if (error instanceof RangeError) return 'A record is too deeply nested to save';
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'The disk is full';
  if (code === 'EROFS') return 'The sessions folder is on a read-only file system';
  if (code === 'EACCES' || code === 'EPERM') return 'The session file may not be written (permission denied)';
  return `The session file could not be written (${error instanceof Error ? error.message : String(error)})`;
}

/** The model has answered: what ends holding a new log's records. */
function isReply(record: SessionRecord): boolean {
  return (record.type === 'message' && record.message.role === 'assistant') || record.type === 'history';
}

/** The MAC of a log's last record, to chain a resumed session's records to ('' for no file). */
function lastMac(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return '';
  }
  const { macs } = parseSession(text);
  return macs[macs.length - 1] ?? '';
}

/** True for a missing or empty file, or one whose last byte is a newline. */
function endsWithNewline(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

export function recordFor(event: AgentEvent): SessionRecord | undefined {
  switch (event.type) {
    case 'user_message':
      return { type: 'message', message: event.message, ...(event.origin === 'stop_hook' ? { origin: 'stop_hook' as const } : {}) };
    case 'assistant_message':
    case 'tool_results':
      return { type: 'message', message: event.message };
    case 'context_cleared':
      return { type: 'history', reason: 'cleared', messages: event.messages };
    case 'context_compacted':
      return { type: 'history', reason: 'compacted', messages: event.messages };
    case 'permission_decided':
      return { type: 'permission', toolUseId: event.toolUseId, toolName: event.toolName, decision: event.decision, by: event.by };
    case 'tool_end':
      return {
        type: 'tool_end',
        toolUseId: event.toolUseId,
        toolName: event.toolName,
        isError: event.result.isError,
        ...(event.result.errorKind ? { errorKind: event.result.errorKind } : {}),
        durationMs: event.result.durationMs,
        display: event.result.display,
      };
    default:
      return undefined;
  }
}

export interface ParsedSession {
  header?: Extract<SessionRecord, { type: 'session' }>;
  records: SessionRecord[];
  /** Lines that could not be read (a torn last line after a crash, hand edits). */
  problems: string[];
  /** The 1-based numbers of those lines, in order. */
  problemLines: number[];
  /** Each record's MAC as written (session-key.ts), taken out of the record; undefined where it has none. */
  macs: (string | undefined)[];
}

/** Parses a session log; unreadable lines are reported, never fatal. */
export function parseSession(text: string): ParsedSession {
  const records: SessionRecord[] = [];
  const problems: string[] = [];
  const problemLines: number[] = [];
  const macs: (string | undefined)[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`line ${index + 1}: not valid JSON`);
      problemLines.push(index + 1);
      return;
    }
    const problem = recordProblem(value);
    if (problem === undefined) {
      const { mac, ...record } = value as SessionRecord & { mac?: unknown };
      records.push(record as SessionRecord);
      macs.push(typeof mac === 'string' ? mac : undefined);
    } else {
      problems.push(`line ${index + 1}: ${problem}`);
      problemLines.push(index + 1);
    }
  });
  const header = records.find((record): record is Extract<SessionRecord, { type: 'session' }> => record.type === 'session');
  return { header, records, problems, problemLines, macs };
}

/** "line 7", "lines 3, 4 and 9", at most `max` numbers then "and N more". */
export function describeLines(lines: readonly number[], max = 10): string {
  const shown = lines.slice(0, max).map(String);
  const more = lines.length - shown.length;
  if (more > 0) shown.push(`${more} more`);
  const list = shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
  return `${lines.length === 1 ? 'line' : 'lines'} ${list}`;
}

/** A session file with nothing in it that reads as a record: not resumable, not replayable. */
export class UnusableSessionError extends Error {
  constructor(
    readonly file: string,
    readonly parsed: ParsedSession,
  ) {
    const skipped = parsed.problemLines.length;
    super(
      `${file} holds no session records${skipped > 0 ? ` (${skipped} unreadable ${skipped === 1 ? 'line' : 'lines'})` : ' (it is empty)'}; it is not a wield session log.`,
    );
    this.name = 'UnusableSessionError';
  }
}

export interface ResumedSession extends ParsedSession {
  messages: Message[];
  /** One line to show the person when some lines were skipped; absent when all were read. */
  notice?: string;
}

/**
 * Reads a session log to continue it: lines that are not records are skipped and named in
 * `notice` (the file itself is left as it is), and a file with no record at all is refused
 * with UnusableSessionError rather than resumed as an empty conversation.
 */
export function loadSessionForResume(file: string): ResumedSession {
  const parsed = readSession(file);
  if (parsed.records.length === 0) throw new UnusableSessionError(file, parsed);
  const count = parsed.problemLines.length;
  const notice =
    count === 0
      ? undefined
      : `session ${file}: skipped ${count} unreadable ${count === 1 ? 'line' : 'lines'} (${describeLines(parsed.problemLines)}; a torn write, a hand edit or a record of the wrong shape), resuming from the rest; the file is left as it is`;
  return { ...parsed, messages: messagesOf(parsed.records), notice };
}

export function readSession(file: string): ParsedSession {
  return parseSession(readFileSync(file, 'utf8'));
}

/** Every message as it was first recorded, across compactions (what replay re-runs). */
export function recordedMessages(records: readonly SessionRecord[]): Message[] {
  return records.flatMap((record) => (record.type === 'message' ? [record.message] : []));
}

/** The history a log ends with: messages in order, a history record replacing all before it. */
export function messagesOf(records: readonly SessionRecord[]): Message[] {
  let messages: Message[] = [];
  for (const record of records) {
    if (record.type === 'message') messages.push(record.message);
    else if (record.type === 'history') messages = [...record.messages];
  }
  return messages;
}
