// What a live session records so that a replay can be faithful: the state of each file a call
// touches, taken before the first call that touches it (so an Edit's file is saved as it was
// before the edit), within size caps; and the person's answers to questions, in order. For
// /rewind, a file a call changes is also recorded before its first change in each prompt, and
// by hash after each change (so an edit made outside wield since can be told).
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import type { AnyTool, AskUser } from '../tool/types.js';
import type { AgentEvent } from './events.js';
import type { SessionRecord } from './session-store.js';

export type FileRecord = Extract<SessionRecord, { type: 'file' }>;

export interface SnapshotLimits {
  /** Larger files are recorded by hash and size only. */
  maxFileBytes: number;
  /** Content recorded per session, in all (and as much again for /rewind's later records). */
  maxTotalBytes: number;
  /** Files recorded per session (a Grep over a large tree stops there; as many again for /rewind). */
  maxFiles: number;
  /** Larger files are recorded by size and time only: hashing them would hold the turn up. */
  maxHashBytes: number;
}

/**
 * A session log should stay small beside the project: 256 KB a file, 4 MB and 2,000 files a
 * session. Hashing runs before and after each call that names a file: 64 MB hash in ~0.2 s here,
 * while a disk image a command merely names can be gigabytes (more than a Buffer holds).
 */
export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = {
  maxFileBytes: 256 * 1024,
  maxTotalBytes: 4 * 1024 * 1024,
  maxFiles: 2000,
  maxHashBytes: 64 * 1024 * 1024,
};

