// Small file-system questions the sandbox plan asks, answered without throwing. Synchronous on
// purpose: a plan asks ~100 of them before every command, and each async call is a round trip
// through libuv's thread pool. Measured on the 2-core bench machine: 40 stats took 0.95 ms with
// fs.promises (in parallel) and 0.05 ms with statSync; the whole plan went from ~4.5 to ~1 ms.
import { readFileSync, realpathSync, statSync } from 'node:fs';

export function kindOf(p: string): 'dir' | 'file' | undefined {
  try {
    const stat = statSync(p, { throwIfNoEntry: false });
    return stat === undefined ? undefined : stat.isDirectory() ? 'dir' : 'file';
  } catch {
    // ENOTDIR, EACCES, ELOOP: nothing to protect or hide there.
    return undefined;
  }
}

export function realOrUndefined(p: string): string | undefined {
  // Most probed paths are missing: a stat first spares realpath's thrown ENOENT (~10 µs each).
  if (kindOf(p) === undefined) return undefined;
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

export function readText(p: string): string | undefined {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}
