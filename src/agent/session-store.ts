// Sessions as JSONL under the user's wield folder: one record per line (header, messages,
// tool-call endings, permission decisions), appended as they happen so a crash loses little.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PermissionDecision } from '../pipeline/types.js';
import type { Message } from '../providers/types.js';
import type { AgentEvent } from './events.js';

export const SESSION_FORMAT_VERSION = 1;

export type SessionRecord =
  | { type: 'session'; version: number; id: string; cwd: string; createdAt: string; provider?: string; model?: string }
  | { type: 'message'; message: Message }
  | { type: 'tool_end'; toolUseId: string; toolName: string; isError: boolean; durationMs: number; display?: string }
  | { type: 'permission'; toolUseId: string; toolName: string; decision: PermissionDecision; by: 'policy' | 'user' | 'hook' | 'no-tty' };

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
  if (!SESSION_ID.test(id)) throw new Error(`Invalid session id ${JSON.stringify(id)}: use the id wield printed (letters, digits, - and _).`);
  return path.join(sessionsDir(env), `${id}.jsonl`);
}

/** Spill files and other artefacts of a session live next to its log. */
export function sessionArtefactsDir(id: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(sessionsDir(env), id);
}

export class SessionLog {
  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
  }

  // Synchronous appends: records stay in order and survive a process exit right after.
  append(record: SessionRecord): void {
    appendFileSync(this.file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  /** Records what a session log keeps from an agent event (other events are transient). */
  record(event: AgentEvent): void {
    const record = recordFor(event);
    if (record) this.append(record);
  }
}

export function recordFor(event: AgentEvent): SessionRecord | undefined {
  switch (event.type) {
    case 'user_message':
    case 'assistant_message':
    case 'tool_results':
      return { type: 'message', message: event.message };
    case 'permission_decided':
      return { type: 'permission', toolUseId: event.toolUseId, toolName: event.toolName, decision: event.decision, by: event.by };
    case 'tool_end':
      return {
        type: 'tool_end',
        toolUseId: event.toolUseId,
        toolName: event.toolName,
        isError: event.result.isError,
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
}

const RECORD_TYPES = new Set(['session', 'message', 'tool_end', 'permission']);

/** Parses a session log; unreadable lines are reported, never fatal. */
export function parseSession(text: string): ParsedSession {
  const records: SessionRecord[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      const value: unknown = JSON.parse(line);
      const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
      if (typeof type === 'string' && RECORD_TYPES.has(type)) records.push(value as SessionRecord);
      else problems.push(`line ${index + 1}: not a session record (expected "type" to be one of ${[...RECORD_TYPES].join(', ')})`);
    } catch {
      problems.push(`line ${index + 1}: not valid JSON`);
    }
  });
  const header = records.find((record): record is Extract<SessionRecord, { type: 'session' }> => record.type === 'session');
  return { header, records, problems };
}

export function readSession(file: string): ParsedSession {
  return parseSession(readFileSync(file, 'utf8'));
}

export function messagesOf(records: readonly SessionRecord[]): Message[] {
  return records.filter((record): record is Extract<SessionRecord, { type: 'message' }> => record.type === 'message').map((record) => record.message);
}
