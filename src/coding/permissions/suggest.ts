// "Always allow" suggestions: the narrowest rules that would allow a call like this one.
// Never a blanket `Bash` or `Bash(*)`. For a shell command, `prog sub *` when the second word is a
// plain subcommand (`Bash(git push *)`) of a program whose other arguments cannot run code, write
// any file or read secrets; otherwise the exact command.
import path from 'node:path';
import { formatRule } from './rules.js';
import { analyzeBash, isBashAnalyzerLoaded, isKnownProgram, matchBashRule } from '../bash/index.js';

/** Programs whose options or arguments, wherever they stand, run code or write any file. */
const EXACT_ONLY = new Set([
  // Shells and interpreters: the arguments are code.
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'python',
  'python2',
  'python3',
  'node',
  'deno',
  'bun',
  'ruby',
  'perl',
  'php',
  'lua',
  'Rscript',
  'osascript',
  // sed scripts run commands (`e`, `s/…/…/e`) and write any file (`w`, -i).
  'sed',
  // Run their arguments as a command: wrappers, privilege, traps, job runners, debuggers.
  'eval',
  'exec',
  'source',
  '.',
  'command',
  'builtin',
  'env',
  'xargs',
  'nohup',
  'timeout',
  'nice',
  'ionice',
  'stdbuf',
  'setsid',
  'time',
  'watch',
  'script',
  'trap',
  'parallel',
  'flock',
  'chroot',
  'unshare',
  'nsenter',
  'strace',
  'ltrace',
  'gdb',
  'sudo',
  'su',
  'doas',
  'pkexec',
  'runuser',
  'ssh',
  // An option runs a program: find -exec, fd -x, rg --pre, sort --compress-program, tar --to-command
  // / -I / --checkpoint-action=exec, zip -TT, man -P / -H, rsync -e, scp -S.
  'find',
  'fd',
  'fdfind',
  'rg',
  'sort',
  'tar',
  'zip',
  'man',
  'rsync',
  'scp',
  // Interactive: shell escapes (`!cmd`), and saving to any file.
  'less',
  'more',
  'most',
  'vi',
  'vim',
  'nvim',
  'view',
  'ex',
  'ed',
  'emacs',
  'nano',
  // The Makefile, `VAR=value` (SHELL=…), -f and --eval decide what runs.
  'make',
  // Write, move or delete any file they are given (unzip: any path in the archive, or -d), or stop processes.
  'rm',
  'rmdir',
  'dd',
  'mkfs',
  'shred',
  'chmod',
  'chown',
  'chgrp',
  'truncate',
  'cp',
  'mv',
  'ln',
  'install',
  'tee',
  'unzip',
  'kill',
  'pkill',
  'killall',
]);

/**
 * Subcommands whose arguments run commands (`git submodule foreach`, `git bisect run`, `git rebase
 * --exec`, `docker run`) or set what later commands run (`git config core.pager …`).
 */
const EXACT_SUBCOMMANDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['git', ['config', 'submodule', 'bisect', 'rebase', 'filter-branch', 'difftool', 'mergetool']],
  ['npm', ['exec', 'x', 'explore']],
  ['docker', ['run', 'exec', 'create']],
  ['podman', ['run', 'exec', 'create']],
  ['kubectl', ['exec', 'run', 'debug']],
]);

/** Programs the analyser knows only some subcommands of as read-only. */
const HAS_SUBCOMMANDS = new Set(['git', 'npm']);

/**
 * A program the analyser knows as read-only asks only because of its arguments (a path outside
 * the workspace, a secret, an option that writes or runs code: `git log --output=…`, `grep x
 * /etc/shadow`), so a rule for any arguments would allow just that. For git and npm the
 * subcommand decides: one the analyser allows on its own asked because of the rest.
 */
function askedForItsArguments(program: string, prefix: string): boolean {
  if (!isKnownProgram(program)) return false;
  if (!HAS_SUBCOMMANDS.has(program)) return true;
  // Whether the table knows the subcommand as read-only, as it applies inside containment.
  return !isBashAnalyzerLoaded() || analyzeBash(prefix, { contained: true }).readOnly;
}

const PLAIN_WORD = /^[A-Za-z0-9_./][A-Za-z0-9_.:@/+-]*$/;
const SUBCOMMAND = /^[a-z][a-z0-9:_-]*$/;

/**
 * A rule for one simple command: `Bash(git push *)`, or the exact command (`exactOnly` for one
 * that reads a secret: no rule should allow more secrets than the one the person saw).
 */
export function bashRuleFor(command: string, toolName = 'Bash', exactOnly = false): string | undefined {
  const text = command.trim();
  if (text === '' || text === '*') return undefined;
  const exact = formatRule(toolName, text);
  const [first, sub, ...rest] = text.split(/\s+/);
  // `prog *` (no subcommand) would allow every option of the program, some of which run code.
  if (exactOnly || rest.length === 0 || !PLAIN_WORD.test(first) || !SUBCOMMAND.test(sub)) return exact;
  const program = path.basename(first);
  const prefix = `${first} ${sub}`;
  if (EXACT_ONLY.has(program) || EXACT_SUBCOMMANDS.get(program)?.includes(sub) || askedForItsArguments(program, prefix)) return exact;
  // A rule that would not match the very command it was offered for (a redirection or an
  // operator after the prefix: `*` never spans those) would make "always" ask again.
  const pattern = `${prefix} *`;
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
