// Pathname expansion as `bash -c` does it by default (no nullglob, dotglob, globstar, extglob or
// nocaseglob; globskipdots on, as in bash 5.2): a pattern segment matches names in its folder, a
// leading `.` must be matched by a literal dot, `*` and `?` match any character (newlines too),
// `[…]` one character of a set, and a pattern that matches nothing stays the word as written.
// Hand-written rather than picomatch or minimatch: those follow their own dialects (extglob and
// braces on, `**` as globstar, dotfiles rules that differ), and the point is to agree with bash.
// Matches are sorted by code point, as in the C locale; another locale orders them differently,
// which changes which operand comes first but not the set of files, and every match is checked.
import type { PathScope, Word, WorkspaceView } from './types.js';

export type Expansion = { matches: string[] } | { unknown: string } | { problem: string };

/** At most this many names per command line: a wider glob asks (reading 10,000 entries costs ~5 ms). */
export const MAX_GLOB_MATCHES = 1000;

/** Splits a pattern (backslash-escaped where quoted) into segments, keeping escapes. */
function segments(pattern: string): string[] {
  const out: string[] = [''];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      out[out.length - 1] += c + pattern[++i];
    } else if (c === '/') {
      out.push('');
    } else {
      out[out.length - 1] += c;
    }
  }
  return out;
}

const literalOf = (segment: string): string => segment.replace(/\\(.)/gs, '$1');
const hasMagic = (segment: string): boolean => /(?:^|[^\\])(?:\\\\)*[*?[]/.test(segment);
const regexEscape = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const classEscape = (c: string): string => c.replace(/[\]\\^-]/g, '\\$&');

/** A segment as a regular expression, or why it cannot be matched exactly (character classes, equivalence classes). */
function segmentRegex(segment: string): RegExp | string {
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\') re += regexEscape(segment[++i] ?? '\\');
    else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const close = bracketEnd(segment, i);
      if (close < 0) {
        re += '\\[';
        continue;
      }
      const body = segment.slice(i + 1, close);
      if (/\[[:=.]/.test(body)) return `\`${segment}\` uses a character class the analyser does not expand`;
      const negate = /^[!^]/.test(body);
      const items = negate ? body.slice(1) : body;
      let set = '';
      for (let k = 0; k < items.length; k++) {
        const ch = items[k] === '\\' ? items[++k] : items[k];
        if (items[k + 1] === '-' && k + 2 < items.length) {
          const to = items[k + 2] === '\\' ? items[k + 3] : items[k + 2];
          set += `${classEscape(ch)}-${classEscape(to)}`;
          k += items[k + 2] === '\\' ? 3 : 2;
        } else {
          set += classEscape(ch);
        }
      }
      re += `[${negate ? '^' : ''}${set}]`;
      i = close;
    } else re += regexEscape(c);
  }
  try {
    return new RegExp(`^${re}$`, 'su');
  } catch {
    return `\`${segment}\` is a pattern the analyser cannot read`;
  }
}

/** Index of the `]` closing the bracket opened at `open` (a `]` first in the set is literal), or -1. */
function bracketEnd(segment: string, open: number): number {
  let k = open + 1;
  if (segment[k] === '!' || segment[k] === '^') k++;
  if (segment[k] === ']') k++;
  for (; k < segment.length; k++) {
    if (segment[k] === '\\') k++;
    else if (segment[k] === ']') return k;
  }
  return -1;
}

/**
 * The names `pattern` expands to from `cwd`, as paths written the way bash writes them (relative
 * stays relative). `unknown` when a folder on the way cannot be read, so bash's answer is unknown.
 */
export function expandGlob(pattern: string, cwd: string, view: WorkspaceView, budget: { left: number }): Expansion {
  const parts = segments(pattern);
  const absolute = parts[0] === '' && parts.length > 1;
  let found: string[] = [absolute ? '/' : ''];
  for (let s = absolute ? 1 : 0; s < parts.length; s++) {
    const part = parts[s];
    const last = s === parts.length - 1;
    if (part === '' && !last) continue;
    const next: string[] = [];
    const join = (prefix: string, name: string): string => (prefix === '' || prefix.endsWith('/') ? prefix + name : `${prefix}/${name}`);
    if (!hasMagic(part)) {
      for (const prefix of found) next.push(join(prefix, literalOf(part)));
    } else {
      const re = segmentRegex(part);
      if (typeof re === 'string') return { problem: re };
      // A leading dot must be matched by a literal dot (dotglob off).
      const dotOk = part.startsWith('.') || part.startsWith('\\.');
      for (const prefix of found) {
        const dir = prefix === '' ? cwd : prefix.startsWith('/') ? prefix : `${cwd}/${prefix}`;
        const names = view.list(dir);
        if (names === undefined) return { unknown: `folder \`${prefix || '.'}\` cannot be read` };
        for (const { name } of names) {
          if (name.startsWith('.') && !dotOk) continue;
          if (!re.test(name)) continue;
          if (--budget.left < 0) return { problem: `a glob matches more than ${MAX_GLOB_MATCHES} names` };
          next.push(join(prefix, name));
        }
      }
    }
    // Segments before the last must be folders (or links to them); the last must exist at all.
    const at = (p: string): string => (p.startsWith('/') ? p : `${cwd}/${p}`);
    found = next.filter((p) => {
      const kind = view.kind(at(p));
      if (kind === undefined) return false;
      if (last) return part !== '' || kind === 'dir' || view.kind(view.realPath(at(p)) ?? '') === 'dir';
      return kind === 'dir' || (kind === 'link' && view.kind(view.realPath(at(p)) ?? '') === 'dir');
    });
    if (found.length === 0) return { matches: [] };
  }
  return { matches: found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

/**
 * The argument words as the program gets them: each glob replaced by the names it matches now
 * (or left as written when it matches none), so operand counts and option parsing see what bash
 * passes. A glob whose folder cannot be read, or that may run in several folders, stays a glob,
 * which the program checks treat as possibly anything.
 */
export function expandArgs(words: readonly Word[], scope: PathScope): Word[] | string {
  const budget = { left: MAX_GLOB_MATCHES };
  const out: Word[] = [];
  for (const word of words) {
    if (!word.glob || word.dynamic || word.brace || word.problem || scope.otherCwds?.length) {
      out.push(word);
      continue;
    }
    const expanded = expandGlob(word.pattern, scope.cwd, scope.view, budget);
    if ('problem' in expanded) return expanded.problem;
    if ('unknown' in expanded) {
      out.push(word);
      continue;
    }
    const literal = (value: string, text: string): Word => ({
      ...word,
      text,
      value,
      pattern: value,
      plain: false,
      glob: false,
      leadingGlob: false,
    });
    if (expanded.matches.length === 0) out.push(literal(word.value, word.text));
    else for (const match of expanded.matches) out.push(literal(match, match));
  }
  return out;
}
