// Turns settings and the session into a SandboxPlan by looking at the file system: which roots
// exist, which protected paths exist, which secrets are present. Runs before every command, so a
// .env file created since the last command is masked too. Its probes are synchronous (see
// fs-probe.ts for the figures). Its one write: a missing git file with
// a harmless placeholder is created (see PROTECTED_GIT_PATHS), so that it can be mounted read-only.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SandboxPlan } from './argv.js';
import { kindOf, realOrUndefined } from './fs-probe.js';
import { protectedGitEntries, rootGit, type ProtectedEntry } from './git-dirs.js';
import { gitConfigTargets } from './git-config-targets.js';
import { userHome } from '../permissions/home.js';
import { scanRoot, type HidePredicate } from './scan.js';
import { PROTECTED_PATHS, parseDenyRead } from './settings.js';
import { computeView } from './view.js';
import { rootGitDirs, type MachineFacts } from './view-facts.js';

/**
 * `sandboxed`: the sandbox as settings make it (workspace writable, the rest of the machine
 * readable). `contained` and `confined`: the view (view.ts) of what the session may read, for
 * commands nobody approved; the workspace read-only when contained, writable (protected paths
 * aside) when confined. `guarded`: everything as outside but the protected paths (containment off).
 */
export type SandboxProfile = 'sandboxed' | 'contained' | 'confined' | 'guarded';

/** What the view needs besides the plan's input: the machine's facts and which workspace entries to hide. */
export interface ViewInput {
  machine: MachineFacts;
  /** Credentials (the analyser's list) and Read-denied paths; the same function every time, so walks are kept. */
  hide: HidePredicate;
  /** This session's folder (real path), shown read-only. */
  sessionDir?: string;
}

