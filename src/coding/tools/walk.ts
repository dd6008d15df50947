// A depth-first walk of a folder in name order that respects ignore rules and never follows
// symlinked folders (so it cannot leave the root or loop).
import fs from 'node:fs';
import path from 'node:path';
import { isWithin } from '../permissions/paths.js';
import { IgnoreRules } from './ignore-rules.js';

export interface WalkEntry {
  /** Path relative to the root, with `/` separators. */
  rel: string;
  isDir: boolean;
  depth: number;
  /** For a symlinked file: the real file it leads to (path rules speak about that one too). */
  target?: string;
}

export interface WalkOptions {
  /** Folders deeper than this are listed but not entered (root children have depth 1). */
  maxDepth?: number;
  /** Extra filter; false skips the entry (and, for a folder, all inside it). */
  keep?: (entry: WalkEntry) => boolean;
  respectIgnore?: boolean;
  /** Files matching this are kept even when ignore rules exclude them (rg's `--glob` overrides). */
  override?: (rel: string) => boolean;
}

/** A symlink's target when it is a regular file inside root (folders are never followed). */
function linkedFileInside(absolute: string, root: string): string | undefined {
  try {
    const real = fs.realpathSync(absolute);
    return isWithin(real, fs.realpathSync(root)) && fs.statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

export function* walk(root: string, options: WalkOptions = {}): Generator<WalkEntry> {
  const rules = options.respectIgnore === false ? undefined : new IgnoreRules(root);
  const maxDepth = options.maxDepth ?? Infinity;
  function* visit(relDir: string, depth: number): Generator<WalkEntry> {
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(path.join(root, relDir), { withFileTypes: true });
    } catch {
      return; // unreadable folder: skip, like rg
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of dirents) {
      const rel = relDir ? `${relDir}/${dirent.name}` : dirent.name;
      let isDir = dirent.isDirectory();
      let target: string | undefined;
      if (dirent.isSymbolicLink()) {
        target = linkedFileInside(path.join(root, rel), root);
        if (!target) continue;
        isDir = false;
      } else if (!isDir && !dirent.isFile()) continue; // sockets, FIFOs, devices
      if (rules?.ignoresEntry(rel, isDir) && (isDir || !options.override?.(rel))) continue;
      const entry: WalkEntry = target ? { rel, isDir, depth, target } : { rel, isDir, depth };
      if (options.keep && !options.keep(entry)) continue;
      yield entry;
      if (isDir && depth < maxDepth) yield* visit(rel, depth + 1);
    }
  }
  yield* visit('', 1);
}

/** Whether path rules hide an entry: by its own path or, for a symlinked file, by the file it leads to. */
export function entryDenied(root: string, entry: WalkEntry, denied: (absPath: string) => boolean): boolean {
  return denied(path.join(root, entry.rel)) || (entry.target !== undefined && denied(entry.target));
}
