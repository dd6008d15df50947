// Sandbox settings (the `sandbox` key of settings.json) and the defaults that make it safe
// when a key is left out.
import os from 'node:os';
import path from 'node:path';

export interface SandboxSettings {
  /** Run Bash commands inside bubblewrap. Off unless set (settings or `--sandbox`). */
  enabled?: boolean;
  /** With the sandbox on, a Bash call that would ask runs sandboxed without asking (permission engine). */
  autoAllowBash?: boolean;
  /** Folders writable inside the sandbox besides the workspace roots (`~/` allowed). */
  writableRoots?: string[];
  /**
   * Paths made unreadable, added to DEFAULT_DENY_READ. Absolute or `~/` entries are paths;
   * other entries are file-name patterns searched in the writable roots (`.env.*`, `*.pem`),
   * and `!pattern` exempts names (`!.env.example`).
   */
  denyRead?: string[];
  /**
   * Hosts reachable from the sandbox, through wield's HTTP(S) proxy (`example.com`, `*.example.com`
   * for subdomains too). Everything else stays unreachable; without hosts there is no network.
   */
  network?: { allowedHosts?: string[] };
  /** bwrap binary; found on PATH when left out. */
  bwrapPath?: string;
  /** Sandbox commands the analyser proves read-only too (defence in depth). Default true. */
  sandboxReadOnly?: boolean;
}

/** Credentials a command has no business reading. */
export const DEFAULT_DENY_READ: readonly string[] = [
  '~/.ssh',
  '~/.aws',
  '~/.config/gcloud',
  '~/.netrc',
  '.env',
  '.env.*',
  // Templates that projects commit on purpose; reading them is useful and leaks nothing.
  '!.env.example',
  '!.env.sample',
  '!.env.template',
];

/** Paths inside each writable root that a sandboxed command may read but never change. */
export const PROTECTED_PATHS: readonly { rel: string; kind: 'dir' | 'file' }[] = [
  { rel: '.git/hooks', kind: 'dir' },
  { rel: '.git/config', kind: 'file' },
  { rel: '.wield', kind: 'dir' },
  { rel: '.mcp.json', kind: 'file' },
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
