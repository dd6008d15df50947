// Which files `Read(pattern)` deny rules hide from the built-ins that search or list many files
// at once (Grep, Glob, LS). The engine checks a call's own paths (the search root); the files a
// search opens are only met during the walk, so those tools ask this predicate for each one.
// Ask rules are left out on purpose: they make a Read prompt, they do not forbid the content.
// The matching is rules.ts's, with each glob compiled once: a search asks for every file it
// meets, and compiling a glob costs ~25 µs.
import os from 'node:os';
import { compiledRuleMatches, compilePathRule, type Rule } from './rules.js';

/** True when a Read deny rule covers this absolute path (the file itself or a folder above it). */
export type ReadDenied = (absPath: string) => boolean;

/**
 * The predicate for a settings' deny rules (every layer's, as loaded), or undefined when none
 * is a `Read(pattern)` rule, so tools keep their fast path. `home` must be the one the policy
 * uses. A whole-tool `Read` rule needs nothing here: the engine denies the whole call.
 */
export function readDenyPredicate(deny: readonly Rule[], home: string = os.homedir()): ReadDenied | undefined {
  const rules = deny.flatMap((rule) =>
    rule.tool === 'Read' && rule.content !== undefined ? [compilePathRule(rule.content, { base: rule.base, home })] : [],
  );
  if (rules.length === 0) return undefined;
  return (absPath) => rules.some((rule) => compiledRuleMatches(rule, absPath));
}

/** The line a result ends with when files were left out, so the model knows the list is not whole. */
export function hiddenNote(count: number, noun: 'file' | 'entry'): string {
  if (count === 0) return '';
  const plural = noun === 'file' ? 'files' : 'entries';
  return `\n[${count} ${count === 1 ? noun : plural} hidden by Read deny rules]`;
}
