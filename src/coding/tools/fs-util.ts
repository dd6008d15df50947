// Shared file helpers of the built-in tools: path resolution through the path guard, the
// session's record of what was read, per-file locks and atomic writes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { guardPath } from '../permissions/paths.js';
import { decodeText, type TextFormat } from './edit-match.js';
import { ToolError } from '../../runtime/tool/types.js';
import type { FileReadRecord, PermissionCheck, SessionState, ToolContext, TouchedPath } from '../../runtime/tool/types.js';
import { gitTargetsCheck } from '../permissions/git-targets.js';
import { recordTemp, tempFileFor } from './write-temp.js';

export type Access = 'read' | 'write';

/**
 * Roots a tool may use: the workspace, plus the session folder for reading, since result
 * budgets send the model there ("the full output is saved in …; Read it with an offset").
 */
export function rootsFor(session: SessionState, access: Access): string[] {
  return access === 'read' ? [...session.roots, session.dir] : session.roots;
}

/** Resolves a tool's path argument inside the workspace, or throws a ToolError saying why not. */
export function resolveInWorkspace(ctx: ToolContext, input: string, param: string, access: Access): string {
  const verdict = guardPath(input, { cwd: ctx.session.cwd, roots: rootsFor(ctx.session, access) });
  if (!verdict.inside) {
    throw new ToolError(
      `${param} ${JSON.stringify(input)} was refused: ${verdict.reason}. Paths must lie inside the workspace (${ctx.session.roots.join(', ')}).`,
    );
  }
  return verdict.resolved;
}

/** touchedPaths helper: the lexical absolute path; the permission engine applies the guard. */
export function touched(input: string | undefined, cwd: string, access: Access): TouchedPath[] {
  return [{ path: path.resolve(cwd, input ?? '.'), access }];
}

/**
 * Behaviour of a tool that writes the file named by `file_path`: the permission engine guards
 * that path, and two calls on the same file never run at once.
 */
export const WRITES_FILE_PATH = {
  touchedPaths: (input: { file_path: string }, { cwd }: { cwd: string }): TouchedPath[] => touched(input.file_path, cwd, 'write'),
  // What git's config makes git run or read (a core.hooksPath hook) is refused as in the sandbox.
  checkPermissions: (input: { file_path: string }, ctx: ToolContext): Promise<PermissionCheck> =>
    gitTargetsCheck(touched(input.file_path, ctx.session.cwd, 'write'), ctx.session),
  writeKey: (input: { file_path: string }, { cwd }: { cwd: string }): string => path.resolve(cwd, input.file_path),
};

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function recordFile(session: SessionState, file: string, stats: { mtimeMs: number; size: number }, hash: string): void {
  const record: FileReadRecord = { path: file, mtimeMs: stats.mtimeMs, size: stats.size, hash };
  session.fileState.set(file, record);
}

/**
 * Refuses to modify a file the session has not read, or one that changed on disk since.
 * A changed mtime with the same content (a `touch`, a formatter that rewrote the same bytes)
 * is not a change. Returns the current content for the caller to edit.
 */
export async function requireFreshRead(session: SessionState, file: string, display: string): Promise<Buffer> {
  const record = session.fileState.get(file);
  if (!record) {
    throw new ToolError(
      `${display} exists but has not been read in this session. Read it first (Read {"file_path": ${JSON.stringify(display)}}), then retry, so you change what is really there.`,
    );
  }
  const { content, stats: current } = await readNoFollow(file);
  const same = current.mtimeMs === record.mtimeMs && current.size === record.size;
  if (!same && sha256(content) !== record.hash) {
    throw new ToolError(
      `${display} changed on disk since you read it (by a person, a formatter or another command). Read it again to see the current content, then retry your change.`,
    );
  }
  return content;
}

/** A file's bytes and stats. O_NOFOLLOW: the guard checked this resolved path; a link swapped in since is refused. */
async function readNoFollow(file: string): Promise<{ content: Buffer; stats: fs.Stats }> {
  const handle = await open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    return { content: await handle.readFile(), stats: await handle.stat() };
  } finally {
    await handle.close();
  }
}

