// Search programs: grep, ripgrep, fd and find. The pattern operand is data, the rest are paths.
import { checkPath } from '../paths.js';
import { hasOption, type ProgramSpec } from '../program.js';
import type { Word } from '../types.js';

const GREP: ProgramSpec = {
  numeric: true,
  short: 'EFGPiywxvcLlobHhnqsTZaIUzrRVe:f:m:A:B:C:d:D:',
  long: [
    'extended-regexp', 'fixed-strings', 'basic-regexp', 'perl-regexp', 'regexp=', 'file=', 'ignore-case',
    'no-ignore-case', 'word-regexp', 'line-regexp', 'null-data', 'no-messages', 'invert-match', 'version',
    'max-count=', 'byte-offset', 'line-number', 'no-line-number', 'line-buffered', 'with-filename', 'no-filename',
    'label=', 'only-matching', 'quiet', 'silent', 'binary-files=', 'text', 'directories=', 'devices=', 'recursive',
    'dereference-recursive', 'include=', 'exclude=', 'exclude-from=', 'exclude-dir=', 'files-without-match',
    'files-with-matches', 'count', 'initial-tab', 'null', 'before-context=', 'after-context=', 'context=',
    'color=?', 'colour=?', 'binary',
  ],
  alias: { '--regexp': '-e', '--file': '-f' },
  pathOptions: ['-f', '--exclude-from'],
  // Without -e/-f the first operand is the pattern.
  paths: (inv) => (hasOption(inv, '-e', '-f') ? inv.operands : inv.operands.slice(1)),
};

const RG: ProgramSpec = {
  short: 'e:f:g:iSswxvFnNlcoA:B:C:t:T:.uLd:m:M:HIpqUPr:0azbE:j:hV',
  long: [
    'regexp=', 'file=', 'glob=', 'iglob=', 'ignore-case', 'smart-case', 'case-sensitive', 'word-regexp',
    'line-regexp', 'invert-match', 'fixed-strings', 'line-number', 'no-line-number', 'files-with-matches',
    'files-without-match', 'count', 'count-matches', 'only-matching', 'after-context=', 'before-context=',
    'context=', 'type=', 'type-not=', 'type-list', 'type-add=', 'type-clear=', 'hidden', 'no-hidden', 'no-ignore',
    'no-ignore-vcs', 'no-ignore-parent', 'no-ignore-dot', 'no-ignore-global', 'no-ignore-exclude',
    'no-ignore-files', 'unrestricted', 'follow', 'max-depth=', 'max-count=', 'max-filesize=', 'max-columns=',
    'max-columns-preview', 'color=', 'colors=', 'json', 'vimgrep', 'heading', 'no-heading', 'with-filename',
    'no-filename', 'pretty', 'quiet', 'multiline', 'multiline-dotall', 'pcre2', 'engine=', 'replace=', 'sort=',
    'sortr=', 'stats', 'trim', 'null', 'null-data', 'text', 'search-zip', 'pre=', 'pre-glob=', 'hostname-bin=',
    'ignore-file=', 'files', 'passthru', 'byte-offset', 'column', 'line-buffered', 'block-buffered', 'encoding=',
    'no-config', 'no-messages', 'no-require-git', 'one-file-system', 'glob-case-insensitive', 'debug', 'trace',
    'threads=', 'binary', 'path-separator=', 'field-match-separator=', 'field-context-separator=',
    'context-separator=', 'no-context-separator', 'include-zero', 'auto-hybrid-regex', 'crlf', 'mmap', 'no-mmap',
    'hyperlink-format=', 'ignore-file-case-insensitive', 'help', 'version',
  ],
  alias: { '--regexp': '-e', '--file': '-f', '--search-zip': '-z' },
  unsafe: {
    '--pre': 'runs a preprocessor command for every file',
    '--hostname-bin': 'runs a program to find the host name',
    '-z': 'runs external decompression programs',
  },
  pathOptions: ['-f', '--ignore-file'],
  paths: (inv) => (hasOption(inv, '-e', '-f', '--files', '--type-list') ? inv.operands : inv.operands.slice(1)),
};

