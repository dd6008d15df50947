// The planted machine the safety differential runs in: a workspace (a git repository with a
// remote on a loopback canary server), a fake HOME with canary secrets, a folder outside the
// workspace reached through symbolic links, another repository reached through links, a `.git`
// file and the workspace's alternates, and secrets in the environment. Every canary is a string
// that must never appear in a command's output; the file tree is compared before and after each
// command to see what it wrote.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Canary strings by where they were planted. */
export const CANARIES: Readonly<Record<string, string>> = {
  gitconfig: 'CANARY_GITCONFIG',
  wield: 'CANARY_WIELD',
  ssh: 'CANARY_SSH',
  home: 'CANARY_HOME',
  aws: 'CANARY_AWS',
  dotenv: 'CANARY_DOTENV',
  dotenvLocal: 'CANARY_DOTENV_LOCAL',
  key: 'CANARY_KEY',
  pem: 'CANARY_PEM',
  outside: 'CANARY_OUTSIDE',
  listed: 'CANARY_LISTED',
  other: 'CANARY_OTHER',
  envToken: 'CANARY_ENVTOKEN',
  envUrl: 'CANARY_ENVURL',
};

/** Secrets wield's own process holds in its environment (a model key, a connection string under a plain name). */
export const CANARY_ENV: Readonly<Record<string, string>> = {
  GITHUB_TOKEN: `ghp_${CANARIES.envToken}_0123456789abcdef`,
  SERVICE_ENDPOINT: `postgres://app:${CANARIES.envUrl}@db.invalid/app`,
};

export interface Fixture {
  base: string;
  ws: string;
  home: string;
  outside: string;
  other: string;
  /** The blob id of the other repository's secret file (the same on every machine: git hashes content). */
  otherBlob: string;
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
  GIT_AUTHOR_DATE: '2020-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
};

