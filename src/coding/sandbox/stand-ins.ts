// Stand-ins for protected paths that do not exist yet. bubblewrap can only mount over something
// that exists, and a mount point it makes itself stays behind on the host (an empty
// `.bash_profile` would hide `~/.profile` from login shells for good; an empty `.mcp.json` is not
// JSON). So wield makes an empty folder there (or at the first missing folder on the way), binds
// it read-only, and removes it when the last command holding it ends, if it is still empty: the
// command cannot create the file, and nothing is left behind. A folder rather than an empty file
// because git ignores empty folders: `git status` inside lists nothing new, and `git add -A`
// cannot commit the stand-in. While it is there, a program outside reading that path gets EISDIR.
// Counted because commands run side by side: unlinking a mount point detaches that mount in every
// other namespace (Linux >= 3.18), which would let a command still running create the file after all.
import { mkdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { kindOf } from './fs-probe.js';

export class StandIns {
  private readonly held = new Map<string, number>();

  /**
   * Holds a stand-in for the missing `target` for one command: the one already held when the
   * target or the folder it would be made in is one, else (when `create`) a new one. Returns its
   * path, or undefined when there is none (something appeared there, or no permission).
   * Synchronous, so no other plan runs between the look and the hold.
   */
  hold(target: string, create: boolean): string | undefined {
    const top = firstMissing(target);
    const parent = path.dirname(top);
    const held = this.held.has(target) ? target : this.held.has(parent) ? parent : undefined;
    if (held !== undefined) {
      this.count(held, 1);
      return held;
    }
    if (!create) return undefined;
    try {
      mkdirSync(top);
    } catch {
      return undefined;
    }
    this.count(top, 1);
    return top;
  }

  /** Whether `p` is a stand-in a running command holds. */
  has(p: string): boolean {
    return this.held.has(p);
  }

  /** Lets go of one command's stand-ins; each no command holds any more is removed if still empty. */
  release(paths: readonly string[]): void {
    for (const p of paths) if (this.count(p, -1) === 0) removeIfEmpty(p);
  }

  private count(p: string, by: 1 | -1): number {
    const n = (this.held.get(p) ?? 0) + by;
    if (n > 0) this.held.set(p, n);
    else this.held.delete(p);
    return n;
  }
}

/** `target`, or its highest folder that is missing. */
function firstMissing(target: string): string {
  let top = target;
  while (path.dirname(top) !== top && kindOf(path.dirname(top)) === undefined) top = path.dirname(top);
  return top;
}

/** rmdir removes only an empty folder: what was put there meanwhile from outside is kept. */
function removeIfEmpty(p: string): void {
  try {
    rmdirSync(p);
  } catch {
    // Gone already, not empty, or replaced by something not ours to remove.
  }
}
