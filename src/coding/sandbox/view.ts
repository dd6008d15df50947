// The view of the machine a command nobody approved runs in: what the session may read and
// nothing more. Pure: the facts (which system folders exist, where PATH leads, which secrets the
// workspace holds) are gathered by view-facts.ts; every choice of what is visible is made here.
// Nothing outside is mounted unless listed below, so a link from the workspace to elsewhere
// resolves to nothing and a recursion that follows it finds nothing.
import path from 'node:path';
import { isSecretVariable } from '../bash/expansions.js';
import { mayNameSecret } from '../bash/paths.js';
import { isSecretValue } from '../bash/secrets.js';

/** One bubblewrap mount, applied in list order (a later mount covers an earlier one). */
export type Mount =
  | { kind: 'ro-bind' | 'bind'; src: string; dest: string }
  | { kind: 'symlink'; target: string; dest: string }
  | { kind: 'tmpfs' | 'dev' | 'proc'; dest: string };

/**
 * Top-level folders programs need to run: binaries, libraries, the loader, system config.
 * Not /home, /root, /srv, /opt, /mnt, /var, /run, /sys: they hold people's files, other
 * projects and services. /nix (the Nix store) holds only programs.
 */
export const SYSTEM_DIRS: readonly string[] = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/nix'];

/**
 * Files under /etc that hold secrets: password hashes, sudo policy, private TLS keys, old
 * passwords. Unreadable to a normal user anyway; they matter where wield runs as root (containers).
 * ssh host private keys (/etc/ssh/ssh_host_*_key) are found by listing /etc/ssh (SSH_HOST_KEY).
 */
export const ETC_SECRETS: readonly string[] = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/ssl/private',
  '/etc/security/opasswd',
];
export const SSH_HOST_KEY = /^ssh_host_.*_key$/;

/**
 * The /etc secrets to mask: those present that this user can open. A command in the view runs as
 * the same user with every capability dropped, so what is closed to the user now stays closed
 * inside; each mask is one more mount per command (six for a normal user, all of them for root).
 */
export function etcMasks(present: readonly string[], open: (p: string) => boolean): string[] {
  return present.filter(open);
}

/**
 * The only home-folder files a contained command sees, each audited as holding no credentials
 * and changing nothing that runs: git's global ignore and attributes files (so `git status` lists
 * what it lists outside) and the editor settings formatters read. Not ~/.gitconfig: it may name
 * credentials (`url.<token>@…insteadOf`, helpers) and programs git runs.
 */
export const HARMLESS_HOME_FILES: readonly string[] = ['.config/git/ignore', '.config/git/attributes', '.editorconfig'];

/**
 * Unset in the view: they point into the home (or elsewhere) outside it; programs then use their
 * defaults under the empty HOME, where the harmless files are.
 */
export const VIEW_UNSET_ENV: readonly string[] = ['XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME'];

/**
 * The environment a contained command is started with: without the variables named or valued
 * like credentials (the analyser's own tests), as the view holds no secret files. Left out of
 * bubblewrap's environment, not unset inside: /proc/1/environ (bubblewrap, pid 1 in the view)
 * keeps the environment it was started with.
 */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => !isSecretVariable(name) && !isSecretValue(value ?? '')));
}

export interface PathDirFact {
  /** Real path of a PATH entry that is a folder. */
  real: string;
  /** Real path of its sibling `lib` folder when the entry is a `bin` folder and that exists (npm's bin links into ../lib). */
  lib?: string;
}

export interface ViewFacts {
  /** The system folders that exist; `link` is the target as read (`usr/bin`) when the entry is a symbolic link. */
  system: readonly { path: string; link?: string }[];
  /** PATH entries, real paths. */
  pathDirs: readonly PathDirFact[];
  /** Real paths of the home folders (`$HOME`, the account's). */
  homes: readonly string[];
  /** Real paths of wield's own folders (`~/.wield`, WIELD_HOME's). */
  wieldDirs: readonly string[];
  /** Harmless home files that exist: where they are (`dest`) and their real path (`src`). */
  harmless: readonly { src: string; dest: string }[];
  /** Workspace roots, real paths. */
  roots: readonly string[];
  /** The roots' own git folders outside them (a linked worktree's), checked to belong to the root. */
  rootGitDirs: readonly string[];
  /** This session's own files (spilled outputs the model is pointed at), read-only; the analyser counts them as readable too. */
  sessionDir?: string;
  /** user.name and user.email from the user's git config (not secret), since ~/.gitconfig is not shown. */
  gitIdentity?: { name?: string; email?: string };
}

