// Every program the analyser knows as read-only (given read-only arguments).
import type { ProgramSpec } from '../program.js';
import { AWKS } from './awk.js';
import { BASIC } from './basic.js';
import { FILE_INFO } from './file-info.js';
import { FILES } from './files.js';
import { FIND } from './find.js';
import { GIT } from './git.js';
import { JQ } from './jq.js';
import { SEARCH } from './search.js';
import { SED } from './sed.js';
import { TEXT } from './text.js';
import { TOOLS } from './tools.js';
import { WRAPPERS } from './wrappers.js';

export const PROGRAMS: ReadonlyMap<string, ProgramSpec> = new Map(
  Object.entries({ ...BASIC, ...FILES, ...FILE_INFO, ...TEXT, ...SEARCH, ...GIT, ...SED, ...AWKS, ...WRAPPERS, ...TOOLS, ...JQ, ...FIND }),
);

/** Why well-known programs are not read-only, for clearer messages than "unknown program". */
export const KNOWN_UNSAFE: Readonly<Record<string, string>> = Object.fromEntries([
  ...['rm', 'rmdir', 'unlink', 'shred'].map((n) => [n, 'deletes files']),
  ...['mv', 'cp', 'touch', 'mkdir', 'ln', 'tee', 'dd', 'truncate', 'install', 'split', 'csplit', 'patch'].map((n) => [n, 'writes files']),
  ...['chmod', 'chown', 'chgrp', 'chattr', 'setfacl'].map((n) => [n, 'changes file permissions or owners']),
  ...[
    'curl',
    'wget',
    'ssh',
    'scp',
    'sftp',
    'rsync',
    'nc',
    'ncat',
    'netcat',
    'telnet',
    'ftp',
    'ping',
    'dig',
    'nslookup',
    'host',
    'whois',
    'traceroute',
  ].map((n) => [n, 'reaches the network']),
  ...['sudo', 'su', 'doas', 'pkexec'].map((n) => [n, 'runs a command with other privileges']),
  ...['eval', 'exec', 'source', '.', 'coproc', 'trap', 'watch', 'nohup', 'setsid', 'script'].map((n) => [n, 'runs arbitrary commands']),
  ...['perl', 'ruby', 'php', 'lua', 'deno', 'bun', 'zsh', 'fish', 'ksh', 'csh', 'tcsh', 'powershell', 'pwsh'].map((n) => [
    n,
    'is an interpreter that can run any code',
  ]),
  ...['npx', 'pnpm', 'yarn', 'pip', 'pip3', 'cargo', 'go', 'make', 'mvn', 'gradle', 'apt', 'apt-get', 'brew', 'yum', 'dnf'].map((n) => [
    n,
    'builds, installs or runs project code',
  ]),
  ...['kill', 'pkill', 'killall', 'systemctl', 'service', 'reboot', 'shutdown'].map((n) => [n, 'stops processes or services']),
  ...['alias', 'unalias', 'export', 'set', 'shopt', 'pushd', 'popd', 'hash', 'enable', 'history', 'ulimit'].map((n) => [
    n,
    'changes the shell session',
  ]),
  ...['vi', 'vim', 'nvim', 'nano', 'emacs', 'ed', 'less', 'more', 'man'].map((n) => [
    n,
    'is interactive and can run commands or write files',
  ]),
]);
