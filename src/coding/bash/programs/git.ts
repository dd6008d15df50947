// git: global options, then an allow-list of read-only subcommands with their options.
//
// Repository config can name programs git runs on reads: core.fsmonitor (any command that reads
// the index), diff.external and textconv drivers (diff, log -p, show, blame), filter drivers
// (status and diff refresh the index), gpg.program with log.showSignature (log, show, reflog,
// stash list), hooks (post-index-change). The workspace's own repository config is trusted: a
// clone never copies config or hooks from the remote, so it holds only what the user set.
// A repository git is pointed at elsewhere is not: --git-dir and -c overrides are refused, and
// `git -C dir` into another folder may reach a nested repository (vendored code, an extracted
// archive, a test fixture) with its own .git/config, so there only CONFIG_INERT subcommands run.
// Lazy fetches of a partial clone (objects missing locally) reach the network in any repository.
// Unknown subcommands (aliases) are not read-only.
import path from 'node:path';
import { checkPath, scopeAt, secretProblem } from '../paths.js';
import { hasOption, runProgram, type Invocation, type ProgramContext, type ProgramSpec } from '../program.js';
import type { PathScope, Word } from '../types.js';

const DIFF_LONG = [
  'patch',
  'no-patch',
  'unified=',
  'output=',
  'output-indicator-new=',
  'output-indicator-old=',
  'output-indicator-context=',
  'raw',
  'patch-with-raw',
  'indent-heuristic',
  'no-indent-heuristic',
  'minimal',
  'patience',
  'histogram',
  'anchored=',
  'diff-algorithm=',
  'stat=?',
  'compact-summary',
  'numstat',
  'shortstat',
  'dirstat=?',
  'cumulative',
  'dirstat-by-file=?',
  'summary',
  'patch-with-stat',
  'name-only',
  'name-status',
  'submodule=?',
  'color=?',
  'no-color',
  'color-moved=?',
  'no-color-moved',
  'color-moved-ws=',
  'no-color-moved-ws',
  'word-diff=?',
  'word-diff-regex=',
  'color-words=?',
  'no-renames',
  'rename-empty',
  'no-rename-empty',
  'check',
  'ws-error-highlight=',
  'full-index',
  'binary',
  'abbrev=?',
  'break-rewrites=?',
  'find-renames=?',
  'find-copies=?',
  'find-copies-harder',
  'irreversible-delete',
  'diff-filter=',
  'find-object=',
  'pickaxe-all',
  'pickaxe-regex',
  'skip-to=',
  'rotate-to=',
  'relative=?',
  'no-relative',
  'text',
  'ignore-cr-at-eol',
  'ignore-space-at-eol',
  'ignore-space-change',
  'ignore-all-space',
  'ignore-blank-lines',
  'ignore-matching-lines=',
  'inter-hunk-context=',
  'function-context',
  'exit-code',
  'quiet',
  'ext-diff',
  'no-ext-diff',
  'textconv',
  'no-textconv',
  'ignore-submodules=?',
  'src-prefix=',
  'dst-prefix=',
  'no-prefix',
  'default-prefix',
  'line-prefix=',
  'ita-invisible-in-index',
  'ita-visible-in-index',
  'cached',
  'staged',
  'merge-base',
  'no-index',
  'stat-width=',
  'stat-name-width=',
  'stat-count=',
  'stat-graph-width=',
];
const DIFF_SHORT = 'pusU:zB::M::C::Dl:S:G:O:RabwWX::';
const DIFF_UNSAFE = {
  '--output': 'writes to a file',
  '--ext-diff': 'runs an external diff program',
  '--textconv': 'runs configured text conversion programs',
  '--no-index': 'compares files outside the repository',
};

