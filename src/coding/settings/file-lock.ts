// An advisory lock beside a shared file (`<file>.lock`), so several wield processes that
// read-modify-write the same settings file take turns instead of losing each other's changes.
// The lock file is created exclusively (O_EXCL) and names its holder; a lock whose holder is no
// longer running, or that is older than any update takes, is stale and is cleared.
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** Longer than any read-modify-write of a settings file takes; past it a lock is stale. */
export const STALE_LOCK_MS = 30_000;
/** How long to wait for a live holder before giving up with an error. */
export const LOCK_WAIT_MS = 15_000;

/** Pure: whether a lock held by `pid`, written `ageMs` ago, may be cleared. */
export function isStaleLock(pid: number | undefined, ageMs: number, alive: (pid: number) => boolean): boolean {
  if (ageMs > STALE_LOCK_MS) return true;
  return pid !== undefined && !alive(pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `critical` while holding the lock of `file`. */
export async function withFileLock<T>(file: string, critical: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    await clearIfStale(lock);
    if (Date.now() > deadline) {
      throw new Error(`${file} is locked by another wield process (${lock}); try again, or delete the lock file if no wield is running.`);
    }
    await sleep(wait * (0.5 + Math.random()));
  }
  try {
    return await critical();
  } finally {
    await rm(lock, { force: true });
  }
}

async function clearIfStale(lock: string): Promise<void> {
  let pid: number | undefined;
  let ageMs: number;
  try {
    const [text, info] = await Promise.all([readFile(lock, 'utf8'), stat(lock)]);
    const parsed = Number.parseInt(text, 10);
    pid = Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
    ageMs = Date.now() - info.mtimeMs;
  } catch {
    return; // released meanwhile, or being written: look again next round
  }
  // A lock still being written has no pid yet; only age makes it stale.
  if (!isStaleLock(pid, ageMs, processAlive)) return;
  // Moved aside first, so of several processes clearing the same stale lock one removes it.
  const aside = `${lock}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(lock, aside);
  } catch {
    return;
  }
  await rm(aside, { force: true });
}
