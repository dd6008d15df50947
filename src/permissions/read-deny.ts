// Which files `Read(pattern)` deny rules hide from the built-ins that search or list many files
// at once (Grep, Glob, LS). The engine checks a call's own paths (the search root); the files a
// search opens are only met during the walk, so those tools ask this predicate for each one.
// Ask rules are left out on purpose: they make a Read prompt, they do not forbid the content.
// The matching is rules.ts matchPathRule's, with each glob compiled once: a search asks for
// every file it meets, and matchPathRule compiles its glob on each call (~25 µs a file).
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import type { Rule } from './rules.js';

/** True when a Read deny rule covers this absolute path (the file itself or a folder above it). */
export type ReadDenied = (absPath: string) => boolean;

interface CompiledRule {
  /** Folder the pattern is relative to. */
  root: string;
  /** Undefined when the rule covers everything under root (`~`, `//`, `dir/**`). */
  isMatch?: (rel: string) => boolean;
}

/** matchPathRule's reading of a pattern: `//abs`, `~/`, `/` or `./` or an inner slash (settings folder), else a name at any depth. */
function compile(content: string, base: string, home: string): CompiledRule {
  let pattern = content;
  let root: string;
  if (pattern.startsWith('//')) {
    root = '/';
    pattern = pattern.slice(2);
  } else if (pattern === '~' || pattern.startsWith('~/')) {
    root = home;
    pattern = pattern.slice(2);
  } else if (pattern.startsWith('./')) {
    root = base;
    pattern = pattern.slice(2);
  } else if (pattern.startsWith('/')) {
    root = base;
    pattern = pattern.slice(1);
  } else if (pattern.replace(/\/+$/, '').includes('/')) {
    root = base;
  } else {
    root = '/';
    pattern = `**/${pattern}`;
  }
  pattern = pattern.replace(/\/+$/, '');
  root = path.resolve(root);
  if (pattern === '' || pattern === '**') return { root };
  return { root, isMatch: picomatch(pattern, { dot: true }) };
}

/** path.relative(root, file) for a file at or below root (both resolved), else undefined; without path.relative's cost. */
function below(root: string, file: string): string | undefined {
  if (file === root) return '';
  if (root === path.sep) return file.slice(1);
  return file.startsWith(root + path.sep) ? file.slice(root.length + 1) : undefined;
}

function matches(rule: CompiledRule, file: string): boolean {
  const rel = below(rule.root, file);
  // As matchPathRule: outside root, or a name starting with `..` (it reads those as climbing out).
  if (rel === undefined || rel.startsWith('..')) return false;
  if (!rule.isMatch) return true;
  // The file itself or any folder above it (a folder pattern covers its contents).
  const posix = path.sep === '/' ? rel : rel.split(path.sep).join('/');
  for (let end = posix.length; end > 0; end = posix.lastIndexOf('/', end - 1)) {
    if (rule.isMatch(posix.slice(0, end))) return true;
  }
  return rel === '' && rule.isMatch('');
}

/**
 * The predicate for a settings' deny rules (every layer's, as loaded), or undefined when none
 * is a `Read(pattern)` rule, so tools keep their fast path. `home` must be the one the policy
 * uses. A whole-tool `Read` rule needs nothing here: the engine denies the whole call.
 */
export function readDenyPredicate(deny: readonly Rule[], home: string = os.homedir()): ReadDenied | undefined {
  const rules = deny.flatMap((rule) => (rule.tool === 'Read' && rule.content !== undefined ? [compile(rule.content, rule.base, home)] : []));
  if (rules.length === 0) return undefined;
  return (absPath) => {
    const file = path.resolve(absPath);
    return rules.some((rule) => matches(rule, file));
  };
}

/** The line a result ends with when files were left out, so the model knows the list is not whole. */
export function hiddenNote(count: number, noun: 'file' | 'entry'): string {
  if (count === 0) return '';
  const plural = noun === 'file' ? 'files' : 'entries';
  return `\n[${count} ${count === 1 ? noun : plural} hidden by Read deny rules]`;
}
