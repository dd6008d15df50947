// Lexical path checks for operands: inside the workspace roots and not a secret. Symlinks are not
// followed here (the analyser is pure); the path guard does that for tools that touch files.
import path from 'node:path';
import type { PathScope, Word } from './types.js';

/** Names of files and folders that hold credentials; never auto-read. `*` is the only wildcard. */
const SECRET_NAMES = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.kube',
  '.docker',
  '.azure',
  '.password-store',
  '.env',
  '.env.*',
  '.envrc',
  '*.env',
  '.netrc',
  '.pgpass',
  '.git-credentials',
  'credentials',
  'credentials.*',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.htpasswd',
  '.vault-token',
  '.boto',
  '.s3cfg',
  '.my.cnf',
  '.terraformrc',
  '.dockercfg',
  'shadow',
  'gshadow',
  'sudoers',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.ppk',
  '*.keystore',
  '*.jks',
  '*.kdbx',
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  'secrets.*',
  '*.secret',
  '*.secrets',
  '*.tfstate',
  '*.tfvars',
  'service-account*.json',
  '.bash_history',
  '.zsh_history',
];
/** Credential folders named by two segments. */
const SECRET_DIRS = [
  ['.config', 'gcloud'],
  ['.config', 'gh'],
];

/** One character position of a glob: a literal (lower-cased), or ANY for `?` and `[…]`; STAR for `*`. */
const ANY = '\u0000any';
const STAR = '\u0000star';

function tokens(glob: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (out[out.length - 1] !== STAR) out.push(STAR);
    } else if (c === '?') {
      out.push(ANY);
    } else if (c === '[' && glob.indexOf(']', i + 2) > 0) {
      // A bracket expression matches one character; which one is not worked out (stricter).
      i = glob.indexOf(']', i + 2);
      out.push(ANY);
    } else {
      out.push(c.toLowerCase());
    }
  }
  return out;
}

/** Whether some name matches both token lists (dynamic programming over the two positions). */
function overlap(a: readonly string[], b: readonly string[]): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (b.length + 1) + j;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let ok = i === a.length && j === b.length;
    if (!ok && a[i] === STAR) ok = go(i + 1, j) || (j < b.length && go(i, j + 1));
    if (!ok && b[j] === STAR) ok = go(i, j + 1) || (i < a.length && go(i + 1, j));
    if (!ok && i < a.length && j < b.length && a[i] !== STAR && b[j] !== STAR) {
      ok = (a[i] === b[j] || a[i] === ANY || b[j] === ANY) && go(i + 1, j + 1);
    }
    memo.set(key, ok);
    return ok;
  };
  return go(0, 0);
}

const SECRET_TOKENS = SECRET_NAMES.map(tokens);
/**
 * Names that are secrets by their stem (`secrets.*`, `id_rsa*`). A glob's leading `*` matches any
 * stem, so against these it only counts as empty: `*.md` could match `secrets.md`, but refusing
 * every `*.md` helps nobody, while `id_*` and `.env*` are still refused.
 */
const STEM = SECRET_NAMES.map((n) => n.endsWith('*'));
const DOTS = [tokens('.'), tokens('..')];

/** Editor and backup copies (`.env~`, `.npmrc.bak`) hold the same secrets as the file. */
const BACKUP_SUFFIX = /(?:~|\.~\d+~|\.(?:bak|backup|old|orig|save|sav|swp|swo|tmp))+$/i;

const GLOB_CHARS = /[*?[]/;

/** The names as one expression for literal segments (most are): only a glob needs the overlap search. */
const SECRET_LITERAL = new RegExp(
  `^(?:${SECRET_NAMES.map((n) => n.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')).join('|')})$`,
  'is',
);

/** A segment (literal or glob) that may name a credentials file; case-insensitive. */
function maySecret(segment: string): boolean {
  const bare = segment.replace(BACKUP_SUFFIX, '');
  if (bare !== segment && bare !== '' && maySecret(bare)) return true;
  if (!GLOB_CHARS.test(segment)) return SECRET_LITERAL.test(segment);
  const t = tokens(segment);
  const unanchored = t[0] === STAR ? t.slice(1) : t;
  return SECRET_TOKENS.some((s, k) => overlap(STEM[k] ? unanchored : t, s));
}

function segmentProblem(segment: string, secrets: boolean): string | undefined {
  const glob = GLOB_CHARS.test(segment);
  // A leading `*` or `?` never matches `.` or `..`; a literal dot or a bracket may (`.*`, `[.]*`).
  if (glob && /^[.[]/.test(segment) && DOTS.some((d) => overlap(tokens(segment), d))) {
    return `glob \`${segment}\` may match \`..\``;
  }
  if (!secrets || !maySecret(segment)) return undefined;
  return glob ? `glob \`${segment}\` may match a secrets file` : `\`${segment}\` may hold secrets`;
}

export function isInside(abs: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = path.posix.relative(path.posix.resolve(root), abs);
    return rel === '' || (rel !== '..' && !rel.startsWith('../') && !path.posix.isAbsolute(rel));
  });
}

/**
 * Undefined when `word` names a file inside the workspace that is not a secret. With
 * `secrets: false` (programs that only read names and metadata) secret names are allowed.
 */
export function checkPath(word: Word, scope: PathScope, secrets = true): string | undefined {
  if (word.procSub && !word.glob) return undefined;
  if (word.dynamic) return `\`${word.text}\` is only known when the command runs, so it may name any file`;
  if (word.tilde) return `\`${word.text}\` reads outside the workspace (home folder)`;
  const value = word.value;
  if (value === '-' || value === '/dev/null') return undefined;
  if (value.includes('\0')) return `\`${word.text}\` contains a NUL byte`;
  const abs = path.posix.resolve(scope.cwd, value);
  if (!isInside(abs, scope.roots)) return `\`${word.text}\` reads outside the workspace`;
  if (scope.readDenied?.(abs)) return `\`${word.text}\` is covered by a Read deny rule`;
  return namesProblem(value, secrets);
}

/** A relative path (literal or glob) whose segments may be `..` or, with `secrets`, a credentials file. */
function namesProblem(value: string, secrets: boolean): string | undefined {
  const segments = value.split('/');
  for (const segment of segments) {
    const problem = segmentProblem(segment, secrets);
    if (problem) return problem;
  }
  const pair = secrets ? secretPair(segments) : -1;
  return pair < 0 ? undefined : `\`${segments[pair]}/${segments[pair + 1]}\` may hold secrets`;
}

/** Where two segments in a row name a credentials folder (`.config/gh`), or -1. */
function secretPair(segments: readonly string[]): number {
  for (let i = 0; i + 1 < segments.length; i++) {
    const pair = [tokens(segments[i]), tokens(segments[i + 1])];
    if (SECRET_DIRS.some(([d, f]) => overlap(pair[0], tokens(d)) && overlap(pair[1], tokens(f)))) return i;
  }
  return -1;
}

/** Whether a path (literal or glob), wherever it points, may name a credentials file or folder. */
export function mayNameSecret(value: string): boolean {
  const segments = value.split('/');
  return segments.some(maySecret) || secretPair(segments) >= 0;
}

/** Undefined when a path inside some tree (a git revision's `rev:path`, a pathspec) names no credentials file. */
export function secretProblem(value: string): string | undefined {
  return namesProblem(value, true);
}

/** For a folder a program changes into (git -C): the same rules. */
export function scopeAt(scope: PathScope, dir: string): PathScope {
  return { ...scope, cwd: path.posix.resolve(scope.cwd, dir) };
}
