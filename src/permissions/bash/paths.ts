// Lexical path checks for operands: inside the workspace roots and not a secret. Symlinks are not
// followed here (the analyser is pure); the path guard does that for tools that touch files.
import path from 'node:path';
import picomatch from 'picomatch';
import type { PathScope, Word } from './types.js';

/** Names of files and folders that hold credentials; never auto-read. */
const SECRET_NAMES = [
  '.ssh', '.aws', '.gnupg', '.kube', '.docker', '.azure', '.config/gcloud', '.password-store',
  '.env', '.env.*', '.envrc', '*.env', '.netrc', '.pgpass', '.git-credentials', 'credentials',
  'credentials.json', '.npmrc', '.pypirc', '.htpasswd', 'shadow', 'gshadow', 'sudoers',
  '*.pem', '*.key', '*.p12', '*.pfx', '*.keystore', '*.jks', 'id_rsa*', 'id_dsa*', 'id_ecdsa*',
  'id_ed25519*', 'secrets.*', '*.secret', '*.secrets', '.bash_history', '.zsh_history',
];
const isSecretName = picomatch(SECRET_NAMES, { dot: true, nocase: true });
/** Concrete names a glob is tried against, to see whether it could match a secret. */
const SECRET_SAMPLES = [
  '.ssh', '.aws', '.gnupg', '.env', '.env.local', '.envrc', 'prod.env', '.netrc', '.pgpass',
  '.git-credentials', 'credentials', '.npmrc', '.pypirc', 'shadow', 'server.pem', 'server.key',
  'cert.p12', 'id_rsa', 'id_ed25519', 'secrets.json', 'x.secret',
];

const GLOB_CHARS = /[*?[]/;

function segmentProblem(segment: string): string | undefined {
  if (GLOB_CHARS.test(segment)) {
    // `.*`, `.?`, `?.`, `[.]…` can match `..` and climb out of the workspace.
    if (/^[.?[]/.test(segment)) return `glob \`${segment}\` may match \`..\``;
    const matcher = picomatch(segment, { dot: false });
    if (SECRET_SAMPLES.some((name) => matcher(name))) return `glob \`${segment}\` may match a secrets file`;
    return undefined;
  }
  return isSecretName(segment) ? `\`${segment}\` may hold secrets` : undefined;
}

export function isInside(abs: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = path.posix.relative(path.posix.resolve(root), abs);
    return rel === '' || (rel !== '..' && !rel.startsWith('../') && !path.posix.isAbsolute(rel));
  });
}

/** Undefined when `word` names a file inside the workspace that is not a secret. */
export function checkPath(word: Word, scope: PathScope): string | undefined {
  if (word.procSub && !word.glob) return undefined;
  if (word.dynamic) return `\`${word.text}\` is only known when the command runs, so it may name any file`;
  if (word.tilde) return `\`${word.text}\` reads outside the workspace (home folder)`;
  const value = word.value;
  if (value === '-' || value === '/dev/null') return undefined;
  if (value.includes('\0')) return `\`${word.text}\` contains a NUL byte`;
  const abs = path.posix.resolve(scope.cwd, value);
  if (!isInside(abs, scope.roots)) return `\`${word.text}\` reads outside the workspace`;
  for (const segment of value.split('/')) {
    const problem = segmentProblem(segment);
    if (problem) return problem;
  }
  return undefined;
}

/** For a folder a program changes into (git -C): the same rules. */
export function scopeAt(scope: PathScope, dir: string): PathScope {
  return { cwd: path.posix.resolve(scope.cwd, dir), roots: scope.roots };
}