/** The file's SHA-256, read a chunk at a time; undefined past `maxBytes` or when it cannot be read. */
function hashFile(abs: string, size: number, maxBytes: number): string | undefined {
  if (size > maxBytes) return undefined;
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(Math.min(size, 1024 * 1024) || 1);
  let fd: number | undefined;
  try {
    fd = openSync(abs, 'r');
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
    return hash.digest('hex');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Folders whose content no replay needs and which can be huge. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

function isUtf8(bytes: Buffer): boolean {
  return Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

export interface FileSnapshotOptions {
  cwd: string;
  resolveTool: (name: string) => AnyTool | undefined;
  limits?: SnapshotLimits;
}

/** A file's path as records name it: relative to cwd, with forward slashes. */
function relativeTo(cwd: string, abs: string): string {
  return path.relative(cwd, abs).split(path.sep).join('/');
}

/** The hash (or absence) of a file after wield changed it (a call, /rewind): enough to tell a later outside edit. */
export function afterRecord(cwd: string, abs: string, limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS): FileRecord | undefined {
  const rel = relativeTo(cwd, abs);
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(abs);
  } catch {
    return { type: 'file', path: rel, after: true, absent: true };
  }
  if (!stat.isFile()) return undefined;
  const sha256 = hashFile(abs, stat.size, limits.maxHashBytes);
  return { type: 'file', path: rel, after: true, ...(sha256 !== undefined ? { sha256 } : {}), size: stat.size };
}

/**
 * An event handler for the session log: at each tool_start, the records of the files the call
 * names (TouchedPath) that no earlier call named, and of the files it may write that were not
 * recorded yet since the last prompt; at its tool_end, the state of the files it may have written
 * (`after`). Paths outside cwd are not recorded (a replay runs in a folder standing for cwd only).
 */
export function createFileSnapshots(options: FileSnapshotOptions): (event: AgentEvent) => FileRecord[] {
  const limits = options.limits ?? DEFAULT_SNAPSHOT_LIMITS;
  const seen = new Set<string>();
  let recordedThisPrompt = new Set<string>();
  /** The files each running call may write, by call id, for their `after` records. */
  const writes = new Map<string, string[]>();
  // Records for /rewind (a file seen before, recorded again) have caps of their own: a file edited
  // in every prompt never leaves a replay without the first state of the others.
  const first = { files: 0, bytes: 0 };
  const again = { files: 0, bytes: 0 };

  const snapshot = (abs: string, out: FileRecord[], write: boolean): void => {
    const budget = seen.has(abs) ? again : first;
    if (recordedThisPrompt.has(abs) || (seen.has(abs) && !write) || budget.files >= limits.maxFiles) return;
    seen.add(abs);
    recordedThisPrompt.add(abs);
    const rel = relativeTo(options.cwd, abs);
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(abs);
    } catch {
      out.push({ type: 'file', path: rel, absent: true });
      return;
    }
    if (stat.isDirectory()) {
      let names: string[];
      try {
        names = readdirSync(abs).sort();
      } catch {
        return;
      }
      for (const name of names) if (!SKIPPED_DIRS.has(name)) snapshot(path.join(abs, name), out, write);
      return;
    }
    if (!stat.isFile()) return;
    budget.files += 1;
    const keep = stat.size <= limits.maxFileBytes && budget.bytes + stat.size <= limits.maxTotalBytes;
    if (!keep) {
      const sha256 = hashFile(abs, stat.size, limits.maxHashBytes);
      out.push({ type: 'file', path: rel, ...(sha256 !== undefined ? { sha256 } : {}), size: stat.size, mtimeMs: stat.mtimeMs });
      return;
    }
    let data: Buffer;
    try {
      data = readFileSync(abs);
    } catch {
      return;
    }
    const sha256 = createHash('sha256').update(data).digest('hex');
    budget.bytes += data.length;
    const utf8 = isUtf8(data);
    out.push({
      type: 'file',
      path: rel,
      sha256,
      size: data.length,
      content: data.toString(utf8 ? 'utf8' : 'base64'),
      encoding: utf8 ? 'utf8' : 'base64',
      mtimeMs: stat.mtimeMs,
    });
  };

  const inside = (entry: string): string | undefined => {
    const abs = path.resolve(options.cwd, entry);
    const rel = path.relative(options.cwd, abs);
    return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : abs;
  };

  return (event) => {
    if (event.type === 'user_message' && event.origin === 'prompt') recordedThisPrompt = new Set();
    if (event.type === 'tool_end') {
      const written = writes.get(event.toolUseId) ?? [];
      writes.delete(event.toolUseId);
      return written.flatMap((abs) => afterRecord(options.cwd, abs, limits) ?? []);
    }
    if (event.type !== 'tool_start') return [];
    const tool = options.resolveTool(event.toolName);
    if (!tool?.touchedPaths && !tool?.mentionedPaths) return [];
    let touched: { path: string; write: boolean }[];
    try {
      // The input as the model sent it, before parsing: JSON text is read here, damage ignored.
      const input: unknown = typeof event.input === 'string' ? JSON.parse(event.input) : event.input;
      if (typeof input !== 'object' || input === null) return [];
      const at = { cwd: options.cwd };
      touched = [
        ...(tool.touchedPaths?.(input, at).map((entry) => ({ path: entry.path, write: entry.access === 'write' })) ?? []),
        ...(tool.mentionedPaths?.(input, at).map((entry) => ({ path: entry, write: false })) ?? []),
      ];
    } catch {
      return [];
    }
    const out: FileRecord[] = [];
    const written: string[] = [];
    for (const entry of touched) {
      const abs = inside(entry.path);
      if (abs === undefined) continue;
      snapshot(abs, out, entry.write);
      if (entry.write) written.push(abs);
    }
    if (written.length > 0) writes.set(event.toolUseId, written);
    return out;
  };
}

/** Wraps the person's question answerer so each answer is also recorded, in the order asked. */
export function recordingAnswers(askUser: AskUser, record: (entry: SessionRecord) => void): AskUser {
  return async (questions, signal) => {
    const answers = await askUser(questions, signal);
    record({ type: 'answer', questions: questions.map((q) => q.question), answers });
    return answers;
  };
}