const LOG_LONG = [
  ...DIFF_LONG,
  'oneline',
  'pretty=?',
  'format=',
  'abbrev-commit',
  'no-abbrev-commit',
  'encoding=',
  'expand-tabs=?',
  'no-expand-tabs',
  'notes=?',
  'no-notes',
  'show-notes=?',
  'show-signature',
  'relative-date',
  'date=',
  'parents',
  'children',
  'left-right',
  'graph',
  'no-graph',
  'max-count=',
  'skip=',
  'since=',
  'after=',
  'until=',
  'before=',
  'author=',
  'committer=',
  'grep-reflog=',
  'grep=',
  'all-match',
  'invert-grep',
  'regexp-ignore-case',
  'basic-regexp',
  'extended-regexp',
  'fixed-strings',
  'perl-regexp',
  'remove-empty',
  'merges',
  'no-merges',
  'min-parents=',
  'max-parents=',
  'no-min-parents',
  'no-max-parents',
  'first-parent',
  'not',
  'all',
  'branches=?',
  'tags=?',
  'remotes=?',
  'glob=',
  'exclude=',
  'reflog',
  'cherry-mark',
  'cherry-pick',
  'left-only',
  'right-only',
  'cherry',
  'walk-reflogs',
  'merge',
  'boundary',
  'simplify-by-decoration',
  'full-history',
  'dense',
  'sparse',
  'simplify-merges',
  'ancestry-path=?',
  'topo-order',
  'date-order',
  'author-date-order',
  'reverse',
  'no-walk=?',
  'do-walk',
  'decorate=?',
  'no-decorate',
  'decorate-refs=',
  'decorate-refs-exclude=',
  'source',
  'use-mailmap',
  'no-use-mailmap',
  'full-diff',
  'log-size',
  'follow',
  'count',
  'diff-merges=',
  'no-diff-merges',
  'combined-all-paths',
  'dd',
  'cc',
  'standard-notes',
  'no-standard-notes',
];
const LOG: ProgramSpec = {
  numeric: true,
  short: `${DIFF_SHORT}n:iEFPgcmt`,
  long: LOG_LONG,
  unsafe: { ...DIFF_UNSAFE, '--show-signature': 'runs gpg to verify signatures' },
  // `-O<orderfile>` reads a file of path patterns.
  pathOptions: ['-O'],
};
const DIFF: ProgramSpec = { short: DIFF_SHORT, long: DIFF_LONG, unsafe: DIFF_UNSAFE, pathOptions: ['-O'] };

const listOnly =
  (why: string) =>
  (inv: Invocation): string | undefined =>
    inv.operands.length === 0 || hasOption(inv, '-l', '--list') ? undefined : why;

/** `section.key` or `section.sub.key`: `git config NAME` with nothing else only prints it. */
const CONFIG_KEY = /^[A-Za-z][\w-]*(?:\.[^\s=]+)?\.[A-Za-z][\w-]*$/;
/** Keys whose values are credentials (`http.extraHeader: Authorization: …`, `*.password`, `github.token`). */
const SECRET_CONFIG_KEY = /token|pass|secret|extraheader|auth|cookie|credential|key$/i;

function checkConfig(inv: Invocation): string | undefined {
  const [first, ...rest] = inv.operands.map((w) => w.value);
  const reads = hasOption(inv, '--get', '--get-all', '--get-regexp', '--get-urlmatch', '-l') || first === 'get' || first === 'list';
  // A bare key reads the merged config; with a scope or file option it would read that file alone (outside, for --global).
  const bare = inv.options.length === 0 && rest.length === 0 && CONFIG_KEY.test(first ?? '');
  const key = first === 'get' ? rest[0] : reads || bare ? first : undefined;
  if (!reads && key === undefined) return 'without --get or --list, or with more than a key name, changes configuration';
  return key !== undefined && SECRET_CONFIG_KEY.test(key) ? `\`${key}\` may hold a credential` : undefined;
}

