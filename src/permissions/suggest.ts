// "Always allow" suggestions: the narrowest rules that would allow a call like this one.
// Never a blanket `Bash` or `Bash(*)`: for a shell command, the program and its sub-command
// (`Bash(git push *)`); for programs that run arbitrary code or destroy data, the exact command.
import path from 'node:path';
import { formatRule } from './rules.js';
import { matchBashRule } from './bash/index.js';

/** Programs whose prefix rule would allow anything: interpreters, shells, wrappers, privilege, wipers. */
const EXACT_ONLY = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh',
  'python', 'python2', 'python3', 'node', 'deno', 'bun', 'ruby', 'perl', 'php', 'lua', 'Rscript', 'osascript',
  'eval', 'exec', 'source', '.', 'command', 'builtin', 'env', 'xargs', 'nohup', 'timeout', 'nice', 'time', 'watch', 'script',
  'sudo', 'su', 'doas', 'pkexec', 'ssh', 'awk', 'gawk', 'find',
  'rm', 'rmdir', 'dd', 'mkfs', 'shred', 'chmod', 'chown', 'chgrp', 'truncate', 'kill', 'pkill', 'killall',
]);

const PLAIN_WORD = /^[A-Za-z0-9_./][A-Za-z0-9_.:@/+-]*$/;
const SUBCOMMAND = /^[a-z][a-z0-9:_-]*$/;

/** A rule for one simple command: `Bash(git push *)`, `Bash(make)`, or the exact command. */
export function bashRuleFor(command: string, toolName = 'Bash'): string | undefined {
  const text = command.trim();
  if (text === '' || text === '*') return undefined;
  const words = text.split(/\s+/);
  const program = path.basename(words[0]);
  const exact = formatRule(toolName, text);
  if (!PLAIN_WORD.test(words[0]) || EXACT_ONLY.has(program) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) return exact;
  if (words.length === 1) return exact;
  const prefix = [words[0]];
  if (SUBCOMMAND.test(words[1])) prefix.push(words[1]);
  if (prefix.length === words.length) return exact;
  // A rule that would not match the very command it was offered for (a redirection or an
  // operator after the prefix: `*` never spans those) would make "always" ask again.
  const pattern = `${prefix.join(' ')} *`;
  return matchBashRule(pattern, text) ? formatRule(toolName, pattern) : exact;
}

/** Escapes glob characters so a literal path is matched as itself by picomatch. */
function literalGlob(p: string): string {
  return p.replace(/[*?[\]{}()!+@\\]/g, (c) => `\\${c}`);
}

/** `Edit(/src/a.ts)` relative to the project folder, or `Edit(//abs/path)` outside it. */
export function editRuleFor(absPath: string, base: string): string {
  const rel = path.relative(base, absPath);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return formatRule('Edit', inside ? `/${literalGlob(rel.split(path.sep).join('/'))}` : `/${literalGlob(absPath)}`);
}

/** Drops anything that would allow every call of a tool that takes content rules. */
export function safeSuggestions(rules: readonly string[], blanketForbidden: readonly string[]): string[] {
  const out: string[] = [];
  for (const rule of rules) {
    const blanket = blanketForbidden.some((tool) => rule === tool || rule === `${tool}(*)` || rule === `${tool}( *)`);
    if (!blanket && !out.includes(rule)) out.push(rule);
  }
  return out;
}
