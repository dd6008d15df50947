// A checked-out folder can carry its own .git/config, and some keys there make even "read-only"
// git commands run programs (core.fsmonitor runs on `git status`; textconv and external diff
// drivers on `git diff`/`log -p`; filters on any index refresh). The Bash analyser judges the
// command line; this looks at the repository the command would run in.
//
// Git itself is asked which config it reads (`git config --list --show-scope --show-origin`):
// that follows commondir, gitdir files, config.worktree (only when extensions.worktreeConfig is
// on) and include.path / includeIf exactly as git does, where a parser would have to copy each
// rule and would miss silently when it got one wrong. Listing config runs no program (no index
// refresh, so no fsmonitor; no pager on a pipe). Measured here: ~5 ms per check (one spawn),
// against well under 1 ms to read the files, once per Bash command that mentions git.
// Submodules add one `git ls-files` (only when the index may hold a gitlink) and one listing each.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { messageOf } from '../../runtime/util/message.js';

/**
 * Config keys (lower-case `section[.subsection].key`) under which git runs a program, reads
 * another config file, reads files elsewhere or reaches the network from a read. Sources:
 * git-config(1) — core.fsmonitor, diff.external, diff.<driver>.textconv / .command,
 * filter.<driver>.clean / smudge / process, include.path and includeIf.<cond>.path,
 * core.gitProxy, core.sshCommand, core.askPass, credential.helper, gpg.program,
 * uploadpack.packObjectsHook, core.alternateRefsCommand; core.pager and pager.<cmd> (run on a
 * terminal); core.hooksPath (hooks from a tracked folder); partial clones (extensions.partialClone,
 * remote.<name>.promisor / partialCloneFilter: reading a missing object fetches it, running
 * remote.<name>.uploadpack), protocol.<name>.allow (`ext::` transports run commands) and
 * url.<base>.insteadOf (a fetch goes elsewhere).
 */
const RISKY_KEY =
  /^(core\.(fsmonitor|gitproxy|sshcommand|askpass|alternaterefscommand|pager|hookspath)|pager\..+|diff\.external|diff\..+\.(textconv|command)|filter\..+\.(clean|smudge|process)|include\.path|includeif\..+\.path|credential(\..+)?\.helper|gpg(\..+)?\.program|uploadpack\.packobjectshook|extensions\.partialclone|remote\..+\.(promisor|partialclonefilter|uploadpack|receivepack|vcs)|protocol(\..+)?\.allow|url\..+\.(insteadof|pushinsteadof))$/;

export function isRiskyGitKey(key: string): boolean {
  return RISKY_KEY.test(key.toLowerCase());
}

export interface GitConfigEntry {
  scope: string;
  /** The file the entry is in, as git prints it (relative paths are relative to the worktree's top). */
  file: string;
  key: string;
  /** The value as git prints it (empty for a key given without one). */
  value: string;
}

/** Reads `git config --list --show-scope --show-origin -z`: scope, origin and `key\nvalue`, each NUL-ended. */
export function parseGitConfigList(out: string): GitConfigEntry[] {
  const fields = out.split('\0');
  const entries: GitConfigEntry[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const origin = fields[i + 1];
    const [key, ...value] = fields[i + 2].split('\n');
    entries.push({
      scope: fields[i],
      file: origin.startsWith('file:') ? origin.slice('file:'.length) : origin,
      key,
      value: value.join('\n'),
    });
  }
  return entries;
}

// The repository's own files. Other scopes (system, global, command) are the user's, except files
// they include from inside the repository.
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);
const GIT_TIMEOUT_MS = 5_000;
const execFileAsync = promisify(execFile);
/** Repositories checked per command (the one in cwd and the submodules git status would visit). */
const MAX_REPOSITORIES = 32;
// A gitlink's mode (0o160000) as the index stores it; absent from the bytes means no gitlink.
const GITLINK_MODE = Buffer.from([0, 0, 0xe0, 0]);

