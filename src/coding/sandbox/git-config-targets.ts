// The files git's config points at, which a command must not write so that git run later outside
// the sandbox cannot be made to run a program: the core.hooksPath folder (and, for husky's `_`
// folder, the scripts beside it that its hooks run), the files include.path and includeIf name,
// every config file git reads, and the programs config keys run (core.fsmonitor, filters, diff
// drivers, ssh and editor commands, `!` aliases…) when they are paths. Git itself is asked which
// config it reads (as in the Bash tool's git check), so commondir, config.worktree and includes
// are followed exactly as git follows them.
// The listing (one spawn, ~5 ms) is cached per repository and redone when any config file it came
// from changes (a stat of each: well under 1 ms), since those files are what a new entry needs.
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { isRiskyGitKey, parseGitConfigList, type GitConfigEntry } from '../tools/git-config-risk.js';
import type { ProtectedEntry } from './git-dirs.js';

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
  if (hit !== undefined && (await fingerprint(hit.files)) === hit.fingerprint) return hit.entries;
  const listed = await listConfig(top);
  if (listed === undefined) return [];
  const config = parseGitConfigList(listed);
  const files = unique(config.filter((e) => e.file !== '' && e.scope !== 'command').map((e) => path.resolve(top, e.file)));
  const entries = [
    ...files.map((file): ProtectedEntry => ({ path: file, kind: 'file' })),
    ...config.flatMap((entry) => targetsOf(entry, top, home)),
  ];
  // Includes that name a missing file count too: creating one is what a new entry looks like.
  const watched = unique([...files, ...entries.filter((e) => e.kind === 'file').map((e) => e.path)]);
  cache.set(top, { fingerprint: await fingerprint(watched), files: watched, entries });
  return entries;
}

/** The paths one config entry points at. Pure. */
export function targetsOf(entry: GitConfigEntry, top: string, home: string): ProtectedEntry[] {
  const key = entry.key.toLowerCase();
  const expand = (p: string, base: string): string => (p.startsWith('~/') ? path.join(home, p.slice(2)) : path.resolve(base, p));
  if (key === 'include.path' || /^includeif\..+\.path$/.test(key)) {
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

async function listConfig(top: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', ['--no-pager', 'config', '--list', '--show-scope', '--show-origin', '-z'], {
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

async function fingerprint(files: readonly string[]): Promise<string> {
  const stats = await Promise.all(
    files.map((f) =>
      stat(f).then(
        (s) => `${s.mtimeMs}:${s.size}:${s.ino}`,
        () => '-',
      ),
    ),
  );
  return stats.join('|');
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
