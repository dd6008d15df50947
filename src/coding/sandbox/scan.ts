// The walk of a workspace root the sandbox plan makes before every command: secrets matching the
// deny patterns (a .env created since the last command is hidden too) and the folders holding a
// `.git`. The walk reads every folder (~10 ms for 5,000 files in 50 folders on the bench machine),
// so its answer is kept and reused while no folder it walked has changed: a name created, removed
// or renamed in a folder changes that folder's modification and change times, and a stat of each
// folder costs ~0.1 ms for the same tree. The change time is kept too since a command can set the
// modification time back, not the change time. A folder changed within the last CLOCK_SLACK_MS
// of a walk is not trusted (a file system's clock ticks coarsely: a second change in the same
// tick would leave the times as they were), so that walk is not kept.
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'tinyglobby';

export interface RootScan {
  secrets: string[];
  repositories: string[];
}

const CLOCK_SLACK_MS = 2_000;

/**
 * Decides, for each entry of the walk (absolute and root-relative path), whether it is hidden on
 * top of the patterns. Compared by identity for the kept walk: pass the same function each time.
 */
export type HidePredicate = (absPath: string, relPath: string) => boolean;

interface Kept {
  folders: string[];
  stamps: string[];
  scan: RootScan;
}

/** Kept per root, patterns and hide predicate: the profiles (contained, sandboxed, guarded) alternate in one session. */
const kept = new Map<string, Kept>();
const hideIds = new WeakMap<HidePredicate, number>();
let lastHideId = 0;

function keptKey(root: string, hide: HidePredicate | undefined): string {
  if (hide === undefined) return root;
  let id = hideIds.get(hide);
  if (id === undefined) {
    id = ++lastHideId;
    hideIds.set(hide, id);
  }
  return `${root}\0${id}`;
}

/** What the walk of `root` finds, from the last walk when no folder in it has changed since. */
export function scanRoot(root: string, patterns: readonly string[], exempt: readonly string[], hide?: HidePredicate): RootScan {
  const key = JSON.stringify([patterns, exempt]);
  const at = `${keptKey(root, hide)}\0${key}`;
  const last = kept.get(at);
  if (last?.folders.every((folder, i) => stamp(folder) === last.stamps[i])) return last.scan;
  const started = Date.now();
  const scan = walk(root, patterns, exempt);
  if (hide !== undefined) scan.secrets = [...new Set([...scan.secrets, ...hiddenEntries(root, exempt, hide)])];
  // Every folder the walk could have read, itself included; `.git` folders are not read (only seen).
  const folders = [root, ...listFolders(root)];
  const stamps = folders.map(stamp);
  const settled = folders.every((folder) => {
    const changed = changeTime(folder);
    return changed !== undefined && changed < started - CLOCK_SLACK_MS;
  });
  if (settled) kept.set(at, { folders, stamps, scan });
  else kept.delete(at);
  return scan;
}

function walk(root: string, patterns: readonly string[], exempt: readonly string[]): RootScan {
  const matches = globSync([...patterns, '**/.git'], {
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

/**
 * Every entry `hide` names, but not below a hidden folder (its mask covers them) and not links:
 * bwrap would mount over a link's target, and inside the view a link either leads to a file
 * that is itself checked or out of the view, to nothing.
 */
function hiddenEntries(root: string, exempt: readonly string[], hide: HidePredicate): string[] {
  const entries = globSync(['**'], {
    cwd: root,
    dot: true,
    onlyFiles: false,
    followSymbolicLinks: false,
    ignore: [...exempt, '**/node_modules/**', '**/.git/**', '**/.git'],
  })
    .map((rel) => rel.replace(/\/+$/, ''))
    .sort();
  const found: string[] = [];
  for (const rel of entries) {
    const abs = path.join(root, rel);
    if (found.some((dir) => abs.startsWith(`${dir}/`)) || !hide(abs, rel)) continue;
    if (!lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) found.push(abs);
  }
  return found;
}

/** The folders the walk above reads (a superset: exempt names are not left out). */
function listFolders(root: string): string[] {
  return globSync(['**/'], {
    cwd: root,
    absolute: true,
    dot: true,
    onlyDirectories: true,
    followSymbolicLinks: false,
    ignore: ['**/node_modules/**', '**/.git/**', '**/.git'],
  }).map((m) => m.replace(/\/+$/, ''));
}

function stamp(folder: string): string {
  try {
    const s = statSync(folder, { throwIfNoEntry: false });
    return s === undefined ? '-' : `${s.mtimeMs}:${s.ctimeMs}:${s.ino}`;
  } catch {
    return '-';
  }
}

function changeTime(folder: string): number | undefined {
  try {
    const s = statSync(folder, { throwIfNoEntry: false });
    return s === undefined ? undefined : Math.max(s.mtimeMs, s.ctimeMs);
  } catch {
    return undefined;
  }
}
