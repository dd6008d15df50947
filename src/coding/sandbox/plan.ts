// Turns settings and the session into a SandboxPlan by looking at the file system: which roots
// exist, which protected paths exist, which secrets are present. Runs before every command, so a
// .env file created since the last command is masked too. Its probes are synchronous (see
// fs-probe.ts for the figures). Its writes, so that a missing protected path can be mounted
// read-only: a git file with a harmless placeholder (see PROTECTED_GIT_PATHS), kept; any other,
// an empty stand-in folder (stand-ins.ts), removed when the command ends.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SandboxPlan } from './argv.js';
import { kindOf, realOrUndefined } from './fs-probe.js';
import { protectedGitEntries, rootGit, type ProtectedEntry } from './git-dirs.js';
import { gitConfigTargets } from './git-config-targets.js';
import { userHome } from '../permissions/home.js';
import { scanRoot, type HidePredicate } from './scan.js';
import { PROTECTED_PATHS, parseDenyRead } from './settings.js';
import type { StandIns } from './stand-ins.js';
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
  /**
   * What a command nobody approved may not change in the homes (shell start-up files, ~/.ssh…):
   * protected everywhere when guarded, else where a writable root holds them (a workspace at $HOME).
   */
  protectedOutside?: readonly ProtectedEntry[];
  /** The stand-ins running commands hold; the plan holds its own there (PlanResult.standIns). */
  standIns: StandIns;
  /** Required for `contained` and `confined`. */
  view?: ViewInput;
}

/** The plan plus what could not be protected, so callers never overstate the protection. */
export interface PlanResult {
  plan: SandboxPlan;
  /**
   * Protected paths a command may still create or replace (see README): symbolic links (their
   * target is read-only, the link is not), and missing ones no stand-in could be made for.
   */
  unprotected: string[];
  /** Stand-ins held for this command (read-only in `plan`): give them back to `standIns.release` when it ends. */
  standIns: string[];
}

interface Protection {
  readOnly: string[];
  emptyReadOnlyDirs: string[];
  unprotected: string[];
  /** Missing, with no placeholder: a stand-in is held for them once the plan is complete. */
  missing: ProtectedEntry[];
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
  const planOf = (writable: string[], guard: Protection): PlanResult => {
    // What a person or their rule approved keeps listing the workspace as it is (`ls -a` as
    // outside), so it makes no stand-in: nothing it starts outlives it (own PID namespace), and
    // what it created at a missing protected path is removed when it ends (PlanResult.unprotected).
    const standIns = holdStandIns(guard, input.standIns, profile !== 'sandboxed');
    return {
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
      standIns,
    };
  };
  const guard: Protection = { readOnly: [], emptyReadOnlyDirs: [], unprotected: [], missing: [] };
  const live = input.standIns;
  // Nothing is writable: nothing needs protecting (and no placeholder is written).
  if (profile === 'contained') return planOf([], guard);

  // Protected paths are the workspace's; extra writable folders (caches) are left as they are.
  protect(
    workspace.flatMap((root) => PROTECTED_PATHS.map(({ rel, ...rest }) => ({ ...rest, path: path.join(root, rel) }))),
    guard,
    live,
  );
  // When not guarded, a home outside the writable folders is read-only (or absent) already.
  protect(
    (input.protectedOutside ?? []).filter((e) => profile === 'guarded' || roots.some((r) => isUnder(e.path, r))),
    guard,
    live,
  );
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
      protect(protectedGitEntries(dir), guard, live);
    }
    // What the config points at: inside the writable folders, or anywhere when guarded (if it exists,
    // so that no mount point is made outside the workspace).
    const targets = await gitConfigTargets(home, input.home ?? userHome());
    const outside = targets.filter((t) => !roots.some((r) => isUnder(t.path, r)));
    protect(
      targets.filter((t) => roots.some((r) => isUnder(t.path, r))),
      guard,
      live,
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
function protect(entries: readonly ProtectedEntry[], out: Protection, live: StandIns): void {
  for (const entry of entries) {
    const verdict = protection(entry, live);
    if (verdict === 'missing') out.missing.push(entry);
    else for (const [list, p] of verdict) out[list].push(p);
  }
}

type Verdict = [Exclude<keyof Protection, 'missing'>, string][] | 'missing';

function protection(entry: ProtectedEntry, live: StandIns): Verdict {
  const real = realOrUndefined(entry.path);
  // Another command's stand-in: held for this one too, so it is not removed under it.
  if (real !== undefined && live.has(real)) return 'missing';
  if (real !== undefined)
    return real === entry.path
      ? [['readOnly', real]]
      : [
          ['readOnly', real],
          ['unprotected', entry.path],
        ];
  if (entry.kind === 'dir' && !entry.leaveMissing && kindOf(path.dirname(entry.path)) === 'dir') {
    // Mounting needs a mount point, so bwrap leaves an empty folder behind on the host;
    // harmless for .wield/ and hooks/, and it stops a command creating them.
    return [['emptyReadOnlyDirs', entry.path]];
  }
  if (entry.placeholder !== undefined && placeholder(entry.path, entry.placeholder)) return [['readOnly', entry.path]];
  return 'missing';
}

/**
 * Holds a stand-in for each missing entry (when not `create`, only one another command holds),
 * all at once after the plan's last await, so that no other plan sees a stand-in it made before
 * it is counted. One inside a stand-in folder needs none.
 */
function holdStandIns(guard: Protection, standIns: StandIns, create: boolean): string[] {
  const held: string[] = [];
  for (const entry of guard.missing) {
    if (held.some((h) => isUnder(entry.path, h) && h !== entry.path)) continue;
    const made = standIns.hold(entry.path, create);
    if (made === undefined) guard.unprotected.push(entry.path);
    else if (!held.includes(made)) {
      held.push(made);
      guard.readOnly.push(made);
    } else standIns.release([made]);
  }
  return held;
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
