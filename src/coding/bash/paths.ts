// Path checks for operands: inside the workspace roots and not a secret, by name and then where
// the name really leads (symlinks followed, globs expanded) through the injected WorkspaceView.
import path from 'node:path';
import { expandGlob, MAX_GLOB_MATCHES } from './glob.js';
import type { PathScope, Word } from './types.js';
import { CREDENTIAL_DIRS, CREDENTIAL_NAMES } from '../permissions/credentials.js';

// Names of files and folders that hold credentials (never auto-read), shared with the sandbox.
const SECRET_NAMES = CREDENTIAL_NAMES;
const SECRET_DIRS = CREDENTIAL_DIRS;

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

/**
 * Templates committed next to a secrets file hold placeholders, not secrets: `.env.example`, and
 * with a text format's extension after the marker, `credentials.example.json` (never `.example.pem`).
 */
const TEMPLATE_SUFFIX = /\.(?:example|sample|template|tmpl|dist)(?:\.(?:json|ya?ml|toml|ini|conf|cfg|txt|xml|properties))?$/i;

/** A segment (literal or glob) that may name a credentials file; case-insensitive. */
function maySecret(segment: string): boolean {
  if (!GLOB_CHARS.test(segment) && TEMPLATE_SUFFIX.test(segment.replace(BACKUP_SUFFIX, ''))) return false;
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
 * World-readable files that describe the system and hold nothing secret; a workspace cannot plant
 * them (they are outside it), and they are only accepted when they resolve to one of these.
 */
const PUBLIC_SYSTEM_FILES = new Set([
  '/etc/os-release',
  '/usr/lib/os-release',
  '/etc/lsb-release',
  '/etc/debian_version',
  '/etc/alpine-release',
  '/etc/redhat-release',
  '/etc/fedora-release',
  '/etc/arch-release',
  '/etc/issue',
  '/etc/timezone',
  '/etc/shells',
  // The kernel's own descriptions of the machine (proc(5)); nothing of a process or a user.
  '/proc/cpuinfo',
  '/proc/meminfo',
  '/proc/version',
  '/proc/loadavg',
  '/proc/uptime',
  '/proc/swaps',
  '/proc/filesystems',
]);

/**
 * Undefined when `word` names a file inside the workspace that is not a secret, judged from
 * every folder the command may run in. With `secrets: false` (programs that only read names and
 * metadata) secret names are allowed. A glob is judged by what it matches; every name is then
 * followed through its symlinks, as the Read tool's path guard does.
 */
export function checkPath(word: Word, scope: PathScope, secrets = true): string | undefined {
  if (word.procSub && !word.glob) return undefined;
  // Bash expands braces in a redirection's word too: `< {.env,}` reads `.env`.
  if (word.brace) return `brace expansion in \`${word.text}\` names other files than the one written`;
  if (word.dynamic)
    return substitutedInView(word, scope) ? undefined : `\`${word.text}\` is only known when the command runs, so it may name any file`;
  if (word.tilde) return `\`${word.text}\` reads outside the workspace (home folder)`;
  const value = word.value;
  if (value === '-' || value === '/dev/null') return undefined;
  if (value.includes('\0')) return `\`${word.text}\` contains a NUL byte`;
  for (const cwd of [scope.cwd, ...(scope.otherCwds ?? [])]) {
    const problem = word.glob ? globProblem(word, cwd, scope, secrets) : nameProblem(word.text, value, cwd, scope, secrets);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * A word that is exactly one command substitution (`$(git ls-files)`, its commands analysed on
 * their own), in a contained run: what it names can only be inside the view. Variables are not
 * (`$HOME/.bashrc` is written to leave the workspace).
 */
export function substitutedInView(word: Word, scope: PathScope): boolean {
  const [sub] = word.subs;
  return scope.contained && word.subs.length === 1 && (word.text === sub.text || word.text === `"${sub.text}"`);
}

/** The glob's text must pass, and so must every name it matches now. */
function globProblem(word: Word, cwd: string, scope: PathScope, secrets: boolean): string | undefined {
  const problem = nameProblem(word.text, word.value, cwd, scope, secrets);
  if (problem) return problem;
  const expanded = expandGlob(word.pattern, cwd, scope.view, { left: MAX_GLOB_MATCHES });
  if ('problem' in expanded) return expanded.problem;
  // Contained, what bash finds there is inside the view anyway; alone, an unknown match is a guess.
  if ('unknown' in expanded)
    return scope.contained ? undefined : `glob \`${word.text}\`: ${expanded.unknown}, so what it matches is unknown`;
  for (const match of expanded.matches) {
    const why = nameProblem(match, match, cwd, scope, secrets);
    if (why) return `glob \`${word.text}\` matches \`${match}\`: ${why}`;
  }
  return undefined;
}

function nameProblem(text: string, value: string, cwd: string, scope: PathScope, secrets: boolean): string | undefined {
  const abs = path.posix.resolve(cwd, value);
  if (PUBLIC_SYSTEM_FILES.has(abs) && PUBLIC_SYSTEM_FILES.has(scope.view.realPath(abs) ?? '')) return undefined;
  if (!isInside(abs, scope.roots)) return `\`${text}\` reads outside the workspace`;
  if (scope.readDenied?.(abs)) return `\`${text}\` is covered by a Read deny rule`;
  return namesProblem(value, secrets) ?? landingProblem(text, value.startsWith('/') ? value : `${cwd}/${value}`, abs, scope, secrets);
}

/**
 * Where the name lands after its symlinks (a link committed to the repository may point at
 * `~/.ssh/id_rsa`): the Read tool refuses it there, so must the analyser. `raw` keeps `..` after a
 * link, which the kernel applies to the link's target, not to the lexical parent.
 */
function landingProblem(text: string, raw: string, abs: string, scope: PathScope, secrets: boolean): string | undefined {
  const real = scope.view.realPath(raw);
  if (real === undefined) return `where \`${text}\` leads cannot be known (a symbolic link loop or one that cannot be read)`;
  if (real === abs && !scope.roots.some((r) => scope.view.realPath(r) !== r)) return undefined;
  const roots = scope.roots.map((r) => scope.view.realPath(r) ?? r);
  const root = roots.find((r) => isInside(real, [r]));
  if (root === undefined) return `\`${text}\` leads through a symbolic link to ${real}, outside the workspace`;
  if (scope.readDenied?.(real)) return `\`${text}\` leads to ${real}, which a Read deny rule covers`;
  const rel = path.posix.relative(root, real);
  return secrets && rel !== '' && mayNameSecret(rel) ? `\`${text}\` leads to \`${rel}\`, which may hold secrets` : undefined;
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

/** Entries a walk below a folder reads before it gives up (~10 ms on the bench machine). */
export const MAX_WALK_ENTRIES = 10_000;

/**
 * Why reading every file below the folders `words` name (the working folders when none) may read
 * a secret: a name below that may hold one or that a Read deny rule covers. For a recursion that
 * follows no link below its operands (`grep -r`), so links are not entered. Git's own folders and
 * installed dependencies are not walked (the sandbox's walk leaves them out too): they hold no
 * credentials files by name, and they are the bulk of a tree.
 */
export function secretBelowProblem(name: string, words: readonly Word[], scope: PathScope): string | undefined {
  const budget = { left: MAX_WALK_ENTRIES };
  for (const cwd of [scope.cwd, ...(scope.otherCwds ?? [])]) {
    const named = words.flatMap((w) => (w.glob ? globMatches(w, cwd, scope) : [w.value]));
    for (const dir of words.length === 0 ? ['.'] : named) {
      const real = scope.view.realPath(path.posix.resolve(cwd, dir));
      if (real === undefined || scope.view.kind(real) !== 'dir') continue;
      const found = walkForSecret(real, scope, budget);
      if (found === TOO_MANY) return `\`${name}\` reads every file below \`${dir}\`, too many to check for secrets`;
      if (found) return `\`${name}\` reads every file below \`${dir}\`, \`${found}\` among them, which may hold secrets`;
    }
  }
  return undefined;
}

const TOO_MANY = Symbol('too many');
const UNWALKED = new Set(['.git', 'node_modules']);

function globMatches(word: Word, cwd: string, scope: PathScope): string[] {
  const expanded = expandGlob(word.pattern, cwd, scope.view, { left: MAX_GLOB_MATCHES });
  return 'matches' in expanded ? expanded.matches : [];
}

/** The first entry below `dir` (relative to its workspace root) that may name a secret, TOO_MANY, or undefined. */
function walkForSecret(dir: string, scope: PathScope, budget: { left: number }): string | typeof TOO_MANY | undefined {
  const root = scope.roots.map((r) => scope.view.realPath(r) ?? r).find((r) => isInside(dir, [r])) ?? dir;
  const folders = [dir];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const entry of scope.view.list(folder) ?? []) {
      if (--budget.left < 0) return TOO_MANY;
      const abs = `${folder}/${entry.name}`;
      const rel = path.posix.relative(root, abs);
      // Folders are met before what they hold, so the name and its parent are enough (`.config/gh`).
      if (mayNameSecret(rel.split('/').slice(-2).join('/')) || scope.readDenied?.(abs)) return rel;
      if (entry.kind === 'dir' && !UNWALKED.has(entry.name)) folders.push(abs);
    }
  }
  return undefined;
}

/** For a folder a program changes into (git -C): the same rules. */
export function scopeAt(scope: PathScope, dir: string): PathScope {
  const others = scope.otherCwds?.map((cwd) => path.posix.resolve(cwd, dir));
  return { ...scope, cwd: path.posix.resolve(scope.cwd, dir), ...(others ? { otherCwds: others } : {}) };
}
