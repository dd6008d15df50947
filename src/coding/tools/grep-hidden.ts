// ripgrep `--glob` exclusions for the files Read deny rules hide, so rg never opens them. Only
// exact paths are written, never the rules' own patterns: picomatch and rg's glob syntax differ
// (extglobs, escapes), and a pattern anchored above the search folder has no exact rg form.
// rg reads each `--glob` as a gitignore line: `!/a/b` leaves out a/b under the search folder,
// with everything inside when it is a folder.
import path from 'node:path';
import type { ReadDenied } from '../permissions/read-deny.js';

/** Well under Linux's limits (128 KiB for one argument, 2 MiB for all of them). */
const MAX_EXCLUDE_CHARS = 100_000;

/**
 * A path (relative, `/`-separated) as a literal rg glob, or undefined when it cannot be written
 * exactly: gitignore lines drop trailing whitespace that is not an escaped space, and control
 * characters are not worth the risk. Such a file is still left out of the results.
 */
export function literalGlob(rel: string): string | undefined {
  if (/[\p{Cc}]|[^\P{White_Space} ]/u.test(rel)) return undefined;
  return rel.replace(/[\\*?[\]{} ]/g, (c) => `\\${c}`);
}

/** The top-most folder above `rel` (or rel itself) that the rules hide: excluding it hides all of it in one glob. */
function topHidden(rel: string, cwd: string, denied: ReadDenied, seen: Map<string, boolean>): string {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    let hidden = seen.get(dir);
    if (hidden === undefined) {
      hidden = denied(path.resolve(cwd, dir));
      seen.set(dir, hidden);
    }
    if (hidden) return dir;
  }
  return rel;
}

/**
 * `--glob` values leaving out the hidden files (paths relative to rg's folder, as `rg --files`
 * prints them). A name with no exact glob is skipped, and none are given when they would not
 * fit on a command line: the search then relies on dropping those files from rg's output.
 */
export function exclusionGlobs(hidden: readonly string[], cwd: string, denied: ReadDenied): string[] {
  const seen = new Map<string, boolean>();
  const tops = new Set<string>();
  for (const rel of hidden) tops.add(topHidden(rel.replace(/^\.\//, ''), cwd, denied, seen));
  const globs: string[] = [];
  let chars = 0;
  for (const rel of tops) {
    const literal = literalGlob(rel);
    if (literal === undefined) continue;
    chars += literal.length + 2;
    if (chars > MAX_EXCLUDE_CHARS) return [];
    globs.push(`!/${literal}`);
  }
  return globs;
}
