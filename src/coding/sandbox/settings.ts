// Sandbox settings (the `sandbox` key of settings.json) and the defaults that make it safe
// when a key is left out.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { HOME_CREDENTIALS } from '../permissions/credentials.js';

export const sandboxSettingsSchema = z.strictObject({
  /** Run Bash commands inside bubblewrap. Off unless set (settings or `--sandbox`). */
  enabled: z.boolean().optional(),
  /**
   * With the sandbox on, a Bash call that would ask runs sandboxed without asking (permission
   * engine). Off unless set: such a command may still change or delete the workspace's files and
   * reach the allowed hosts, without anyone having seen it.
   */
  autoAllowBash: z.boolean().optional(),
  /** Folders writable inside the sandbox besides the workspace roots (`~/` allowed). */
  writableRoots: z.array(z.string()).optional(),
  /**
   * Paths made unreadable, added to DEFAULT_DENY_READ. Absolute or `~/` entries are paths;
   * other entries are file-name patterns searched in the writable roots (`.env.*`, `*.pem`),
   * and `!pattern` exempts names (`!.env.example`).
   */
  denyRead: z.array(z.string()).optional(),
  /**
   * Hosts reachable from the sandbox, through wield's HTTP(S) proxy (`example.com`, `*.example.com`
   * for subdomains too). Everything else stays unreachable; without hosts there is no network.
   */
  network: z.strictObject({ allowedHosts: z.array(z.string()).optional() }).optional(),
  /** bwrap binary; found on PATH when left out. */
  bwrapPath: z.string().min(1).optional(),
  /**
   * Commands nobody approved (proven read-only, or allowed by a mode or a hook) run in the view of
   * the machine (view.ts): the workspace (read-only when proven read-only), system folders, PATH,
   * no home, no network, secrets masked; rule-allowed ones sandboxed. Default true; needs only
   * bubblewrap, not `enabled`. False runs them as the rest (guarded when the sandbox is off).
   */
  contain: z.boolean().optional(),
  // Renamed: said plainly rather than as an unknown key.
  sandboxReadOnly: z.never({ error: 'renamed to sandbox.contain (false runs commands that need no approval uncontained)' }).optional(),
});

/** The `sandbox` key of settings.json. */
export type SandboxSettings = z.infer<typeof sandboxSettingsSchema>;

/**
 * Credentials a command has no business reading: those in the home folder (the list the Bash
 * analyser refuses too) and `.env` files in the workspace.
 */
export const DEFAULT_DENY_READ: readonly string[] = [
  ...HOME_CREDENTIALS,
  '.env',
  '.env.*',
  // Templates that projects commit on purpose; reading them is useful and leaks nothing.
  '!.env.example',
  '!.env.sample',
  '!.env.template',
];

export interface ProtectedPath {
  rel: string;
  kind: 'dir' | 'file';
  /**
   * A missing file is created with this content and then mounted read-only, so a command cannot
   * create it. Only where git reads the content exactly as it reads no file at all.
   */
  placeholder?: string;
  /** A missing folder gets no lasting empty mount point (it would appear in every project): a stand-in while a command runs (stand-ins.ts). */
  leaveMissing?: true;
}

/**
 * Paths inside each workspace root that a sandboxed command may read but never change: those that
 * make something run later without a further decision of the person. `.vscode/` is there because
 * an editor that already trusts the folder applies its settings.json (interpreter and tool paths)
 * and runs its folder-open tasks as they change; files that run only when someone runs them
 * (Makefile, package.json scripts, .envrc, which direnv runs only after `direnv allow`) are not.
 */
export const PROTECTED_PATHS: readonly ProtectedPath[] = [
  { rel: '.wield', kind: 'dir' },
  // No placeholder: an empty file is not JSON, and would break whatever reads .mcp.json. Missing, a stand-in.
  { rel: '.mcp.json', kind: 'file' },
  { rel: '.vscode', kind: 'dir', leaveMissing: true },
];

/**
 * Entries of a git folder that make git run programs or read its config from elsewhere: hooks,
 * config (core.fsmonitor, filters, include.path…), config.worktree (read when
 * extensions.worktreeConfig is on) and commondir (where config and hooks are read from).
 * A missing one gets a placeholder rather than a check after the command: git run meanwhile
 * outside (a terminal next to wield) would read a file the command made, and an empty mount
 * point, which bwrap would leave behind, makes git die on commondir ("failed to read"). An
 * empty config reads as no config; commondir "." names the git folder itself, where git looks
 * without the file (status, commit, worktree and gc behave the same; only
 * `git rev-parse --git-common-dir` prints the path absolute).
 */
export const PROTECTED_GIT_PATHS: readonly ProtectedPath[] = [
  { rel: 'hooks', kind: 'dir' },
  { rel: 'config', kind: 'file', placeholder: '' },
  { rel: 'config.worktree', kind: 'file', placeholder: '' },
  { rel: 'commondir', kind: 'file', placeholder: '.\n' },
];

/** In each linked worktree's folder (.git/worktrees/NAME): what points it at config. */
export const PROTECTED_WORKTREE_PATHS: readonly ProtectedPath[] = [
  { rel: 'commondir', kind: 'file' },
  { rel: 'config.worktree', kind: 'file', placeholder: '' },
];

/** Expands a leading `~` and resolves relative paths against `base`. */
export function expandPath(p: string, base: string, home: string = os.homedir()): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return path.resolve(base, p);
}

export interface DenyReadSpec {
  /** Absolute paths to mask. */
  paths: string[];
  /** Glob patterns (relative to each writable root) whose matches are masked. */
  patterns: string[];
  /** Glob patterns exempted from `patterns`. */
  exempt: string[];
}

/** Splits the deny list into fixed paths and name patterns; pure. */
export function parseDenyRead(entries: readonly string[], home: string = os.homedir()): DenyReadSpec {
  const spec: DenyReadSpec = { paths: [], patterns: [], exempt: [] };
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry.startsWith('!')) {
      spec.exempt.push(toRootGlob(entry.slice(1)));
    } else if (entry === '~' || entry.startsWith('~/') || path.isAbsolute(entry)) {
      spec.paths.push(expandPath(entry, '/', home));
    } else {
      spec.patterns.push(toRootGlob(entry));
    }
  }
  return spec;
}

// A bare name matches at any depth, as in .gitignore; a name with a slash is anchored at the root.
function toRootGlob(pattern: string): string {
  const trimmed = pattern.replace(/^\/+/, '');
  return trimmed.includes('/') ? trimmed : `**/${trimmed}`;
}

/** Whether a Bash call that would ask runs sandboxed instead: only when both keys say so (autoAllowBash is opt-in). */
export function autoAllowsBash(settings: SandboxSettings): boolean {
  return settings.enabled === true && settings.autoAllowBash === true;
}