const MENTIONS_GIT = /(^|[\s/;&|(`])git(\s|$)/;

/**
 * Hooks that commands the analyser allows can run: `post-index-change` when status or diff
 * refresh and write the index, `reference-transaction` on any ref update. Others (pre-commit,
 * post-checkout, …) only run from commands that are not read-only.
 */
const READ_HOOKS = ['post-index-change', 'reference-transaction'];

/**
 * Why running these commands could execute programs from a repository's own config or hooks,
 * or undefined. Only commands that mention git are considered. `dirs` are the folders git runs
 * in (the analyser's `gitDirs`: after a `cd`, with `-C`); cwd is always checked.
 */
export async function gitConfigRisk(
  commands: readonly string[],
  cwd: string,
  dirs: readonly string[] = [],
  roots: readonly string[] = [cwd],
): Promise<string | undefined> {
  if (!commands.some((command) => MENTIONS_GIT.test(command))) return undefined;
  const budget = { left: MAX_REPOSITORIES };
  const folders = [...new Set([cwd, ...dirs].map((d) => existingFolder(path.resolve(cwd, d))))];
  for (const dir of folders) {
    const risk = dir === undefined ? undefined : await repositoryRisk(dir, budget, (roots.length > 0 ? roots : [cwd]).map(realOr));
    if (risk !== undefined) return risk;
  }
  return undefined;
}

/**
 * A work tree or git folder elsewhere: core.worktree pointing outside makes `git diff` print files
 * there, and a `.git` file naming another repository makes `git show HEAD:f` print its history.
 * The usual shapes are fine: a work tree holding this folder (the workspace may be a folder of a
 * larger repository) with its `.git` folder, a linked worktree (its `gitdir` file names this
 * `.git`), or a submodule opened on its own (its config's core.worktree, from which git found the
 * top). `listed` is `git rev-parse --show-toplevel --absolute-git-dir`.
 */
function placeRisk(dir: string, listed: string, roots: readonly string[], config: readonly GitConfigEntry[]): string | undefined {
  const [top, gitDir] = listed.split('\n').map((line) => (line === '' ? undefined : realOr(line)));
  if (top === undefined || gitDir === undefined) return undefined;
  const inside = (p: string): boolean => roots.some((root) => p === root || isInside(p, root));
  const here = realOr(dir);
  if (!inside(top) && !(here === top || isInside(here, top))) {
    return `git here works on the files of ${top}, outside the workspace (core.worktree); approve git commands here yourself`;
  }
  if (inside(gitDir) || gitDir === path.join(top, '.git')) return undefined;
  const backLink = readText(path.join(gitDir, 'gitdir'))?.trim();
  const linked = backLink !== undefined && realOr(path.resolve(gitDir, backLink)) === path.join(top, '.git');
  const submodule = config.some((e) => e.key === 'core.worktree' && REPOSITORY_SCOPES.has(e.scope));
  if (linked || submodule) return undefined;
  return `git here reads the repository ${gitDir}, outside the workspace (a .git file names it), and would print its files; approve git commands here yourself`;
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** An executable hook git would run for a read-only command, asked of git (it applies core.hooksPath). */
async function hookRisk(dir: string): Promise<string | undefined> {
  const listed = await runGit(dir, ['rev-parse', ...READ_HOOKS.flatMap((hook) => ['--git-path', `hooks/${hook}`])]);
  if (typeof listed !== 'string') return undefined;
  for (const hook of listed.split('\n').filter(Boolean)) {
    const file = path.resolve(dir, hook);
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      continue;
    }
    if (fs.statSync(file).isFile()) {
      return `this repository has a hook ${file} that git runs even for read-only commands (status and diff write the index); approve git commands here yourself`;
    }
  }
  return undefined;
}

async function repositoryRisk(dir: string, budget: { left: number }, roots: readonly string[]): Promise<string | undefined> {
  if (budget.left-- <= 0) {
    return `this repository has more than ${MAX_REPOSITORIES} submodules, more than wield checks for git config that runs programs; approve git commands here yourself`;
  }
  const [listed, hook, place] = await Promise.all([
    runGit(dir, ['config', '--list', '--show-scope', '--show-origin', '-z']),
    hookRisk(dir),
    runGit(dir, ['rev-parse', '--show-toplevel', '--absolute-git-dir']),
  ]);
  if (listed === undefined) return undefined;
  if (hook !== undefined) return hook;
  if (typeof listed !== 'string')
    return `wield could not read the git config in ${dir} (${listed.error}); approve git commands here yourself`;
  const top = worktreeTop(dir) ?? dir;
  const config = parseGitConfigList(listed);
  const risky = config.filter((e) => isRiskyGitKey(e.key) && (REPOSITORY_SCOPES.has(e.scope) || isInside(path.resolve(top, e.file), top)));
  if (risky.length > 0) {
    const files = [...new Set(risky.map((e) => path.resolve(top, e.file)))];
    const keys = [...new Set(risky.map((e) => e.key))];
    return `this repository's git config (${files.slice(0, 3).join(', ')}) sets ${keys.slice(0, 3).join(', ')}, which makes git run programs or read other files even for read-only commands; approve git commands here yourself`;
  }
  const elsewhere = typeof place === 'string' ? placeRisk(dir, place, roots, config) : undefined;
  if (elsewhere !== undefined) return elsewhere;
  for (const submodule of await populatedGitlinks(dir, top)) {
    const risk = await repositoryRisk(submodule, budget, roots);
    if (risk !== undefined) return risk;
  }
  return undefined;
}

/** The checkouts of gitlinks in the index (submodules, added repositories): git status runs git in each. */
async function populatedGitlinks(dir: string, top: string): Promise<string[]> {
  if (!mayHaveGitlinks(top)) return [];
  // core.fsmonitor off: reading the index must not start the user's own fsmonitor either.
  const listed = await runGit(dir, ['-c', 'core.fsmonitor=false', 'ls-files', '--stage', '-z', '--', ':/']);
  if (typeof listed !== 'string') return [];
  return listed
    .split('\0')
    .filter((line) => line.startsWith('160000 '))
    .map((line) => path.resolve(dir, line.slice(line.indexOf('\t') + 1)))
    .filter((checkout) => fs.existsSync(path.join(checkout, '.git')));
}

/** False only when the index is where we expect it, whole (no split index), and holds no gitlink. */
function mayHaveGitlinks(top: string): boolean {
  const dotGit = path.join(top, '.git');
  const gitDir = (fs.statSync(dotGit, { throwIfNoEntry: false })?.isFile() ? gitdirOfFile(dotGit, top) : dotGit) ?? dotGit;
  try {
    if (fs.readdirSync(gitDir).some((name) => name.startsWith('sharedindex.'))) return true;
    return fs.readFileSync(path.join(gitDir, 'index')).includes(GITLINK_MODE);
  } catch {
    return true;
  }
}

/** The folder holding `.git`, walking up from dir as git does. */
function worktreeTop(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

function gitdirOfFile(file: string, base: string): string | undefined {
  const target = /^gitdir:\s*(.+?)\s*$/m.exec(readText(file) ?? '')?.[1];
  return target === undefined ? undefined : path.resolve(base, target);
}

function existingFolder(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.statSync(d, { throwIfNoEntry: false })?.isDirectory()) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

const isInside = (file: string, dir: string): boolean => file.startsWith(dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`);

/** stdout; undefined when there is no git to run; the first line of stderr when git failed. */
/** git's output; undefined when git is not installed. Asynchronous: a slow repository must not stall the event loop (other running calls, Ctrl-C). */
async function runGit(cwd: string, args: string[]): Promise<string | { error: string } | undefined> {
  try {
    const { stdout } = await execFileAsync('git', ['--no-pager', ...args], {
      cwd,
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    });
    return stdout;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    const stderr = error instanceof Error && 'stderr' in error ? String(error.stderr).trim().split('\n')[0] : '';
    return { error: stderr || messageOf(error) };
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
