// What computeView (view.ts) needs to know about this machine, looked up on disk. The part that
// does not depend on the workspace (system folders, PATH, homes, /etc secrets) is read once per
// wrap and kept while PATH is the same; the roots' git folders are read per command (a few stats).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { kindOf, readText, realOrUndefined } from './fs-probe.js';
import { rootGit } from './git-dirs.js';
import { ETC_SECRETS, etcMasks, HARMLESS_HOME_FILES, SSH_HOST_KEY, SYSTEM_DIRS, type PathDirFact, type ViewFacts } from './view.js';

export interface MachineFacts extends Omit<ViewFacts, 'roots' | 'rootGitDirs'> {
  /** Secret files and folders under /etc that exist and this user can open, to mask. */
  etcSecrets: string[];
}

export interface MachineInput {
  homes: readonly string[];
  wieldHomes: readonly string[];
  /** The environment commands get: its PATH, and git identity variables that win over config. */
  env: NodeJS.ProcessEnv;
}

export function machineFacts(input: MachineInput): MachineFacts {
  const homes = unique(input.homes.map(realOrUndefined).filter(isString));
  return {
    system: SYSTEM_DIRS.flatMap((dir) => {
      const link = linkTarget(dir);
      if (link !== undefined) return [{ path: dir, link }];
      return kindOf(dir) === 'dir' ? [{ path: dir }] : [];
    }),
    pathDirs: pathDirs(input.env.PATH ?? ''),
    homes,
    wieldDirs: unique([...input.homes, ...input.wieldHomes].map((h) => realOrUndefined(path.join(h, '.wield'))).filter(isString)),
    harmless: homes.flatMap((home) =>
      HARMLESS_HOME_FILES.flatMap((rel) => {
        const dest = path.join(home, rel);
        const src = realOrUndefined(dest);
        return src !== undefined && kindOf(src) === 'file' ? [{ src, dest }] : [];
      }),
    ),
    etcSecrets: etcMasks([...ETC_SECRETS.filter((p) => kindOf(p) !== undefined), ...sshHostKeys()], opens),
    gitIdentity: {
      name: input.env.GIT_AUTHOR_NAME === undefined ? globalGitConfig('user.name', input.env) : undefined,
      email: input.env.GIT_AUTHOR_EMAIL === undefined ? globalGitConfig('user.email', input.env) : undefined,
    },
  };
}

/** One key of the user's git config (`git config --global`), as git reads it; undefined when unset or git is missing. */
function globalGitConfig(key: string, env: NodeJS.ProcessEnv): string | undefined {
  const r = spawnSync('git', ['config', '--global', '--get', key], { cwd: '/', env, encoding: 'utf8', timeout: 5_000 });
  const value = r.status === 0 ? r.stdout.trim() : '';
  return value === '' ? undefined : value;
}

/** The roots' own git folders outside them: a linked worktree's, when its folder names the root back. */
export function rootGitDirs(roots: readonly string[]): string[] {
  return roots.flatMap((root) => {
    const git = rootGit(root);
    if (git.gitFile === undefined || git.gitDirs.length === 0) return [];
    // `git worktree add` writes the worktree's `.git` path into its folder's `gitdir`; a `.git`
    // file planted in the workspace cannot make another repository say that, so its history stays out.
    const back = readText(path.join(git.gitDirs[0], 'gitdir'))?.trim();
    return back !== undefined && realOrUndefined(back) === git.gitFile ? git.gitDirs : [];
  });
}

function pathDirs(envPath: string): PathDirFact[] {
  const seen = new Set<string>();
  const out: PathDirFact[] = [];
  for (const entry of envPath.split(':')) {
    if (!path.isAbsolute(entry)) continue;
    const real = realOrUndefined(entry);
    if (real === undefined || seen.has(real) || kindOf(real) !== 'dir') continue;
    seen.add(real);
    const lib = path.basename(real) === 'bin' ? realOrUndefined(path.join(path.dirname(real), 'lib')) : undefined;
    out.push(lib === undefined ? { real } : { real, lib });
  }
  return out;
}

function sshHostKeys(): string[] {
  try {
    return readdirSync('/etc/ssh')
      .filter((name) => SSH_HOST_KEY.test(name))
      .map((name) => path.join('/etc/ssh', name));
  } catch {
    return [];
  }
}

/** Whether this user can read the file, or list or enter the folder. */
function opens(p: string): boolean {
  const can = (mode: number): boolean => {
    try {
      accessSync(p, mode);
      return true;
    } catch {
      return false;
    }
  };
  return can(constants.R_OK) || (kindOf(p) === 'dir' && can(constants.X_OK));
}

function linkTarget(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}

const isString = (x: string | undefined): x is string => x !== undefined;
const unique = (items: string[]): string[] => [...new Set(items)];