export interface PlanInput {
  profile?: SandboxProfile;
  roots: readonly string[];
  /** Extra writable folders, already absolute. */
  writableRoots: readonly string[];
  denyRead: readonly string[];
  cwd: string;
  supportDir: string;
  tmpDir: string;
  deniedFileSource: string;
  home?: string;
  /** Absolute paths outside the workspace to keep read-only when guarded, if they exist (shell start-up files, ~/.ssh…). */
  protectedOutside?: readonly string[];
  /** Required for `contained` and `confined`. */
  view?: ViewInput;
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
function existing(paths: readonly string[]): string[] {
  return paths.map(realOrUndefined).filter((p): p is string => p !== undefined);
}

const isUnder = (child: string, parent: string): boolean =>
  child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

export async function planSandbox(input: PlanInput): Promise<PlanResult> {
  const profile = input.profile ?? 'sandboxed';
  const viewed = profile === 'contained' || profile === 'confined';
  if (viewed && input.view === undefined) throw new Error(`the ${profile} profile needs the view's facts`);
  const workspace = unique(existing(input.roots));
  const roots = unique([...workspace, ...(profile === 'sandboxed' || profile === 'confined' ? existing(input.writableRoots) : [])]);
  const spec = parseDenyRead(profile === 'guarded' ? [] : input.denyRead, input.home);
  const scans = roots.map((root) => scanRoot(root, spec.patterns, spec.exempt, viewed ? input.view?.hide : undefined));
  const view =
    viewed && input.view
      ? computeView({ ...input.view.machine, roots: workspace, rootGitDirs: rootGitDirs(workspace), sessionDir: input.view.sessionDir })
      : undefined;
  // In the view, only masks over what it shows: the homes are empty folders there already.
  const shown = (p: string): boolean =>
    view === undefined || roots.some((r) => isUnder(p, r)) || view.mounts.some((m) => m.kind === 'ro-bind' && isUnder(p, m.dest));
  const masked = unique([
    ...spec.paths,
    ...scans.flatMap((scan) => scan.secrets),
    ...(input.view && view ? input.view.machine.etcSecrets : []),
  ]);
  const secrets = hidden(masked.filter(shown));
  if (view !== undefined) secrets.deniedDirs.push(...view.deniedDirs.filter((d) => !secrets.deniedDirs.includes(d)));
  const planOf = (writable: string[], guard: Protection): PlanResult => ({
    plan: {
      cwd: input.cwd,
      supportDir: input.supportDir,
      tmpDir: input.tmpDir,
      writable,
      readOnly: unique(guard.readOnly),
      emptyReadOnlyDirs: unique(guard.emptyReadOnlyDirs),
      ...secrets,
      deniedFileSource: input.deniedFileSource,
      ...(profile === 'guarded' ? { guardOnly: true } : {}),
      ...(view === undefined ? {} : { view: view.mounts, env: view.env }),
    },
    unprotected: unique(guard.unprotected),
  });
  const guard: Protection = { readOnly: [], emptyReadOnlyDirs: [], unprotected: [] };
  // Nothing is writable: nothing needs protecting (and no placeholder is written).
  if (profile === 'contained') return planOf([], guard);

  // Protected paths are the workspace's; extra writable folders (caches) are left as they are.
  protect(
    workspace.flatMap((root) => PROTECTED_PATHS.map(({ rel, ...rest }) => ({ ...rest, path: path.join(root, rel) }))),
    guard,
  );
  // Missing ones are left alone: a mount point would create a `~/.ssh` nobody asked for.
  if (profile === 'guarded') guard.readOnly.push(...existing(input.protectedOutside ?? []));
  // Every repository in the workspace, not only a root's: git run later in any of them reads
  // that one's config. A mount point cannot be renamed (EBUSY), so binding each git folder onto
  // itself stops a command from moving it aside and building a new one with its own config.
  const gitDirs: string[] = [];
  const repositories = unique(scans.flatMap((scan) => scan.repositories)).filter((home) => workspace.some((root) => isUnder(home, root)));
  for (const home of repositories) {
    const git = rootGit(home);
    // A rewritten `.git` file would point git at a folder the command filled.
    if (git.gitFile !== undefined) guard.readOnly.push(git.gitFile);
    // One outside the writable folders is read-only already (when guarded, nothing is).
    for (const dir of git.gitDirs.filter((d) => profile === 'guarded' || roots.some((r) => isUnder(d, r)))) {
      gitDirs.push(dir);
      protect(protectedGitEntries(dir), guard);
    }
    // What the config points at: inside the writable folders, or anywhere when guarded (if it exists,
    // so that no mount point is made outside the workspace).
    const targets = await gitConfigTargets(home, input.home ?? userHome());
    const outside = targets.filter((t) => !roots.some((r) => isUnder(t.path, r)));
    protect(
      targets.filter((t) => roots.some((r) => isUnder(t.path, r))),
      guard,
    );
    if (profile === 'guarded') guard.readOnly.push(...existing(outside.map((t) => t.path)));
  }
  return planOf(profile === 'guarded' ? unique(gitDirs) : unique([...roots, ...gitDirs]), guard);
}

/** Secret paths that exist, as the folders and files to mask. */
function hidden(paths: string[]): { deniedDirs: string[]; deniedFiles: string[] } {
  const kinds = paths.map(kindOf);
  return {
    deniedDirs: paths.filter((_, i) => kinds[i] === 'dir'),
    deniedFiles: paths.filter((_, i) => kinds[i] === 'file'),
  };
}

/** Sorts entries into the plan's lists, in entry order. */
function protect(entries: ProtectedEntry[], out: Protection): void {
  for (const verdict of entries.map(protection)) {
    for (const [list, p] of verdict) out[list].push(p);
  }
}

function protection(entry: ProtectedEntry): [keyof Protection, string][] {
  const real = realOrUndefined(entry.path);
  if (real !== undefined)
    return real === entry.path
      ? [['readOnly', real]]
      : [
          ['readOnly', real],
          ['unprotected', entry.path],
        ];
  if (entry.kind === 'dir' && !entry.leaveMissing) {
    // Mounting needs a mount point, so bwrap leaves an empty folder behind on the host;
    // harmless for .wield/ and hooks/, and it stops a command creating them.
    return kindOf(path.dirname(entry.path)) === 'dir' ? [['emptyReadOnlyDirs', entry.path]] : [['unprotected', entry.path]];
  }
  if (entry.placeholder !== undefined && placeholder(entry.path, entry.placeholder)) return [['readOnly', entry.path]];
  return [['unprotected', entry.path]];
}

/** Creates a missing file with harmless content; false when it cannot (or a link is in the way). */
function placeholder(file: string, content: string): boolean {
  try {
    writeFileSync(file, content, { flag: 'wx' });
  } catch (err) {
    // EEXIST: another command made it first (fine) or a dangling link sits there (not fine).
    if (!(err instanceof Error && 'code' in err && err.code === 'EEXIST')) return false;
  }
  return realOrUndefined(file) === file;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