const SUBCOMMANDS: Record<string, ProgramSpec> = {
  log: LOG,
  show: LOG,
  whatchanged: LOG,
  'rev-list': { ...LOG, long: [...LOG_LONG, 'objects', 'objects-edge', 'header', 'timestamp', 'max-age=', 'min-age='] },
  // shortlog's `-n` is --numbered, a flag (log's `-n` takes a count).
  shortlog: { ...LOG, short: `${DIFF_SHORT}niEFPgcmtse`, long: [...LOG_LONG, 'numbered', 'summary', 'email', 'committer', 'group='] },
  diff: DIFF,
  'diff-tree': { ...LOG, long: [...LOG_LONG, 'stdin', 'no-commit-id', 'root', 'always'] },
  'diff-index': DIFF,
  'diff-files': { ...DIFF, short: `${DIFF_SHORT}q0123c` },
  status: {
    short: 'sbvzu::',
    long: [
      'short',
      'branch',
      'show-stash',
      'porcelain=?',
      'long',
      'verbose',
      'untracked-files=?',
      'ignore-submodules=?',
      'ignored=?',
      'column=?',
      'no-column',
      'ahead-behind',
      'no-ahead-behind',
      'renames',
      'no-renames',
      'find-renames=?',
    ],
  },
  branch: {
    short: 'avrlqdDmMcCfut:',
    long: [
      'all',
      'remotes',
      'list',
      'verbose',
      'show-current',
      'contains=+',
      'no-contains=+',
      'merged=+',
      'no-merged=+',
      'sort=',
      'format=',
      'points-at=',
      'color=?',
      'no-color',
      'column=?',
      'no-column',
      'abbrev=?',
      'no-abbrev',
      'ignore-case',
      'omit-empty',
      'quiet',
      'delete',
      'force',
      'move',
      'copy',
      'set-upstream-to=',
      'unset-upstream',
      'edit-description',
      'track=?',
      'no-track',
      'create-reflog',
      'recurse-submodules',
    ],
    alias: {
      '--list': '-l',
      '--delete': '-d',
      '--force': '-f',
      '--move': '-m',
      '--copy': '-c',
      '--set-upstream-to': '-u',
      '--track': '-t',
    },
    unsafe: Object.fromEntries(
      [
        '-d',
        '-D',
        '-m',
        '-M',
        '-c',
        '-C',
        '-f',
        '-u',
        '-t',
        '--unset-upstream',
        '--edit-description',
        '--create-reflog',
        '--no-track',
        '--recurse-submodules',
      ].map((k) => [k, 'changes branches']),
    ),
    check: listOnly('a branch name without --list creates a branch'),
  },
  tag: {
    short: 'ln::',
    long: [
      'list',
      'sort=',
      'contains=+',
      'no-contains=+',
      'merged=+',
      'no-merged=+',
      'points-at=+',
      'format=',
      'column=?',
      'no-column',
      'color=?',
      'ignore-case',
      'omit-empty',
    ],
    alias: { '--list': '-l' },
    check: listOnly('a tag name without --list creates a tag'),
  },
  'rev-parse': {
    short: 'q',
    long: [
      'abbrev-ref=?',
      'short=?',
      'verify',
      'quiet',
      'show-toplevel',
      'show-prefix',
      'show-cdup',
      'git-dir',
      'git-common-dir',
      'absolute-git-dir',
      'is-inside-work-tree',
      'is-inside-git-dir',
      'is-bare-repository',
      'is-shallow-repository',
      'symbolic',
      'symbolic-full-name',
      'all',
      'branches=?',
      'tags=?',
      'remotes=?',
      'show-object-format=?',
      'show-superproject-working-tree',
      'since=',
      'until=',
      'default=',
      'sq',
      'not',
      'revs-only',
      'no-revs',
      'flags',
      'no-flags',
      'path-format=',
      'git-path=',
    ],
  },
  'ls-files': {
    short: 'cdmoiksuvtfzx:X:',
    long: [
      'cached',
      'deleted',
      'modified',
      'others',
      'ignored',
      'stage',
      'killed',
      'directory',
      'no-empty-directory',
      'unmerged',
      'resolve-undo',
      'eol',
      'exclude=',
      'exclude-from=',
      'exclude-per-directory=',
      'exclude-standard',
      'error-unmatch',
      'with-tree=',
      'full-name',
      'recurse-submodules',
      'abbrev=?',
      'format=',
      'deduplicate',
      'sparse',
    ],
    alias: { '--exclude-from': '-X' },
    pathOptions: ['-X'],
  },
  'ls-tree': { short: 'dlrtz', long: ['long', 'name-only', 'name-status', 'object-only', 'full-name', 'full-tree', 'abbrev=?', 'format='] },
  'cat-file': {
    short: 'tspe',
    long: [
      'batch=?',
      'batch-check=?',
      'batch-all-objects',
      'buffer',
      'unordered',
      'textconv',
      'filters',
      'follow-symlinks',
      'allow-unknown-type',
      'use-mailmap',
      'no-use-mailmap',
    ],
    unsafe: { '--textconv': 'runs configured text conversion programs', '--filters': 'runs configured filter programs' },
  },
  blame: {
    short: 'bcfhlnpstwewL:M::C::',
    long: [
      'root',
      'show-stats',
      'score-debug',
      'show-name',
      'show-number',
      'porcelain',
      'line-porcelain',
      'incremental',
      'encoding=',
      'date=',
      'progress',
      'no-progress',
      'minimal',
      'ignore-rev=',
      'color-lines',
      'color-by-age',
      'abbrev=?',
      'reverse=?',
      'first-parent',
      'show-email',
    ],
  },
  describe: {
    long: [
      'all',
      'tags',
      'contains',
      'abbrev=',
      'candidates=',
      'exact-match',
      'debug',
      'long',
      'match=',
      'exclude=',
      'always',
      'first-parent',
      'dirty=?',
      'broken=?',
    ],
  },
  'merge-base': { short: 'a', long: ['all', 'octopus', 'independent', 'is-ancestor', 'fork-point'] },
  'name-rev': { long: ['name-only', 'tags', 'refs=', 'exclude=', 'all', 'always', 'undefined'] },
  'for-each-ref': {
    long: [
      'count=',
      'shell',
      'perl',
      'python',
      'tcl',
      'sort=',
      'format=',
      'color=?',
      'points-at=',
      'merged=+',
      'no-merged=+',
      'contains=+',
      'no-contains=+',
      'ignore-case',
      'omit-empty',
      'exclude=',
    ],
  },
  'show-ref': {
    short: 'dqs',
    long: ['head', 'dereference', 'hash=?', 'abbrev=?', 'tags', 'heads', 'branches', 'verify', 'exists', 'quiet'],
  },
  'count-objects': { short: 'vH', long: ['verbose', 'human-readable'] },
  'check-ignore': { short: 'qvnz', long: ['quiet', 'verbose', 'non-matching', 'no-index'] },
  'check-attr': { short: 'az', long: ['all', 'cached', 'source='] },
  grep: {
    numeric: true,
    short: 'aiIwvhHEGFPnlLcoqzrO::e:f:A:B:C:m:',
    long: [
      'cached',
      'no-index',
      'untracked',
      'no-exclude-standard',
      'exclude-standard',
      'recurse-submodules',
      'text',
      'textconv',
      'no-textconv',
      'ignore-case',
      'max-depth=',
      'recursive',
      'no-recursive',
      'word-regexp',
      'invert-match',
      'full-name',
      'extended-regexp',
      'basic-regexp',
      'perl-regexp',
      'fixed-strings',
      'line-number',
      'column',
      'files-with-matches',
      'name-only',
      'files-without-match',
      'open-files-in-pager=?',
      'null',
      'only-matching',
      'count',
      'color=?',
      'no-color',
      'break',
      'heading',
      'show-function',
      'function-context',
      'threads=',
      'and',
      'or',
      'not',
      'all-match',
      'quiet',
      'max-count=',
      'after-context=',
      'before-context=',
      'context=',
    ],
    alias: { '--open-files-in-pager': '-O' },
    unsafe: {
      '-O': 'opens the matching files in a pager or editor program',
      '--textconv': 'runs configured text conversion programs',
      '--no-index': 'searches files outside the repository',
    },
    pathOptions: ['-f'],
  },
  config: {
    short: 'lzf:',
    long: [
      'get',
      'get-all',
      'get-regexp',
      'get-urlmatch',
      'list',
      'show-origin',
      'show-scope',
      'name-only',
      'null',
      'global',
      'system',
      'local',
      'worktree',
      'file=',
      'blob=',
      'type=',
      'bool',
      'int',
      'bool-or-int',
      'path',
      'expiry-date',
      'default=',
      'includes',
      'no-includes',
    ],
    alias: { '--list': '-l', '--file': '-f' },
    pathOptions: ['-f'],
    check: checkConfig,
  },
  remote: {
    short: 'v',
    long: ['verbose'],
    check: (inv) =>
      inv.operands.length === 0 || inv.operands[0].value === 'get-url' ? undefined : 'changes remotes or contacts them over the network',
  },
  reflog: {
    ...LOG,
    check: (inv) => (['expire', 'delete', 'drop', 'write'].includes(inv.operands[0]?.value ?? '') ? 'rewrites the reflog' : undefined),
  },
  stash: {
    ...LOG,
    short: `${LOG.short}u`,
    long: [...LOG_LONG, 'include-untracked', 'only-untracked'],
    // Options or `--` before the subcommand make git assume `stash push`.
    check: (inv) => (['list', 'show'].includes(inv.args[0]?.value ?? '') ? undefined : 'changes stashes and the working tree'),
  },
  worktree: {
    check: (inv) => (inv.args[0]?.value === 'list' ? undefined : 'changes worktrees'),
    long: ['porcelain', 'verbose', 'expire='],
    short: 'vz',
  },
  version: { long: ['build-options'] },
  cherry: { short: 'v', long: ['abbrev=?'] },
  // `git submodule` alone is `status`; it runs git in each submodule, whose config the config check also reads.
  submodule: {
    short: 'q',
    long: ['quiet', 'cached', 'recursive'],
    check: (inv) => (['status', undefined].includes(inv.operands[0]?.value) ? undefined : 'changes or updates submodules'),
  },
};

