// The saved sessions, for `wield sessions`, `-c/--continue` and the `--resume` picker: each
// file's header and first prompt (read from its head only, so a long session costs no more than
// a short one), newest first.
import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseSession, sessionsDir } from '../runtime/agent/session-store.js';
import { clip } from './summary.js';

/** Bytes read from the head of each log: the header and first prompt fit in far less. */
const HEAD_BYTES = 64 * 1024;

export interface SessionEntry {
  id: string;
  file: string;
  cwd?: string;
  model?: string;
  createdAt?: string;
  /** Last write to the log (ISO). */
  updatedAt: string;
  /** The first prompt, on one line, clipped. */
  firstPrompt: string;
}

function readHead(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    // A line cut at the end of the head is not a record; drop it rather than report it.
    return read === HEAD_BYTES ? text.slice(0, text.lastIndexOf('\n') + 1) : text;
  } finally {
    closeSync(fd);
  }
}

export function canonicalDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Every session log, newest first; `cwd` keeps those started in that folder. */
export function listSessions(env: NodeJS.ProcessEnv, cwd?: string): SessionEntry[] {
  const dir = sessionsDir(env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const here = cwd === undefined ? undefined : canonicalDir(cwd);
  const entries: SessionEntry[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let head: string;
    let mtime: Date;
    try {
      mtime = statSync(file).mtime;
      head = readHead(file);
    } catch {
      continue;
    }
    const { header, records } = parseSession(head);
    if (here !== undefined && (header?.cwd === undefined || canonicalDir(header.cwd) !== here)) continue;
    const prompt = records.find((record) => record.type === 'message' && record.message.role === 'user');
    const text = prompt?.type === 'message' ? prompt.message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ') : '';
    entries.push({
      id: name.slice(0, -'.jsonl'.length),
      file,
      cwd: header?.cwd,
      model: header?.model,
      createdAt: header?.createdAt,
      updatedAt: mtime.toISOString(),
      firstPrompt: clip(text, 70),
    });
  }
  return entries.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** `2026-12-01 19:50  a1b2…  fix the bug` lines, numbered when `numbered` (the picker). */
export function formatSessionList(entries: readonly SessionEntry[], numbered = false): string {
  return entries
    .map((entry, index) => {
      const when = entry.updatedAt.slice(0, 16).replace('T', ' ');
      const lead = numbered ? `${String(index + 1).padStart(2)}. ` : '';
      return `${lead}${when}  ${entry.id}  ${entry.firstPrompt || '(no prompt yet)'}`;
    })
    .join('\n');
}

/** The picker's answer: a number from the list, or an id; undefined when it names none. */
export function pickSession(entries: readonly SessionEntry[], answer: string): SessionEntry | undefined {
  const text = answer.trim();
  if (/^\d+$/.test(text)) return entries[Number(text) - 1];
  return entries.find((entry) => entry.id === text);
}
