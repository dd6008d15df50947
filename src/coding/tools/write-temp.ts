// The temporary files of atomic writes, and cleaning up those a killed wield left behind.
//
// A temp file is named `.<name>.wield-<pid>-<12 hex>.tmp`, beside its target (the rename must stay
// on one filesystem). While it exists, a symlink `<pid>-<12 hex>` to it sits in a pending folder
// of wield's own (under WIELD_HOME): made before the temp file, removed after the rename. A kill
// mid-write leaves both, and the next start reads that one small folder — never a crawl of the
// workspace, which may be huge, and never a guess from a name alone: a file is removed only when
// wield's own record names it, its name has the pattern and the id of that record, and the
// process that wrote it is gone (or, its pid reused since, the record is old).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const TEMP_NAME = /^\..+\.wield-([1-9]\d{0,9})-([0-9a-f]{12})\.tmp$/;
const RECORD_NAME = /^([1-9]\d{0,9})-([0-9a-f]{12})$/;

/** Past this age a record is stale even if a process with its pid lives (the pid was reused). */
export const STALE_RECORD_MS = 60 * 60 * 1000;

export interface TempFile {
  /** The temp file's path, beside the target. */
  path: string;
  /** `<pid>-<12 hex>`: the record's name, and the end of the temp file's name. */
  id: string;
}

/** A fresh temp path for writing `file`. */
export function tempFileFor(file: string, pid = process.pid): TempFile {
  const id = `${pid}-${randomBytes(6).toString('hex')}`;
  return { path: path.join(path.dirname(file), `.${path.basename(file).slice(0, 100)}.wield-${id}.tmp`), id };
}

export interface LeftoverFacts {
  /** The record's name in the pending folder. */
  record: string;
  /** The base name of the file the record points to. */
  target: string;
  /** Whether a process with the record's pid is alive. */
  writerAlive: boolean;
  ageMs: number;
}

/** What to do with one record: remove its temp file (and the record), the record alone, or nothing yet. */
export function leftoverAction(facts: LeftoverFacts): 'remove-temp' | 'remove-record' | 'keep' {
  const record = RECORD_NAME.exec(facts.record);
  if (!record) return 'keep'; // not ours
  if (facts.writerAlive && facts.ageMs < STALE_RECORD_MS) return 'keep'; // a write in progress
  const temp = TEMP_NAME.exec(facts.target);
  // A record pointing anywhere but at its own temp file never removes that file.
  return temp && `${temp[1]}-${temp[2]}` === facts.record ? 'remove-temp' : 'remove-record';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Records the temp file in `pendingDir` before it is made; best effort (an unwritable home must not stop a Write). */
export async function recordTemp(pendingDir: string, temp: TempFile): Promise<() => Promise<void>> {
  const record = path.join(pendingDir, temp.id);
  try {
    await fs.promises.mkdir(pendingDir, { recursive: true, mode: 0o700 });
    await fs.promises.symlink(temp.path, record);
  } catch {
    return async () => undefined;
  }
  return () => fs.promises.rm(record, { force: true });
}

/** Removes the temp files killed writes left; returns their paths. Never throws. */
export async function cleanLeftovers(pendingDir: string, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(pendingDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const record = path.join(pendingDir, name);
    try {
      const [stats, target] = await Promise.all([fs.promises.lstat(record), fs.promises.readlink(record)]);
      const pid = Number(RECORD_NAME.exec(name)?.[1] ?? 0);
      const action = leftoverAction({
        record: name,
        target: path.basename(target),
        writerAlive: pid > 0 && alive(pid),
        ageMs: now - stats.mtimeMs,
      });
      if (action === 'keep') continue;
      if (action === 'remove-temp' && (await isRegularFile(target))) {
        await fs.promises.rm(target, { force: true });
        removed.push(target);
      }
      await fs.promises.rm(record, { force: true });
    } catch {
      // Not a record of ours (not a link), or gone meanwhile (another wield cleaning).
    }
  }
  return removed;
}

async function isRegularFile(file: string): Promise<boolean> {
  try {
    return (await fs.promises.lstat(file)).isFile();
  } catch {
    return false;
  }
}