/** Operands that leave the repository (absolute, ~, `..` climbing) are checked as paths; revisions are not paths. */
function gitPaths(inv: Invocation): Word[] {
  return inv.operands.filter((w) => w.dynamic || /^[/~]/.test(w.value) || w.value.split('/').includes('..'));
}

/**
 * Subcommands that read config, refs and the repository layout but not the index (fsmonitor,
 * filters) nor objects: a partial clone fetches a missing object through the remote its config
 * names, and that config may allow `ext::` transports or set core.sshCommand. (`rev-parse REV^{tree}`
 * and `show-ref --dereference` read objects, so they are not among them.)
 */
const CONFIG_INERT = new Set(['count-objects', 'config', 'remote', 'version', 'worktree']);

/** Subcommands that print file contents (blobs, patches, matching lines); the others print names, refs and metadata. */
const CONTENTS = new Set([
  'log',
  'show',
  'whatchanged',
  'diff',
  'diff-tree',
  'diff-index',
  'diff-files',
  'grep',
  'cat-file',
  'blame',
  'reflog',
  'stash',
]);

/**
 * With Read deny rules, what a content subcommand prints must be shown to be outside them. git
 * reads tracked files and history by itself (`git log -p`, `git diff`, `git grep x` print every
 * file), so it must be narrowed: to existing files given as paths (none denied), or to
 * `REV:path` blobs whose path no rule denies (relative to the workspace roots or, with `./`, to
 * the folder). A folder, a glob pathspec or a bare object id may reach a denied file.
 */
