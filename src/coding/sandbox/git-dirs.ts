// Where a workspace root keeps its git repository, and which entries of it must stay read-only
// so that git, run later outside the sandbox, cannot be made to run a program.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { kindOf, readText, realOrUndefined } from './fs-probe.js';
import { PROTECTED_GIT_PATHS, PROTECTED_WORKTREE_PATHS, type ProtectedPath } from './settings.js';

/** A protected path, absolute. */
export interface ProtectedEntry extends Omit<ProtectedPath, 'rel'> {
  path: string;
}

export interface RootGit {
  /** The root's `.git` when it is a file naming the git folder (linked worktree, submodule, `gitdir: ./.bare`). */
  gitFile?: string;
  /** Real paths of the git folder and, when it names another one in `commondir`, the common folder. */
  gitDirs: string[];
}

// Submodules nest (.git/modules/a/modules/b) and their names may hold slashes (.git/modules/a/b).
const MAX_DEPTH = 4;

// A submodule's git folder is reached through the checkout's `.git` file, which a command can
// rewrite anyway, so no placeholder commondir is written into it.
const SUBMODULE_GIT_PATHS: readonly ProtectedPath[] = PROTECTED_GIT_PATHS.map((p) =>
  p.rel === 'commondir' ? { rel: p.rel, kind: p.kind } : p,
);

export function rootGit(root: string): RootGit {
  const dotGit = path.join(root, '.git');
  const kind = kindOf(dotGit);
  if (kind === undefined) return { gitDirs: [] };
  const gitFile = kind === 'file' ? realOrUndefined(dotGit) : undefined;
  const named = kind === 'dir' ? dotGit : gitdirOfFile(readText(dotGit), root);
  const gitDir = named === undefined ? undefined : realOrUndefined(named);
  if (gitDir === undefined || (kind === 'file' && kindOf(gitDir) !== 'dir')) return { gitFile, gitDirs: [] };
  const common = commonDirOf(gitDir);
  return { gitFile, gitDirs: common === undefined || common === gitDir ? [gitDir] : [gitDir, common] };
}

/** The entries of a git folder to keep read-only, with those of its linked worktrees and submodules. */
export function protectedGitEntries(gitDir: string, paths: readonly ProtectedPath[] = PROTECTED_GIT_PATHS, depth = 0): ProtectedEntry[] {
  const common = commonDirOf(gitDir);
  const worktrees = subdirs(path.join(gitDir, 'worktrees'));
  const modules = depth < MAX_DEPTH ? moduleGitDirs(path.join(gitDir, 'modules'), 0) : [];
  // A linked worktree's folder reads config and hooks from the common folder, protected on its own.
  const own = under(gitDir, common !== undefined && common !== gitDir ? PROTECTED_WORKTREE_PATHS : paths);
  if (depth >= MAX_DEPTH) return own;
  const nested = [
    ...worktrees.flatMap((name) => protectedGitEntries(path.join(gitDir, 'worktrees', name), paths, depth + 1)),
    ...modules.flatMap((module) => protectedGitEntries(module, SUBMODULE_GIT_PATHS, depth + 1)),
  ];
  return [...own, ...nested];
}

function under(dir: string, paths: readonly ProtectedPath[]): ProtectedEntry[] {
  return paths.map(({ rel, ...rest }) => ({ ...rest, path: path.join(dir, rel) }));
}

/** Submodule git folders below `.git/modules` (a folder with HEAD), looking through name folders. */
function moduleGitDirs(dir: string, depth: number): string[] {
  if (depth >= MAX_DEPTH) return [];
  const found: string[] = [];
  for (const name of subdirs(dir)) {
    const child = path.join(dir, name);
    if (kindOf(path.join(child, 'HEAD')) === 'file') found.push(child);
    else found.push(...moduleGitDirs(child, depth + 1));
  }
  return found;
}

/** The folder a `commondir` file names, as git resolves it (relative to the git folder). */
function commonDirOf(gitDir: string): string | undefined {
  const text = readText(path.join(gitDir, 'commondir'))?.replace(/[\r\n]+$/, '');
  return text === undefined || text === '' ? undefined : realOrUndefined(path.resolve(gitDir, text));
}

function gitdirOfFile(text: string | undefined, root: string): string | undefined {
  const target = /^gitdir:\s*(.+?)\s*$/m.exec(text ?? '')?.[1];
  return target === undefined ? undefined : path.resolve(root, target);
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}
