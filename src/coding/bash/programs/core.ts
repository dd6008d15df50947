// The audited core: the only programs that run without asking where no containment exists, so
// the analyser alone must prove them harmless. Each is a shell builtin (bash parses its options)
// or a GNU coreutils, grep or procps binary whose modelled options are checked against the real
// binary's --help (test/coding/bash/core-audit.test.ts). Left out on purpose: programs that run
// embedded programs (awk, sed scripts, jq, find -exec, xargs, sh -c), read config from outside the
// workspace (git's ~/.gitconfig aliases, pagers and drivers; npm's ~/.npmrc), or parse options
// their own way (ripgrep, fd, tree). Inside containment the whole table applies.
import type { ParsedOption } from '../getopt.js';

/** Builtins: bash reads their arguments, no binary is involved. */
const BUILTINS = ['cd', 'echo', 'true', 'false', ':', 'printf', 'test', 'pwd', 'type', 'umask', 'command'];

/** Binaries whose option models the audit checks against `--help` on this machine. */
export const AUDITED_BINARIES: readonly string[] = [
  ...['cat', 'tac', 'head', 'tail', 'wc', 'nl', 'cut', 'tr', 'sort', 'uniq', 'comm'],
  ...['ls', 'stat', 'du', 'df', 'realpath', 'basename', 'dirname'],
  ...['md5sum', 'sha1sum', 'sha256sum', 'sha512sum'],
  ...['whoami', 'id', 'groups', 'uname', 'arch', 'nproc', 'date', 'seq', 'sleep', 'expr', 'printenv', 'tty'],
  ...['grep', 'free', 'uptime'],
];

/**
 * Options refused without containment although the model accepts them: recursion that follows
 * symbolic links met on the way (a link out of the workspace is then read through), and reading
 * the files a list file names (the list is checked, the names in it are not).
 */
const FOLLOWS_LINKS = 'follows symbolic links while it recurses, so it may read outside the workspace';
const LIST_FILE = 'reads the files a list file names, which may be secrets or outside the workspace';
const CHECK_LIST = { '-c': LIST_FILE, '--check': LIST_FILE };
const UNCONTAINED_OPTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  grep: { '-R': FOLLOWS_LINKS, '--dereference-recursive': FOLLOWS_LINKS },
  ls: { '-L': FOLLOWS_LINKS, '--dereference': FOLLOWS_LINKS },
  du: { '-L': FOLLOWS_LINKS, '--dereference': FOLLOWS_LINKS, '--files0-from': LIST_FILE },
  md5sum: CHECK_LIST,
  sha1sum: CHECK_LIST,
  sha256sum: CHECK_LIST,
  sha512sum: CHECK_LIST,
};

export const AUDITED_CORE: ReadonlySet<string> = new Set([...BUILTINS, ...AUDITED_BINARIES]);

/** Why an option of a core program is refused without containment, or undefined. */
export function uncontainedOptionProblem(name: string, key: string): string | undefined {
  return Object.hasOwn(UNCONTAINED_OPTIONS, name) && Object.hasOwn(UNCONTAINED_OPTIONS[name], key)
    ? UNCONTAINED_OPTIONS[name][key]
    : undefined;
}

/**
 * Whether a core program reads every file below its folder operands: `grep -r` (and `-d recurse`).
 * Without containment such a call asks while a file below may hold secrets (paths.ts).
 */
export function readsEveryFileBelow(name: string, options: readonly ParsedOption[]): boolean {
  return (
    name === 'grep' &&
    options.some(
      (o) =>
        ['-r', '-R', '--recursive', '--dereference-recursive'].includes(o.key) ||
        (['-d', '--directories'].includes(o.key) && o.value?.value === 'recurse'),
    )
  );
}