export interface View {
  /** What is mounted, in order; the workspace roots read-only (the plan binds writable ones again over them). */
  mounts: Mount[];
  /** Folders visible through the mounts that must be masked (wield's own folders inside the workspace). */
  deniedDirs: string[];
  /**
   * Variables set inside: HOME (the first home, an empty private folder there, or the workspace
   * when a root holds it) and git's identity, so a confined `git commit` works as outside.
   */
  env: Record<string, string>;
}

const isUnder = (child: string, parent: string): boolean =>
  child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

/** The mounts of the view, from the facts; masks over secret files are added by the plan. */
export function computeView(facts: ViewFacts): View {
  const mounts: Mount[] = [];
  for (const entry of facts.system) {
    if (entry.link !== undefined) mounts.push({ kind: 'symlink', target: entry.link, dest: entry.path });
    else mounts.push({ kind: 'ro-bind', src: entry.path, dest: entry.path });
  }
  mounts.push({ kind: 'dev', dest: '/dev' }, { kind: 'proc', dest: '/proc' }, { kind: 'tmpfs', dest: '/tmp' });
  const systemDirs = facts.system.filter((e) => e.link === undefined).map((e) => e.path);
  // A home that is a workspace root, or lies inside one, is the workspace: it stays as it is.
  const homes = facts.homes.filter((home) => !facts.roots.some((root) => isUnder(home, root)));
  // An empty, writable, private home: programs that write caches there still work; nothing is kept.
  for (const home of homes) mounts.push({ kind: 'tmpfs', dest: home });
  for (const file of facts.harmless) {
    if (homes.some((home) => isUnder(file.dest, home))) mounts.push({ kind: 'ro-bind', src: file.src, dest: file.dest });
  }
  const visible = [...systemDirs, ...facts.roots];
  for (const dir of toolchainDirs(facts)) {
    if (visible.some((v) => isUnder(dir, v))) continue;
    visible.push(dir);
    mounts.push({ kind: 'ro-bind', src: dir, dest: dir });
  }
  for (const root of facts.roots) mounts.push({ kind: 'ro-bind', src: root, dest: root });
  const extra = [...facts.rootGitDirs, ...(facts.sessionDir === undefined ? [] : [facts.sessionDir])];
  for (const dir of extra) {
    if (!facts.roots.some((root) => isUnder(dir, root))) mounts.push({ kind: 'ro-bind', src: dir, dest: dir });
  }
  return {
    mounts,
    deniedDirs: facts.wieldDirs.filter((dir) => facts.roots.some((root) => isUnder(dir, root))),
    env: viewEnv(facts),
  };
}

function viewEnv(facts: ViewFacts): Record<string, string> {
  const env: Record<string, string> = {};
  if (facts.homes.length > 0) env.HOME = facts.homes[0];
  const { name, email } = facts.gitIdentity ?? {};
  // Set in the environment already, they reach the command as they are and win over these.
  if (name !== undefined) Object.assign(env, { GIT_AUTHOR_NAME: name, GIT_COMMITTER_NAME: name });
  if (email !== undefined) Object.assign(env, { GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_EMAIL: email });
  return env;
}

/**
 * PATH folders worth showing: those outside the homes (and their `lib`), and those inside a home
 * read-only when nothing on the way names a credential or wield's folder. Never a folder that holds
 * a home, a workspace root or wield's folder (PATH=/home:… would show everyone's files), nor `/`.
 */
function toolchainDirs(facts: ViewFacts): string[] {
  const guarded = [...facts.homes, ...facts.roots, ...facts.wieldDirs];
  const ok = (dir: string): boolean => {
    if (guarded.some((g) => isUnder(g, dir))) return false;
    if (facts.wieldDirs.some((w) => isUnder(dir, w))) return false;
    const home = facts.homes.find((h) => isUnder(dir, h));
    return home === undefined || !mayNameSecret(path.relative(home, dir));
  };
  return facts.pathDirs.flatMap((d) => [d.real, ...(d.lib === undefined ? [] : [d.lib])]).filter(ok);
}
