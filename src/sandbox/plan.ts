// Turns settings and the session into a SandboxPlan by looking at the file system: which roots
// exist, which protected paths exist, which secrets are present. Runs before every command, so a
// .env file created since the last command is masked too.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import type { SandboxPlan } from './argv.js';
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
  /** Protected files that do not exist: a command may create them (see README). */
  unprotected: string[];
}

type Kind = 'dir' | 'file' | 'missing';

async function kindOf(p: string): Promise<Kind> {
  try {
    const s = await stat(p);
    return s.isDirectory() ? 'dir' : 'file';
  } catch {
    return 'missing';
  }
}

/** Real paths of those that exist (and are folders, when asked). */
async function existing(paths: string[], only?: 'dir'): Promise<string[]> {
  const found = await Promise.all(
    paths.map(async (p) => (only === undefined || (await kindOf(p)) === only ? realOrUndefined(p) : undefined)),
  );
  return found.filter((p): p is string => p !== undefined);
}

async function realOrUndefined(p: string): Promise<string | undefined> {
  try {
    return await realpath(p);
  } catch {
    return undefined;
  }
}

export async function planSandbox(input: PlanInput): Promise<PlanResult> {
  const workspace = unique(await existing([...input.roots]));
  const roots = unique([...workspace, ...(await existing([...input.writableRoots]))]);
  // A mount point cannot be renamed (EBUSY), so binding .git onto itself stops a command from
  // moving .git aside and building a new one with its own hooks and config.
  const gitDirs = await existing(workspace.map((root) => path.join(root, '.git')), 'dir');
  const writable = unique([...roots, ...gitDirs]);
  const readOnly: string[] = [];
  const emptyReadOnlyDirs: string[] = [];
  const unprotected: string[] = [];
  // Protected paths are the workspace's; extra writable folders (caches) are left as they are.
  for (const root of workspace) {
    for (const { rel, kind } of PROTECTED_PATHS) {
      const p = path.join(root, rel);
      const real = await realOrUndefined(p);
      if (real !== undefined) {
        readOnly.push(real);
      } else if (kind === 'dir' && (await kindOf(path.dirname(p))) === 'dir') {
        // Mounting needs a mount point, so bwrap leaves an empty folder behind on the host;
        // harmless for .wield/ and .git/hooks, and it stops a command creating them.
        emptyReadOnlyDirs.push(p);
      } else {
        // An empty placeholder file would be left behind and break readers of .mcp.json or
        // .git/config (and an empty .git folder confuses git), so these stay creatable;
        // reported, not hidden.
        unprotected.push(p);
      }
    }
  }

  const spec = parseDenyRead(input.denyRead, input.home);
  const deniedDirs: string[] = [];
  const deniedFiles: string[] = [];
  const found = await Promise.all(roots.map((root) => findSecrets(root, spec.patterns, spec.exempt)));
  for (const p of unique([...spec.paths, ...found.flat()])) {
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
      readOnly: unique(readOnly),
      emptyReadOnlyDirs,
      deniedDirs,
      deniedFiles,
      deniedFileSource: input.deniedFileSource,
    },
    unprotected,
  };
}

async function findSecrets(root: string, patterns: string[], exempt: string[]): Promise<string[]> {
  if (patterns.length === 0) return [];
  const matches = await glob(patterns, {
    cwd: root,
    absolute: true,
    dot: true,
    onlyFiles: false,
    // Not followed: a link to a folder could take the scan across the whole disk. A secret
    // reached through a link stays hidden when its real path is listed (bwrap mounts over it).
    followSymbolicLinks: false,
    // Dependencies and git internals hold no user secrets and are the bulk of a tree.
    ignore: [...exempt, '**/node_modules/**', '**/.git/**'],
  });
  // Folders come back with a trailing slash.
  return matches.map((m) => m.replace(/\/+$/, ''));
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
