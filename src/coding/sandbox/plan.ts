// Turns settings and the session into a SandboxPlan by looking at the file system: which roots
// exist, which protected paths exist, which secrets are present. Runs before every command, so a
// .env file created since the last command is masked too. Its one write: a missing git file with
// a harmless placeholder is created (see PROTECTED_GIT_PATHS), so that it can be mounted read-only.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import type { SandboxPlan } from './argv.js';
import { kindOf, realOrUndefined } from './fs-probe.js';
import { protectedGitEntries, rootGit, type ProtectedEntry } from './git-dirs.js';
import { PROTECTED_PATHS, parseDenyRead } from './settings.js';

export interface PlanInput {
  roots: readonly string[];
  /** Extra writable folders, already absolute. */
  writableRoots: readonly string[];
  denyRead: readonly string[];
  cwd: string;
  supportDir: string;
  tmpDir: string;
  deniedFileSource: string;
  home?: string;
}

/** The plan plus what could not be protected, so callers never overstate the protection. */
export interface PlanResult {
  plan: SandboxPlan;
  /**
   * Protected paths a command may still create or replace (see README): missing files with no
   * harmless placeholder (.mcp.json), and symbolic links (their target is read-only, the link is not).
   */
  unprotected: string[];
}

interface Protection {
  readOnly: string[];
  emptyReadOnlyDirs: string[];
  unprotected: string[];
}

/** Real paths of those that exist. */
async function existing(paths: string[]): Promise<string[]> {
  const found = await Promise.all(paths.map(realOrUndefined));
  return found.filter((p): p is string => p !== undefined);
}

const isUnder = (child: string, parent: string): boolean =>
  child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

export async function planSandbox(input: PlanInput): Promise<PlanResult> {
  const workspace = unique(await existing([...input.roots]));
  const roots = unique([...workspace, ...(await existing([...input.writableRoots]))]);
  const spec = parseDenyRead(input.denyRead, input.home);
  const scans = await Promise.all(roots.map((root) => scanRoot(root, spec.patterns, spec.exempt)));

  const guard: Protection = { readOnly: [], emptyReadOnlyDirs: [], unprotected: [] };
  // Protected paths are the workspace's; extra writable folders (caches) are left as they are.
  await protect(
    workspace.flatMap((root) => PROTECTED_PATHS.map(({ rel, ...rest }) => ({ ...rest, path: path.join(root, rel) }))),
    guard,
  );
  // Every repository in the workspace, not only a root's: git run later in any of them reads
  // that one's config. A mount point cannot be renamed (EBUSY), so binding each git folder onto
  // itself stops a command from moving it aside and building a new one with its own config.
  const gitDirs: string[] = [];
  const repositories = unique(scans.flatMap((scan) => scan.repositories)).filter((home) => workspace.some((root) => isUnder(home, root)));
  for (const home of repositories) {
    const git = await rootGit(home);
    // A rewritten `.git` file would point git at a folder the command filled.
    if (git.gitFile !== undefined) guard.readOnly.push(git.gitFile);
    // One outside the writable folders is read-only already.
    for (const dir of git.gitDirs.filter((d) => roots.some((r) => isUnder(d, r)))) {
      gitDirs.push(dir);
      await protect(await protectedGitEntries(dir), guard);
    }
  }
  const writable = unique([...roots, ...gitDirs]);

  const deniedDirs: string[] = [];
  const deniedFiles: string[] = [];
  for (const p of unique([...spec.paths, ...scans.flatMap((scan) => scan.secrets)])) {
    const kind = await kindOf(p);
    if (kind === 'dir') deniedDirs.push(p);
    else if (kind === 'file') deniedFiles.push(p);
  }

  return {
    plan: {
      cwd: input.cwd,
      supportDir: input.supportDir,
      tmpDir: input.tmpDir,
      writable,
      readOnly: unique(guard.readOnly),
      emptyReadOnlyDirs: unique(guard.emptyReadOnlyDirs),
      deniedDirs,
      deniedFiles,
      deniedFileSource: input.deniedFileSource,
    },
    unprotected: unique(guard.unprotected),
  };
}

/** Sorts entries into the plan's lists, in entry order (the checks run in parallel). */
async function protect(entries: ProtectedEntry[], out: Protection): Promise<void> {
  for (const verdict of await Promise.all(entries.map(protection))) {
    for (const [list, p] of verdict) out[list].push(p);
  }
}

async function protection(entry: ProtectedEntry): Promise<[keyof Protection, string][]> {
  const real = await realOrUndefined(entry.path);
  if (real !== undefined)
    return real === entry.path
      ? [['readOnly', real]]
      : [
          ['readOnly', real],
          ['unprotected', entry.path],
        ];
  if (entry.kind === 'dir') {
    // Mounting needs a mount point, so bwrap leaves an empty folder behind on the host;
    // harmless for .wield/ and hooks/, and it stops a command creating them.
    return (await kindOf(path.dirname(entry.path))) === 'dir' ? [['emptyReadOnlyDirs', entry.path]] : [['unprotected', entry.path]];
  }
  if (entry.placeholder !== undefined && (await placeholder(entry.path, entry.placeholder))) return [['readOnly', entry.path]];
  return [['unprotected', entry.path]];
}

/** Creates a missing file with harmless content; false when it cannot (or a link is in the way). */
async function placeholder(file: string, content: string): Promise<boolean> {
  try {
    await writeFile(file, content, { flag: 'wx' });
  } catch (err) {
    // EEXIST: another command made it first (fine) or a dangling link sits there (not fine).
    if (!(err instanceof Error && 'code' in err && err.code === 'EEXIST')) return false;
  }
  return (await realOrUndefined(file)) === file;
}

/** Secrets matching the deny patterns, and the folders holding a `.git` (repositories), in one walk. */
async function scanRoot(root: string, patterns: string[], exempt: string[]): Promise<{ secrets: string[]; repositories: string[] }> {
  const matches = await glob([...patterns, '**/.git'], {
    cwd: root,
    absolute: true,
    dot: true,
    onlyFiles: false,
    // Not followed: a link to a folder could take the scan across the whole disk. A secret
    // reached through a link stays hidden when its real path is listed (bwrap mounts over it).
    followSymbolicLinks: false,
    // Dependencies and git internals hold no user secrets and are the bulk of a tree; `.git/*`
    // (not `.git/**`) keeps `.git` itself in the results while the walk skips what is inside.
    ignore: [...exempt, '**/node_modules/**', '**/.git/*'],
  });
  // Folders come back with a trailing slash.
  const found = matches.map((m) => m.replace(/\/+$/, ''));
  return {
    secrets: found.filter((p) => path.basename(p) !== '.git'),
    repositories: found.filter((p) => path.basename(p) === '.git').map((p) => path.dirname(p)),
  };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
