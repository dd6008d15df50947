// The bubblewrap command line for one sandboxed command: a pure function of the plan, so the
// mount order (which decides what wins) is unit-tested without running anything.
// bwrap applies its options in order and a later mount covers an earlier one at the same or a
// deeper path (bwrap(1), "--bind SRC DEST"), hence: read-only root (or the view), then writable
// folders, then the read-only and unreadable holes punched into them.
import { VIEW_UNSET_ENV, type Mount } from './view.js';

export interface SandboxPlan {
  /** Working directory inside the sandbox. */
  cwd: string;
  /** wield's own files for the sandbox (filter, denied-file stand-in): read-only inside. */
  supportDir: string;
  /** Per-session temp folder (inside supportDir): writable, and TMPDIR inside the sandbox. */
  tmpDir: string;
  /** Folders bound read-write (workspace roots and settings.writableRoots), real paths. */
  writable: string[];
  /** Existing protected paths re-bound read-only over the writable folders. */
  readOnly: string[];
  /** Protected folders that do not exist yet: an empty read-only folder is mounted there. */
  emptyReadOnlyDirs: string[];
  /** Secret folders: replaced by an empty folder nobody may open. */
  deniedDirs: string[];
  /** Secret files: replaced by `deniedFileSource`. */
  deniedFiles: string[];
  /** An empty file with mode 000, so reads fail with EACCES rather than look empty. */
  deniedFileSource: string;
  /**
   * Only keep the protected paths read-only: the rest of the file system stays writable, the
   * network, processes and sockets as outside (for commands nobody approved that must still not
   * rewrite what runs later; see wrap.ts). Secrets, support and temp folders are not mounted.
   */
  guardOnly?: boolean;
  /** Instead of the whole file system read-only: only these mounts (view.ts), the rest absent. */
  view?: readonly Mount[];
  /** Variables set inside the view (HOME, git's identity); VIEW_UNSET_ENV are unset with them. */
  env?: Readonly<Record<string, string>>;
}

/** Flags that hold for every sandboxed command. */
export const ISOLATION_FLAGS: readonly string[] = [
  '--unshare-net', // no network: only a private loopback
  '--unshare-pid', // own PID namespace: cannot see or signal the host's processes
  '--unshare-ipc',
  '--die-with-parent', // killed when wield (or the process that spawned bwrap) dies
  '--new-session', // no controlling terminal: blocks TIOCSTI input injection (CVE-2017-5226)
  // bwrap keeps all capabilities when started by root; without this, root inside could remount / rw.
  '--cap-drop',
  'ALL',
];

/** A guard-only command keeps the host's network, processes and sockets; it only loses capabilities and its terminal. */
export const GUARD_FLAGS: readonly string[] = ['--die-with-parent', '--new-session', '--cap-drop', 'ALL'];

/** The fd bwrap reads the seccomp filter from. */
export const SECCOMP_FD = 9;

/** A file whoever spawns the command opens read-only and hands to the child as `fd` (see inherit.ts). */
export interface InheritedFile {
  fd: number;
  file: string;
}

/**
 * The process to spawn: bwrap itself. bwrap takes its seccomp filter only as an fd, so the
 * spawner hands the filter file over at SECCOMP_FD (`inherit`). It used to be opened by a
 * `/bin/sh` launcher that then exec'd bwrap: one more exec per command, which cost as much as the
 * view's mounts together (BENCHMARKS.md, containment).
 */
export function sandboxCommand(
  bwrapPath: string,
  plan: SandboxPlan,
  argv: readonly string[],
  seccompFile?: string,
): { file: string; args: string[]; inherit?: InheritedFile } {
  if (seccompFile === undefined) return { file: bwrapPath, args: buildBwrapArgs(plan, argv) };
  return { file: bwrapPath, args: buildBwrapArgs(plan, argv, SECCOMP_FD), inherit: { fd: SECCOMP_FD, file: seccompFile } };
}

export function buildBwrapArgs(plan: SandboxPlan, argv: readonly string[], seccompFd?: number): string[] {
  if (plan.guardOnly) return guardArgs(plan, argv);
  const args = plan.view === undefined ? ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'] : plan.view.flatMap(mountArgs);
  for (const dir of plan.writable) args.push('--bind', dir, dir);
  // Read-only even when the session folder sits inside a writable root, so no command can
  // swap the filter or the stand-in file that later commands are built with. In the view, where
  // the last mount over it is read-only and no writable folder covers it, it is so already:
  // one mount fewer per command.
  const lastOver = plan.view?.filter((m) => isUnder(plan.supportDir, m.dest)).at(-1);
  const readOnlyAlready = lastOver?.kind === 'ro-bind' && !plan.writable.some((w) => isUnder(plan.supportDir, w));
  if (!readOnlyAlready) args.push('--ro-bind', plan.supportDir, plan.supportDir);
  args.push('--bind', plan.tmpDir, plan.tmpDir);
  for (const p of plan.readOnly) args.push('--ro-bind', p, p);
  for (const dir of plan.emptyReadOnlyDirs) args.push('--tmpfs', dir, '--remount-ro', dir);
  for (const dir of plan.deniedDirs) args.push('--perms', '0000', '--tmpfs', dir, '--remount-ro', dir);
  for (const file of plan.deniedFiles) args.push('--ro-bind', plan.deniedFileSource, file);
  // A protected folder may hold wield's own folders (a workspace at $HOME protects ~/.wield,
  // where sessions live): mount them again so the temp folder stays writable and the support
  // folder read-only, whatever was mounted over them.
  const covering = [...plan.readOnly, ...plan.emptyReadOnlyDirs, ...plan.deniedDirs];
  if (covering.some((p) => isUnder(plan.tmpDir, p) || isUnder(plan.supportDir, p))) {
    args.push('--ro-bind', plan.supportDir, plan.supportDir, '--bind', plan.tmpDir, plan.tmpDir);
  }
  args.push(...ISOLATION_FLAGS);
  if (seccompFd !== undefined) args.push('--seccomp', String(seccompFd));
  if (plan.env !== undefined) {
    for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value);
    for (const name of VIEW_UNSET_ENV) args.push('--unsetenv', name);
  }
  args.push('--setenv', 'TMPDIR', plan.tmpDir, '--chdir', plan.cwd, '--', ...argv);
  return args;
}

const isUnder = (child: string, parent: string): boolean =>
  child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

function mountArgs(mount: Mount): string[] {
  switch (mount.kind) {
    case 'ro-bind':
    case 'bind':
      return [`--${mount.kind}`, mount.src, mount.dest];
    case 'symlink':
      return ['--symlink', mount.target, mount.dest];
    default:
      return [`--${mount.kind}`, mount.dest];
  }
}

/** The host's own tree, writable (devices and /proc included), with the protected paths bound read-only over it. */
function guardArgs(plan: SandboxPlan, argv: readonly string[]): string[] {
  const args = ['--dev-bind', '/', '/'];
  // Git folders bound onto themselves: a mount point cannot be renamed, so `.git` cannot be moved aside and rebuilt.
  for (const dir of plan.writable) args.push('--bind', dir, dir);
  for (const p of plan.readOnly) args.push('--ro-bind', p, p);
  for (const dir of plan.emptyReadOnlyDirs) args.push('--tmpfs', dir, '--remount-ro', dir);
  args.push(...GUARD_FLAGS, '--chdir', plan.cwd, '--', ...argv);
  return args;
}
