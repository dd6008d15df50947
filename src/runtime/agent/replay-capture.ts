// What a live session records so that a replay can be faithful: the state of each file a call
// touches, taken before the first call that touches it (so an Edit's file is saved as it was
// before the edit), within size caps; and the person's answers to questions, in order.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyTool, AskUser } from '../tool/types.js';
import type { AgentEvent } from './events.js';
import type { SessionRecord } from './session-store.js';

export type FileRecord = Extract<SessionRecord, { type: 'file' }>;

export interface SnapshotLimits {
  /** Larger files are recorded by hash and size only. */
  maxFileBytes: number;
  /** Content recorded per session, in all. */
  maxTotalBytes: number;
  /** Files recorded per session (a Grep over a large tree stops there). */
  maxFiles: number;
}

/** A session log should stay small beside the project: 256 KB a file, 4 MB and 2,000 files a session. */
export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = { maxFileBytes: 256 * 1024, maxTotalBytes: 4 * 1024 * 1024, maxFiles: 2000 };

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

/**
 * An event handler for the session log: at each tool_start, the records of the files the call
 * names (TouchedPath) that no earlier call named. Paths outside cwd are not recorded (a replay
 * runs in a folder standing for cwd only).
 */
export function createFileSnapshots(options: FileSnapshotOptions): (event: AgentEvent) => FileRecord[] {
  const limits = options.limits ?? DEFAULT_SNAPSHOT_LIMITS;
  const seen = new Set<string>();
  let files = 0;
  let bytes = 0;

  const snapshot = (abs: string, out: FileRecord[]): void => {
    if (seen.has(abs) || files >= limits.maxFiles) return;
    seen.add(abs);
    const rel = path.relative(options.cwd, abs).split(path.sep).join('/');
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
      for (const name of names) if (!SKIPPED_DIRS.has(name)) snapshot(path.join(abs, name), out);
      return;
    }
    if (!stat.isFile()) return;
    files += 1;
    const data = readFileSync(abs);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const keep = data.length <= limits.maxFileBytes && bytes + data.length <= limits.maxTotalBytes;
    if (!keep) {
      out.push({ type: 'file', path: rel, sha256, size: data.length, mtimeMs: stat.mtimeMs });
      return;
    }
    bytes += data.length;
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

  return (event) => {
    if (event.type !== 'tool_start') return [];
    const tool = options.resolveTool(event.toolName);
    if (!tool?.touchedPaths && !tool?.mentionedPaths) return [];
    let touched: string[];
    try {
      // The input as the model sent it, before parsing: JSON text is read here, damage ignored.
      const input: unknown = typeof event.input === 'string' ? JSON.parse(event.input) : event.input;
      if (typeof input !== 'object' || input === null) return [];
      const at = { cwd: options.cwd };
      touched = [...(tool.touchedPaths?.(input, at).map((entry) => entry.path) ?? []), ...(tool.mentionedPaths?.(input, at) ?? [])];
    } catch {
      return [];
    }
    const out: FileRecord[] = [];
    for (const entry of touched) {
      const abs = path.resolve(options.cwd, entry);
      const rel = path.relative(options.cwd, abs);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      snapshot(abs, out);
    }
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
