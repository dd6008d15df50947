// A checked-out folder can carry its own .git/config, and some keys there make even "read-only"
// git commands run programs (core.fsmonitor runs on `git status`; textconv and external diff
// drivers on `git diff`/`log -p`; filters on any index refresh). The Bash analyser judges the
// command line; this looks at the repository the command would run in.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Config keys (lower-case `section[.subsection].key`) under which git runs a program or reads
 * another config file. Sources: git-config(1) — core.fsmonitor, diff.external,
 * diff.<driver>.textconv / .command, filter.<driver>.clean / smudge / process, include.path and
 * includeIf.<cond>.path, core.gitProxy, core.sshCommand, core.askPass, credential.helper,
 * gpg.program, uploadpack.packObjectsHook, core.alternateRefsCommand.
 */
const RISKY_KEY =
  /^(core\.(fsmonitor|gitproxy|sshcommand|askpass|alternaterefscommand)|diff\.external|diff\..+\.(textconv|command)|filter\..+\.(clean|smudge|process)|include\.path|includeif\..+\.path|credential(\..+)?\.helper|gpg(\..+)?\.program|uploadpack\.packobjectshook)$/;

/** The names of risky keys a git config file sets, in file order. */
export function riskyGitConfigKeys(text: string): string[] {
  const found: string[] = [];
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\s+/, '');
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      section = header[2] === undefined ? header[1].toLowerCase() : `${header[1].toLowerCase()}.${header[2]}`;
      // `[section] key = value` on the header's line is valid git config.
      const rest = line.slice(header[0].length).trim();
      if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) continue;
      const key = /^([A-Za-z][A-Za-z0-9-]*)/.exec(rest)?.[1];
      if (key && RISKY_KEY.test(`${section}.${key.toLowerCase()}`)) found.push(`${section}.${key}`);
      continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$)/.exec(line)?.[1];
    if (key && section && RISKY_KEY.test(`${section}.${key.toLowerCase()}`)) found.push(`${section}.${key}`);
  }
  return found;
}

/** The config file of the repository git would find from cwd (walking up, as git does). */
export function repositoryConfigPath(cwd: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const stats = fs.statSync(dotGit, { throwIfNoEntry: false });
    if (stats?.isDirectory()) return path.join(dotGit, 'config');
    if (stats?.isFile()) {
      // A worktree or submodule: `.git` is a file naming the real git dir.
      const target = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? '')?.[1]?.trim();
      if (target) return path.join(path.resolve(dir, target), 'config');
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

const MENTIONS_GIT = /(^|[\s/;&|(`])git(\s|$)/;

/**
 * Why running these commands in cwd could execute programs from the repository's own config,
 * or undefined. Only commands that mention git are considered.
 */
export function gitConfigRisk(commands: readonly string[], cwd: string): string | undefined {
  if (!commands.some((command) => MENTIONS_GIT.test(command))) return undefined;
  const config = repositoryConfigPath(cwd);
  const text = config === undefined ? undefined : readText(config);
  if (text === undefined) return undefined;
  const keys = riskyGitConfigKeys(text);
  if (keys.length === 0) return undefined;
  return `this repository's git config (${config}) sets ${keys.slice(0, 3).join(', ')}, which makes git run programs or read other files even for read-only commands; approve git commands here yourself`;
}