function deniedContent(sub: string, operands: readonly Word[], scope: PathScope): string | undefined {
  const denied = scope.readDenied;
  if (!denied) return undefined;
  let narrowed = false;
  for (const w of operands) {
    const v = w.value;
    const colon = v.indexOf(':');
    if (colon > 0) {
      const inTree = v.slice(colon + 1);
      const bases = /^\.\.?\//.test(inTree) ? [scope.cwd] : scope.roots;
      if (bases.some((base) => denied(path.posix.resolve(base, inTree)))) return `\`${w.text}\` is covered by a Read deny rule`;
      narrowed = true;
      continue;
    }
    if (/^:|[*?[]/.test(v)) return `pathspec \`${w.text}\` may match files that Read deny rules cover`;
    const abs = path.posix.resolve(scope.cwd, v);
    const kind = scope.view.kind(abs);
    if (kind === 'dir' || kind === 'link') return `\`${w.text}\` may hold files that Read deny rules cover`;
    if (kind === 'file') {
      if (denied(abs)) return `\`${w.text}\` is covered by a Read deny rule`;
      narrowed = true;
    } else if (/^[0-9a-f]{4,64}$/i.test(v) || sub === 'cat-file') {
      return `object \`${w.text}\` may be the content of a file that Read deny rules cover`;
    }
  }
  return narrowed ? undefined : 'with Read deny rules, give the files to show (`-- FILE`): git would print every file it tracks';
}

/** `%G…` (pretty formats) and `%(signature…)` (ref formats) make git run gpg.program to verify signatures. */
const SIGNATURE_FORMAT = /(?:^|[^%])(?:%%)*%(?:G|\(signature)/;

/** Checks every subcommand needs: signature formats, and tree paths (`HEAD:.env`, `-- .env`) that are secrets. */
function commonCheck(sub: string, spec: ProgramSpec): NonNullable<ProgramSpec['check']> {
  return (inv: Invocation, ctx: ProgramContext): string | undefined => {
    for (const o of inv.options) {
      if ((o.key === '--format' || o.key === '--pretty') && o.value && SIGNATURE_FORMAT.test(o.value.value)) {
        return `\`git ${sub} ${o.word.text}\` verifies signatures, which runs gpg`;
      }
    }
    if (CONTENTS.has(sub)) {
      // git grep's first operand is the pattern unless -e/-f gave one.
      const pattern = sub === 'grep' && !hasOption(inv, '-e', '-f') ? 1 : 0;
      for (const w of inv.operands.slice(pattern)) {
        const problem = secretProblem(w.value) ?? secretProblem(w.value.slice(w.value.indexOf(':') + 1));
        if (problem) return `\`git ${sub} ${w.text}\`: ${problem}`;
      }
      const denied = ctx.scope.readDenied && deniedContent(sub, inv.operands.slice(pattern), ctx.scope);
      if (denied) return `\`git ${sub}\`: ${denied}`;
    }
    return spec.check?.(inv, ctx);
  };
}

const GLOBAL_OK = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--no-lazy-fetch',
  '--no-advice',
  '--version',
]);
const GLOBAL_UNSAFE: Array<[RegExp, string]> = [
  [/^-c|^--config-env/, 'overrides configuration, which can name programs to run'],
  [/^(-p|--paginate)$/, 'runs a pager program'],
  [/^--(git-dir|work-tree|namespace|exec-path|bare|super-prefix|list-cmds|attr-source)/, 'points git at another repository or program'],
  [/^(-h|--help)$/, 'opens a manual page viewer'],
];

