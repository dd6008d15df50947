// Commands bash runs in the shell process itself (bash 5.2 `compgen -b` and `compgen -k`). Only
// these can change what later commands on the same line see: the folder, variables, functions,
// options, traps. Anything else runs as a child process and cannot.
import type { Word } from './types.js';

const IN_SHELL = new Set([
  '.', ':', '[', 'alias', 'bg', 'bind', 'break', 'builtin', 'caller', 'cd', 'command', 'compgen', 'complete', 'compopt',
  'continue', 'declare', 'dirs', 'disown', 'echo', 'enable', 'eval', 'exec', 'exit', 'export', 'false', 'fc', 'fg',
  'getopts', 'hash', 'help', 'history', 'jobs', 'kill', 'let', 'local', 'logout', 'mapfile', 'popd', 'printf', 'pushd',
  'pwd', 'read', 'readarray', 'readonly', 'return', 'set', 'shift', 'shopt', 'source', 'suspend', 'test', 'times',
  'trap', 'true', 'type', 'typeset', 'ulimit', 'umask', 'unalias', 'unset', 'wait',
  'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in',
  'function', 'time', '{', '}', '!', '[[', ']]', 'coproc',
]);

/**
 * Whether a command whose first word is `name` may run in the shell itself. A name with a slash is
 * always run as a file; a missing name, one built from quotes or expansions, or a glob (`c?` may
 * expand to `cd`) counts as in-shell.
 */
export function runsInShell(name: Word | undefined): boolean {
  if (!name?.plain || name.glob) return true;
  return name.value.includes('/') ? false : IN_SHELL.has(name.value);
}
