// git: global options, then an allow-list of read-only subcommands with their options.
//
// Repository config can name programs git runs on reads: core.fsmonitor (any command that reads
// the index), diff.external and textconv drivers (diff, log -p, show, blame), filter drivers
// (status and diff refresh the index), gpg.program with log.showSignature (log, show, reflog,
// stash list), hooks (post-index-change). The workspace's own repository config is trusted: a
// clone never copies config or hooks from the remote, so it holds only what the user set.
// A repository git is pointed at elsewhere is not: --git-dir and -c overrides are refused, and
// `git -C dir` into another folder may reach a nested repository (vendored code, an extracted
// archive, a test fixture) with its own .git/config, so there only CONFIG_INERT subcommands run,
// unless the folder is seen to exist with no `.git` in it or between it and its root: git then
// finds the root's own repository, as it would without -C.
// Lazy fetches of a partial clone (objects missing locally) reach the network in any repository.
// Unknown subcommands (aliases) are not read-only.
import path from 'node:path';
import { checkPath, scopeAt, secretProblem } from '../paths.js';
import { hasOption, runProgram, type Invocation, type ProgramContext, type ProgramSpec } from '../program.js';
import type { PathScope, Word } from '../types.js';
import { CONTENT_SUBCOMMANDS } from './git-contents.js';
import { METADATA_SUBCOMMANDS } from './git-metadata.js';

const SUBCOMMANDS: Record<string, ProgramSpec> = { ...CONTENT_SUBCOMMANDS, ...METADATA_SUBCOMMANDS };

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
const CONTENTS = new Set(Object.keys(CONTENT_SUBCOMMANDS));

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
    // `git config --blob=REV:path` prints a file from history, parsed as config (an ini-style
    // credentials file reads well): a content read like `git show REV:path`.
    const blob = sub === 'config' ? inv.options.find((o) => o.key === '--blob')?.value : undefined;
    if (blob !== undefined) {
      const problem = secretProblem(blob.value) ?? secretProblem(blob.value.slice(blob.value.indexOf(':') + 1));
      if (problem) return `\`git config --blob\`: ${problem}`;
      const denied = ctx.scope.readDenied && deniedContent(sub, [blob], ctx.scope);
      if (denied) return `\`git config --blob\`: ${denied}`;
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
  // Own keys only: `git constructor` is no table entry (it runs an alias of that name, if any).
  const spec = Object.hasOwn(SUBCOMMANDS, sub.value) ? SUBCOMMANDS[sub.value] : undefined;
  if (!sub.plain || !spec) return `\`git ${sub.text}\` is not a read-only git command`;
  const moved = scope.cwd !== ctx.scope.cwd && !ctx.scope.roots.includes(scope.cwd) && !sameRepository(scope);
  // rev-parse with options only (--show-toplevel, --git-dir) names no object to read.
  const inert = CONFIG_INERT.has(sub.value) || (sub.value === 'rev-parse' && args.slice(i + 1).every((w) => w.value.startsWith('--')));
  if (moved && !inert) {
    return `\`git ${sub.value}\` in another folder may use a nested repository whose config runs programs`;
  }
  ctx.gitRunsIn(scope);
  const withPaths: ProgramSpec = { ...spec, paths: gitPaths, check: commonCheck(sub.value, spec) };
  return runProgram(`git ${sub.value}`, withPaths, args.slice(i + 1), { ...ctx, scope });
}

/**
 * Whether git run in each of the scope's folders finds the repository of the root holding it:
 * every folder from there up to the root (not included) exists as a folder, not a link, and has
 * no `.git` of its own. A folder the view cannot show (missing, unreadable) may hold anything.
 */
function sameRepository(scope: PathScope): boolean {
  return [scope.cwd, ...(scope.otherCwds ?? [])].every((cwd) => {
    const root = scope.roots.filter((r) => cwd.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) return false;
    for (let dir = cwd; dir !== root; dir = path.posix.dirname(dir)) {
      if (scope.view.kind(dir) !== 'dir' || scope.view.kind(path.posix.join(dir, '.git')) !== undefined) return false;
    }
    return true;
  });
}

export const GIT: Record<string, ProgramSpec> = {
  git: { noOptions: true, operands: 'data', check: checkGit },
};