export function checkGit(inv: Invocation, ctx: ProgramContext): string | undefined {
  const args = inv.args;
  let scope: PathScope = ctx.scope;
  let i = 0;
  for (; i < args.length && args[i].value.startsWith('-'); i++) {
    const v = args[i].value;
    if (v === '-C') {
      const dir = args[++i];
      if (!dir) return '`git -C` needs a folder';
      const problem = checkPath(dir, scope);
      if (problem) return `\`git -C ${dir.text}\`: ${problem}`;
      scope = scopeAt(scope, dir.value);
      continue;
    }
    if (GLOBAL_OK.has(v)) continue;
    const unsafe = GLOBAL_UNSAFE.find(([re]) => re.test(v));
    return unsafe ? `\`git ${v}\` ${unsafe[1]}` : `\`git ${v}\` is an option the analyser does not know`;
  }
  const sub = args[i];
  if (!sub) return args.some((a) => a.value === '--version') ? undefined : '`git` without a subcommand';
  const spec = SUBCOMMANDS[sub.value];
  if (!sub.plain || !spec) return `\`git ${sub.text}\` is not a read-only git command`;
  const moved = scope.cwd !== ctx.scope.cwd && !ctx.scope.roots.includes(scope.cwd);
  // rev-parse with options only (--show-toplevel, --git-dir) names no object to read.
  const inert = CONFIG_INERT.has(sub.value) || (sub.value === 'rev-parse' && args.slice(i + 1).every((w) => w.value.startsWith('--')));
  if (moved && !inert) {
    return `\`git ${sub.value}\` in another folder may use a nested repository whose config runs programs`;
  }
  ctx.gitRunsIn(scope);
  const withPaths: ProgramSpec = { ...spec, paths: gitPaths, check: commonCheck(sub.value, spec) };
  return runProgram(`git ${sub.value}`, withPaths, args.slice(i + 1), { ...ctx, scope });
}

export const GIT: Record<string, ProgramSpec> = {
  git: { noOptions: true, operands: 'data', check: checkGit },
};