/**
 * The text of a file about to be changed, valid UTF-8, with its BOM and line endings taken off
 * (put back by encodeText). `proof: 'read'` (Edit, Write): read in this session and unchanged
 * since (requireFreshRead). `proof: 'context'` (a patch whose hunks quote the file): the file as it
 * is now, since hunks that match it show the model knows what is there, however it read it.
 */
export async function readTextToChange(
  session: SessionState,
  file: string,
  display: string,
  ifMissing: string,
  proof: 'read' | 'context' = 'read',
): Promise<{ text: string; format: TextFormat }> {
  let raw: Buffer;
  try {
    raw = proof === 'read' ? await requireFreshRead(session, file, display) : (await readNoFollow(file)).content;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolError(`${display} does not exist. ${ifMissing}`);
    throw error;
  }
  const decoded = raw.toString('utf8');
  if (!Buffer.from(decoded, 'utf8').equals(raw)) {
    throw new ToolError(
      `${display} is not valid UTF-8 text, so changing it as text could corrupt it; refused. Change it with a command in Bash (e.g. iconv, sed) instead.`,
    );
  }
  return decodeText(decoded);
}

/** Writes atomically and records the new content as read, so the next change of the file needs no Read. */
export async function writeRecorded(session: SessionState, file: string, data: Buffer, options: FileWriteOptions = {}): Promise<void> {
  const stats = await atomicWrite(file, data, options);
  recordFile(session, file, stats, sha256(data));
}

const locks = new Map<string, Promise<unknown>>();

/** withFileLock over several files, taken in path order so two callers never wait on each other. */
export function withFileLocks<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  return sorted.reduceRight<() => Promise<T>>((inner, key) => () => withFileLock(key, inner), fn)();
}

/** Runs fn with an exclusive lock on `key` (a resolved path), so read-check-write never interleaves. */
export async function withFileLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.catch(() => undefined);
  locks.set(key, settled);
  try {
    return await run;
  } finally {
    if (locks.get(key) === settled) locks.delete(key);
  }
}

export interface FileWriteOptions {
  /** Where temp files in flight are recorded, so the next start removes those a kill left (write-temp.ts). */
  pendingWrites?: string;
}

/**
 * Writes a file atomically: a temp file in the same folder (same filesystem, so rename is
 * atomic), fsync, then rename over the target. A crash leaves the old or the new file, never a
 * mix. An existing file's mode is kept; renaming replaces a symlink at `file` rather than
 * following it, so callers pass the resolved path.
 */
export async function atomicWrite(
  file: string,
  data: string | Uint8Array,
  options: FileWriteOptions = {},
): Promise<{ mtimeMs: number; size: number }> {
  const dir = path.dirname(file);
  await fs.promises.mkdir(dir, { recursive: true });
  let mode: number | undefined;
  try {
    mode = (await stat(file)).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const temp = tempFileFor(file);
  const unrecord = options.pendingWrites ? await recordTemp(options.pendingWrites, temp) : undefined;
  try {
    await writeThenRename(temp.path, file, data, mode);
  } finally {
    await unrecord?.();
  }
  await syncDir(dir);
  const after = await stat(file);
  return { mtimeMs: after.mtimeMs, size: after.size };
}

async function writeThenRename(temp: string, file: string, data: string | Uint8Array, mode: number | undefined): Promise<void> {
  // New files get 0o666 minus the umask, like any editor's.
  const handle = await open(temp, 'wx', mode ?? 0o666);
  try {
    await handle.writeFile(data);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    await rename(temp, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}

/** Persists the rename itself (the directory entry); best effort, some filesystems refuse. */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not all platforms allow fsync on a directory; the data itself is already synced.
  }
}

/** Display form of a path: relative to cwd when inside it, else absolute. */
export function displayPath(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}