const FD: ProgramSpec = {
  short: 'HIusigFalLp0d:E:t:e:S:o:x:X:c:j:1qhV',
  long: [
    'hidden', 'no-hidden', 'no-ignore', 'no-ignore-vcs', 'no-ignore-parent', 'no-require-git', 'unrestricted',
    'case-sensitive', 'ignore-case', 'glob', 'regex', 'fixed-strings', 'absolute-path', 'relative-path',
    'list-details', 'follow', 'full-path', 'print0', 'max-depth=', 'min-depth=', 'exact-depth=', 'exclude=',
    'type=', 'extension=', 'size=', 'changed-within=', 'changed-before=', 'newer=', 'older=', 'owner=', 'exec=',
    'exec-batch=', 'batch-size=', 'ignore-file=', 'color=', 'threads=', 'max-results=', 'quiet', 'show-errors',
    'base-directory=', 'path-separator=', 'search-path=', 'strip-cwd-prefix=?', 'format=', 'prune',
    'one-file-system', 'hyperlink=?', 'help', 'version',
  ],
  alias: { '--exec': '-x', '--exec-batch': '-X' },
  unsafe: { '-x': 'runs a command for every result', '-X': 'runs a command on the results' },
  pathOptions: ['--ignore-file', '--base-directory', '--search-path'],
  paths: (inv) => inv.operands.slice(1),
  metadata: true,
};

/** find's expression: primaries and how many arguments each takes. */
const FIND_PRIMARIES: Record<string, 0 | 1 | 'path'> = {
  '-print': 0, '-print0': 0, '-ls': 0, '-quit': 0, '-true': 0, '-false': 0, '-not': 0, '!': 0, '-a': 0,
  '-and': 0, '-o': 0, '-or': 0, '(': 0, ')': 0, ',': 0, '-prune': 0, '-depth': 0, '-d': 0, '-follow': 0,
  '-xdev': 0, '-mount': 0, '-noleaf': 0, '-daystart': 0, '-empty': 0, '-readable': 0, '-writable': 0,
  '-executable': 0, '-nouser': 0, '-nogroup': 0, '-ignore_readdir_race': 0, '-noignore_readdir_race': 0,
  '-name': 1, '-iname': 1, '-path': 1, '-ipath': 1, '-wholename': 1, '-iwholename': 1, '-regex': 1,
  '-iregex': 1, '-lname': 1, '-ilname': 1, '-type': 1, '-xtype': 1, '-size': 1, '-mtime': 1, '-mmin': 1,
  '-atime': 1, '-amin': 1, '-ctime': 1, '-cmin': 1, '-used': 1, '-perm': 1, '-user': 1, '-group': 1,
  '-uid': 1, '-gid': 1, '-links': 1, '-inum': 1, '-maxdepth': 1, '-mindepth': 1, '-fstype': 1,
  '-regextype': 1, '-printf': 1, '-context': 1,
  '-newer': 'path', '-anewer': 'path', '-cnewer': 'path', '-samefile': 'path',
};
const FIND_UNSAFE: Record<string, string> = {
  '-exec': 'runs a command', '-execdir': 'runs a command', '-ok': 'runs a command', '-okdir': 'runs a command',
  '-delete': 'deletes files', '-fprint': 'writes to a file', '-fprint0': 'writes to a file',
  '-fprintf': 'writes to a file', '-fls': 'writes to a file',
  // The list file is checked, but the starting points named in it are not: they may be anywhere.
  '-files0-from': 'walks the folders named in a list file, which may be outside the workspace',
};

/** find prints names and metadata only (no primary reads contents), so secret names are fine. */
function checkFind(args: readonly Word[], scope: Parameters<typeof checkPath>[1]): string | undefined {
  let i = 0;
  // Leading options: -H -L -P, -D debugopts, -Olevel.
  while (i < args.length && /^-([HLP]|D|O\d*)$/.test(args[i].value)) i += args[i].value === '-D' ? 2 : 1;
  for (; i < args.length && !/^[-(!),]/.test(args[i].value); i++) {
    const problem = checkPath(args[i], scope, false);
    if (problem) return problem;
  }
  for (; i < args.length; i++) {
    const v = args[i].value;
    const unsafe = FIND_UNSAFE[v];
    if (unsafe) return `\`find ${v}\` ${unsafe}`;
    // -newerXY: Y = t means a time string, otherwise a reference file.
    const newer = /^-newer[aBcm]([aBcmt])$/.exec(v);
    const kind = newer ? (newer[1] === 't' ? 1 : 'path') : FIND_PRIMARIES[v];
    if (kind === undefined) return `\`find ${v}\` is not a test the analyser knows`;
    if (kind === 0) continue;
    const arg = args[++i];
    if (!arg) return `\`find ${v}\` needs a value`;
    if (kind === 'path') {
      const problem = checkPath(arg, scope, false);
      if (problem) return problem;
    }
  }
  return undefined;
}

export const SEARCH: Record<string, ProgramSpec> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: RG,
  fd: FD,
  fdfind: FD,
  find: { noOptions: true, operands: 'data', check: (inv, ctx) => checkFind(inv.args, ctx.scope) },
};