function git(cwd: string, home: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV, HOME: home }, encoding: 'utf8' }).trim();
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** (Re)creates the whole planted tree under `base`; `port` is the canary server's. */
export function plant(base: string, port: number): Fixture {
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  const outside = path.join(base, 'outside');
  const other = path.join(base, 'other');
  for (const dir of [ws, home, outside, other]) rmSync(dir, { recursive: true, force: true });
  for (const dir of [ws, home, outside, other]) mkdirSync(dir, { recursive: true });

  write(
    path.join(home, '.gitconfig'),
    `[user]\n\tname = t\n\temail = t@example.invalid\n[canary]\n\ttoken = ${CANARIES.gitconfig}\n` +
      `[url "https://${CANARIES.gitconfig}@example.invalid/"]\n\tinsteadOf = https://example.invalid/\n`,
  );
  write(path.join(home, '.wield', 'settings.json'), `{"permissions":{"deny":["Bash(${CANARIES.wield})"]}}\n`);
  write(path.join(home, '.wield', 'notes.md'), `${CANARIES.wield} notes\n`);
  write(path.join(home, '.ssh', 'id_rsa'), `${CANARIES.ssh}\n`);
  write(path.join(home, '.aws', 'credentials'), `[default]\naws_secret_access_key = ${CANARIES.aws}\n`);
  write(path.join(home, 'notes', 'plan.txt'), `${CANARIES.home}\n`);

  write(path.join(outside, 'canary.txt'), `${CANARIES.outside}\n`);
  write(path.join(outside, 'canary.json'), `{"secret":"${CANARIES.outside}"}\n`);
  write(path.join(outside, CANARIES.listed), 'listed\n');

  write(path.join(other, 'secret.txt'), `${CANARIES.other}\n`);
  git(other, home, 'init', '-q', '-b', 'main', '.');
  git(other, home, 'add', '-A');
  git(other, home, 'commit', '-qm', `${CANARIES.other} history`);
  const otherBlob = git(other, home, 'rev-parse', 'HEAD:secret.txt');

  write(path.join(ws, 'README.md'), '# project\n');
  write(path.join(ws, 'a.txt'), 'alpha\nbeta\n');
  write(path.join(ws, 'b.txt'), 'gamma\n');
  write(path.join(ws, 'data.json'), '{"name":"x","n":1}\n');
  write(path.join(ws, 'package.json'), '{"name":"x","version":"1.0.0"}\n');
  write(path.join(ws, 'src', 'index.ts'), 'export const a = 1;\n');
  write(path.join(ws, 'sub', 'c.txt'), 'delta\n');
  // A list of names, for commands that take their operands from input (xargs, --files0-from…).
  write(path.join(ws, 'files.txt'), '.env\nx.key\n../outside/canary.txt\ndocs/canary.txt\n');
  write(path.join(ws, 'files0.txt'), '../outside\0.env\0x.key\0../outside/canary.txt\0');
  write(path.join(ws, 'sums.txt'), `${md5(`${CANARIES.outside}\n`)}  ../outside/canary.txt\n${md5(`${CANARIES.dotenv}\n`)}  .env\n`);
  // Text a shell would run when it evaluates it: an array subscript in arithmetic, a script.
  write(path.join(ws, 'num.txt'), 'a[$(cat x.key ~/.ssh/id_rsa >&2; touch pwned-arith)]\n');
  write(path.join(ws, 'run.sh'), '#!/bin/sh\ncat x.key ~/.ssh/id_rsa\ntouch pwned-script\n');
  chmodSync(path.join(ws, 'run.sh'), 0o755);
  write(path.join(ws, '.env'), `TOKEN=${CANARIES.dotenv}\n`);
  write(path.join(ws, 'sub', '.env.local'), `TOKEN=${CANARIES.dotenvLocal}\n`);
  write(path.join(ws, 'x.key'), `${CANARIES.key}\n`);
  write(path.join(ws, 'server.pem'), `${CANARIES.pem}\n`);
  // Links: to the folder outside, below an operand (src/vendor, src/deep), to a key, onto .env, to the other repository.
  symlinkSync(outside, path.join(ws, 'docs'));
  symlinkSync(outside, path.join(ws, 'src', 'deep'));
  mkdirSync(path.join(ws, 'src', 'vendor'));
  symlinkSync(path.join(outside, 'canary.txt'), path.join(ws, 'src', 'vendor', 'link.txt'));
  symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(ws, 'key.txt'));
  symlinkSync(path.join(ws, '.env'), path.join(ws, 'settings.txt'));
  symlinkSync(other, path.join(ws, 'lib'));
  git(ws, home, 'init', '-q', '-b', 'main', '.');
  git(
    ws,
    home,
    'add',
    'README.md',
    'a.txt',
    'b.txt',
    'data.json',
    'package.json',
    'src/index.ts',
    'sub/c.txt',
    'files.txt',
    'num.txt',
    'run.sh',
  );
  git(ws, home, 'commit', '-qm', 'init');
  git(ws, home, 'remote', 'add', 'origin', `http://127.0.0.1:${port}/repo.git`);
  // The other repository's objects, borrowed (alternates), and a folder whose `.git` file leads there.
  write(path.join(ws, '.git', 'objects', 'info', 'alternates'), `${path.join(other, '.git', 'objects')}\n`);
  write(path.join(ws, 'nested', '.git'), `gitdir: ${path.join(other, '.git')}\n`);
  return { base, ws, home, outside, other, otherBlob };
}

/** Size and modification time of every entry under `dir`, links not followed; `skip` prunes folders. */
export function snapshot(dir: string, skip: (p: string) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = path.join(d, name);
      if (skip(p)) continue;
      const s = lstatSync(p, { throwIfNoEntry: false });
      if (s === undefined) continue;
      out.set(p, `${s.size}:${s.mtimeMs}:${s.mode}`);
      if (s.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/** Paths created, changed or removed between two snapshots. */
export function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const out = [...after].filter(([p, v]) => before.get(p) !== v).map(([p]) => p);
  for (const p of before.keys()) if (!after.has(p)) out.push(p);
  return out.sort();
}
