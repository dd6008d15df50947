// The files git's config points at, which a command must not write so that git run later outside
// the sandbox cannot be made to run a program: the core.hooksPath folder (and, for husky's `_`
// folder, the scripts beside it that its hooks run), the files include.path and includeIf name,
// every config file git reads, and the programs config keys run (core.fsmonitor, filters, diff
// drivers, ssh and editor commands, `!` aliases…) when they are paths. Git itself is asked which
// config it reads (as in the Bash tool's git check), so commondir, config.worktree and includes
// are followed exactly as git follows them. A conditional include whose condition is false now
// (`onbranch:` another branch) is read too, with what it includes: a command can switch branch.
// The listing (one spawn, ~5 ms) is cached per repository and redone when any file it came from,
// or could come from, changes: the config files read, the included ones (missing or not), the
// repository's own config files and the user's and system's (even when missing, since creating
// one is a change). A synchronous stat of each: ~0.1 ms.
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { isRiskyGitKey, parseGitConfigList, type GitConfigEntry } from '../tools/git-config-risk.js';
import { rootGit, type ProtectedEntry } from './git-dirs.js';

const run = promisify(execFile);
const GIT_TIMEOUT_MS = 5_000;

/** Keys whose value is a command git runs, beyond those the git check already names. */
const COMMAND_KEY =
  /^(core\.(editor|pager)|sequence\.editor|merge\..+\.driver|remote\..+\.(uploadpack|receivepack)|alias\..+|pager\..+|interactive\.difffilter)$/;

interface Cached {
  fingerprint: string;
  files: string[];
  entries: ProtectedEntry[];
}

const cache = new Map<string, Cached>();

/** What git's config in the repository at `top` makes git run or read, as paths to keep read-only. */
export async function gitConfigTargets(top: string, home: string): Promise<ProtectedEntry[]> {
  const hit = cache.get(top);
  if (hit !== undefined && fingerprint(hit.files) === hit.fingerprint) return hit.entries;
  const listed = await listConfig(top, []);
  if (listed === undefined) return [];
  const config = parseGitConfigList(listed);
  const files = unique(config.filter((e) => e.file !== '' && e.scope !== 'command').map((e) => path.resolve(top, e.file)));
  config.push(...(await inactiveIncludes(config, files, top, home)));
  const entries = [
    ...files.map((file): ProtectedEntry => ({ path: file, kind: 'file' })),
    ...config.flatMap((entry) => targetsOf(entry, top, home)),
  ];
  // Includes that name a missing file count too: creating one is what a new entry looks like.
  const watched = unique([
    ...files,
    ...entries.filter((e) => e.kind === 'file').map((e) => e.path),
    ...rootGit(top).gitDirs.flatMap((dir) => [path.join(dir, 'config'), path.join(dir, 'config.worktree')]),
    ...userConfigFiles(process.env),
  ]);
  cache.set(top, { fingerprint: fingerprint(watched), files: watched, entries });
  return entries;
}

/** Max include depth, as git's own (MAX_INCLUDE_DEPTH in config.c). */
const MAX_INCLUDE_DEPTH = 10;

/**
 * Entries of the included files git did not read (a condition false now), and of what those
 * include, read without conditions. Pure but for one `git config --file` listing per such file.
 */
async function inactiveIncludes(config: GitConfigEntry[], read: string[], top: string, home: string): Promise<GitConfigEntry[]> {
  const seen = new Set(read);
  const found: GitConfigEntry[] = [];
  let pending = config;
  for (let depth = 0; depth < MAX_INCLUDE_DEPTH && pending.length > 0; depth++) {
    const next = pending
      .filter((e) => isIncludeKey(e.key.toLowerCase()))
      .flatMap((e) => targetsOf(e, top, home))
      .map((t) => t.path)
      .filter((file) => !seen.has(file));
    for (const file of next) seen.add(file);
    const listings = await Promise.all(next.map((file) => listConfig(top, ['--file', file, '--no-includes'])));
    pending = listings.flatMap((out) => (out === undefined ? [] : parseGitConfigList(out)));
    found.push(...pending);
  }
  return found;
}

const isIncludeKey = (key: string): boolean => key === 'include.path' || /^includeif\..+\.path$/.test(key);

/** The user's and the system's config files, where git looks for them (git-config(1), FILES). */
function userConfigFiles(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ?? '';
  const xdg = env.XDG_CONFIG_HOME ?? path.join(home, '.config');
  return [
    path.join(home, '.gitconfig'),
    path.join(xdg, 'git', 'config'),
    '/etc/gitconfig',
    ...[env.GIT_CONFIG_GLOBAL, env.GIT_CONFIG_SYSTEM].filter((f): f is string => f !== undefined && f !== ''),
  ];
}

/** The paths one config entry points at. Pure. */
export function targetsOf(entry: GitConfigEntry, top: string, home: string): ProtectedEntry[] {
  const key = entry.key.toLowerCase();
  const expand = (p: string, base: string): string => (p.startsWith('~/') ? path.join(home, p.slice(2)) : path.resolve(base, p));
  if (isIncludeKey(key)) {
    // Relative to the including file's folder (git-config(1), "Includes"); a missing one reads as empty.
    return [{ path: expand(entry.value, path.dirname(path.resolve(top, entry.file))), kind: 'file', placeholder: '' }];
  }
  if (key === 'core.hookspath') {
    const dir = expand(entry.value, top);
    // husky 9: hooksPath is `.husky/_`, whose hooks run the scripts in `.husky/`.
    return path.basename(dir) === '_'
      ? [
          { path: dir, kind: 'dir' },
          { path: path.dirname(dir), kind: 'dir' },
        ]
      : [{ path: dir, kind: 'dir' }];
  }
  if (!isRiskyGitKey(key) && !COMMAND_KEY.test(key)) return [];
  // An alias without `!` runs a git subcommand, not a program.
  if (key.startsWith('alias.') && !entry.value.startsWith('!')) return [];
  return commandPaths(entry.value).map((word) => ({ path: expand(word, top), kind: 'file' }));
}

/** Words of a command value that name a file (`./tools/clean.sh --x`, `!sh scripts/a.sh`): those with a slash. */
function commandPaths(value: string): string[] {
  return value
    .replace(/^!/, '')
    .split(/\s+/)
    .map((word) => word.replace(/^["']|["';]$/g, ''))
    .filter((word) => word.includes('/') && !word.includes('://') && !word.startsWith('-'));
}

async function listConfig(top: string, only: string[]): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', ['--no-pager', 'config', ...only, '--list', '--show-scope', '--show-origin', '-z'], {
      cwd: top,
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    });
    return stdout;
  } catch {
    // No git, or git refuses the repository (then it runs nothing from it either).
    return undefined;
  }
}

/** Change time as well as modification time: a command can set the latter back, not the former. */
function fingerprint(files: readonly string[]): string {
  return files
    .map((f) => {
      try {
        const s = statSync(f, { throwIfNoEntry: false });
        return s === undefined ? '-' : `${s.mtimeMs}:${s.ctimeMs}:${s.size}:${s.ino}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
