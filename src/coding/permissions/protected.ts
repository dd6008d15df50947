// Files no tool may write, whatever the rules and mode say: writing them would change what runs
// next (git hooks and config, shell start-up files, wield's own settings and MCP servers) or
// grant remote access (.ssh). A hard block in code, before any rule is consulted.
import path from 'node:path';
import type { ProtectedEntry } from '../sandbox/git-dirs.js';

/**
 * Folders: a write anywhere inside one is refused. `.vscode/`: an editor that trusts the folder
 * applies its settings and runs its folder-open tasks as they change (the sandbox keeps it too).
 */
const PROTECTED_DIRS = new Set(['.git', '.wield', '.ssh', '.vscode']);

/** Git's own config folder (`~/.config/git/config` is read as the user's config), found as this pair of names. */
const GIT_CONFIG_DIR = ['.config', 'git'];

/** Files refused by name wherever they are (a dotfiles repo is edited by hand, not by an agent). */
const PROTECTED_FILES = new Set([
  '.mcp.json',
  '.gitconfig',
  // bash(1) INVOCATION and zsh(1) STARTUP/SHUTDOWN FILES: read by every new shell.
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
]);

/**
 * What a Bash command that nobody approved may not change outside the workspace either (the
 * sandbox's guard binds them read-only): in each home, the folders and files above, wield's user
 * settings and its projects record (which says which projects are trusted). `wieldHomes` are the folders holding `.wield/`.
 */
export function protectedOutsideWorkspace(homes: readonly string[], wieldHomes: readonly string[]): ProtectedEntry[] {
  const files = [...PROTECTED_FILES].filter((name) => name !== '.mcp.json');
  // A missing folder gets a stand-in while a command runs, not an empty folder left in the home.
  const dirs = ['.ssh', path.join(...GIT_CONFIG_DIR)];
  const wield = ['settings.json', 'projects.json'].map((name) => path.join('.wield', name));
  const entries = [
    ...homes.flatMap((home) => [
      ...files.map((name): ProtectedEntry => ({ path: path.join(home, name), kind: 'file' })),
      ...dirs.map((name): ProtectedEntry => ({ path: path.join(home, name), kind: 'dir', leaveMissing: true })),
    ]),
    ...[...homes, ...wieldHomes].flatMap((home) => wield.map((rel): ProtectedEntry => ({ path: path.join(home, rel), kind: 'file' }))),
  ];
  return entries.filter((e, i) => entries.findIndex((o) => o.path === e.path) === i);
}

/**
 * Why writing `absPath` is refused, or undefined when it is not protected. Compared
 * case-insensitively, since macOS and Windows file systems fold case (`.GIT/hooks` is `.git/hooks`).
 */
export function protectedWriteReason(absPath: string): string | undefined {
  const segments = path
    .resolve(absPath)
    .split(path.sep)
    .filter(Boolean)
    .map((s) => s.toLowerCase());
  const pair = segments.findIndex((s, i) => s === GIT_CONFIG_DIR[0] && segments[i + 1] === GIT_CONFIG_DIR[1]);
  const dir =
    segments.find((s) => PROTECTED_DIRS.has(s)) ?? (pair >= 0 && pair + 2 < segments.length ? GIT_CONFIG_DIR.join('/') : undefined);
  if (dir)
    return `${absPath} is inside a protected ${dir}/ folder, which tools may not write (it controls what runs or who gets access); edit it yourself if needed`;
  const name = segments.at(-1) ?? '';
  if (PROTECTED_FILES.has(name)) return `${absPath} is a protected file (${name}), which tools may not write; edit it yourself if needed`;
  return undefined;
}
