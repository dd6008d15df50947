// Verdicts that hold against what the workspace plants. Each hole is shown first in real bash in a
// temp folder (a planted symlink prints a file from a temp "home" outside the workspace, a glob
// writes a second file, a here-document hides a command), with the verdict a text-only analysis
// gives (a view that answers nothing about the file system, as the analyser was before), and then
// the verdict against the real file system.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { hostView } from '../../../src/coding/bash/host-view.js';
import type { WorkspaceView } from '../../../src/coding/bash/types.js';

let tmp: string;
let ws: string;
let home: string;

/** What the analyser saw before it looked at the file system: every path is what it says. */
const textOnly: WorkspaceView = {
  realPath: (p) => path.posix.resolve(p),
  kind: () => undefined,
  list: () => undefined,
  env: () => undefined,
};

const verdict = (command: string, view?: WorkspaceView, readDenied?: (p: string) => boolean) =>
  analyzeBash(command, { cwd: ws, roots: [ws], view, readDenied, contained: true });

function bash(command: string, env: Record<string, string> = {}): string {
  return execFileSync('bash', ['-c', command], {
    cwd: ws,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

beforeAll(async () => {
  await loadBashAnalyzer();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-ws-')));
  home = path.join(tmp, 'home');
  ws = path.join(tmp, 'ws');
  // Names that are not secret by themselves, so only where they lead gives them away.
  fs.mkdirSync(path.join(home, 'keys'), { recursive: true });
  fs.writeFileSync(path.join(home, 'keys', 'deploy.txt'), 'PRIVATE KEY\n');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'foo\n');
  fs.writeFileSync(path.join(ws, 'src', 'b.ts'), 'bar\n');
  fs.writeFileSync(path.join(ws, '.env'), 'TOKEN=1\n');
  fs.writeFileSync(path.join(ws, '.env.example'), 'TOKEN=\n');
  fs.writeFileSync(path.join(ws, 'package.json'), '{"version":"1.2.3"}\n');
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Links planted by a test, removed after it whatever happened. */
const planted: string[] = [];
function plant(target: string, name: string): void {
  fs.symlinkSync(target, path.join(ws, name));
  planted.push(path.join(ws, name));
}
afterEach(() => {
  for (const link of planted.splice(0)) fs.rmSync(link, { force: true });
});

describe('planted symlinks (class 1)', () => {
  it('a file, a folder or a middle component that leads outside is not read-only', () => {
    plant(path.join(home, 'keys', 'deploy.txt'), 'notes.txt');
    plant(path.join(home, 'keys'), 'docs');
    plant(path.join(home, 'keys'), 'src/up');
    for (const command of [
      'cat notes.txt',
      'cat docs/deploy.txt',
      'head src/up/deploy.txt',
      'cat src/up/../keys/deploy.txt',
      'ls docs',
      'grep -r KEY docs',
    ]) {
      const shown = bash(`${command} 2>&1 || true`);
      if (!command.startsWith('ls')) expect(shown, command).toContain('PRIVATE');
      expect(verdict(command, textOnly).readOnly, command).toBe(true);
      expect(verdict(command).readOnly, command).toBe(false);
    }
    expect(verdict('cat notes.txt').reason).toMatch(/symbolic link to .*outside the workspace/);
  });

  it('a link inside the workspace onto a secret or a denied file is not read-only either', () => {
    plant('.env', 'readme.txt');
    fs.writeFileSync(path.join(ws, 'private.json'), '{}');
    plant('private.json', 'public.json');
    expect(bash('cat readme.txt')).toContain('TOKEN=1');
    expect(verdict('cat readme.txt', textOnly).readOnly).toBe(true);
    expect(verdict('cat readme.txt').reason).toMatch(/leads to `\.env`/);
    const denied = (p: string) => p.endsWith('/private.json');
    expect(verdict('cat public.json', undefined, denied).reason).toMatch(/Read deny rule/);
    fs.unlinkSync(path.join(ws, 'private.json'));
  });
});

describe('globs (class 2)', () => {
  it('an operand limit counts the names a glob expands to', () => {
    fs.writeFileSync(path.join(ws, 'one.txt'), 'a\na\n');
    fs.writeFileSync(path.join(ws, 'two.txt'), 'keep\n');
    bash('uniq *.txt');
    expect(fs.readFileSync(path.join(ws, 'two.txt'), 'utf8')).toBe('a\n');
    expect(verdict('uniq *.txt', textOnly).readOnly).toBe(true);
    expect(verdict('uniq *.txt').reason).toMatch(/second operand is an output file/);
    fs.unlinkSync(path.join(ws, 'two.txt'));
    expect(verdict('uniq *.txt').readOnly).toBe(true);
    fs.unlinkSync(path.join(ws, 'one.txt'));
  });

  it('Read deny rules and symlinks are checked on what a glob matches, not on its text', () => {
    fs.writeFileSync(path.join(ws, 'prod.txt'), 'password: x\n');
    const denied = (p: string) => p.endsWith('/prod.txt');
    expect(bash('cat *.txt')).toContain('password');
    expect(verdict('cat *.txt', textOnly, denied).readOnly).toBe(true);
    expect(verdict('cat *.txt', undefined, denied).reason).toMatch(/`prod.txt` is covered by a Read deny rule/);
    fs.unlinkSync(path.join(ws, 'prod.txt'));
    plant(path.join(home, 'keys', 'deploy.txt'), 'src/c.ts');
    expect(bash('cat src/*.ts')).toContain('PRIVATE');
    expect(verdict('cat src/*.ts').reason).toMatch(/outside the workspace/);
    expect(verdict('for f in src/*.ts; do wc -l "$f"; done').readOnly).toBe(false);
  });

  it('a file name a glob turns into an option is parsed as one', () => {
    fs.writeFileSync(path.join(ws, 'src', '-o.ts'), '');
    expect(verdict('sort src/*.ts').readOnly).toBe(true);
    expect(verdict('cd src && sort *').readOnly).toBe(false);
    fs.unlinkSync(path.join(ws, 'src', '-o.ts'));
  });
});

describe('here-document delimiters (class 6)', () => {
  it.each([
    ['cat <<E"O"F\nx\nEOF\ntouch pwned\nE"O"F', 'quotes inside the word'],
    ["cat <<E$'O'F\nx\nEOF\ntouch pwned\nEOF", "$'…' inside the word"],
    ['cat <<EOF\nEO\\\nF\ntouch pwned\nEOF', 'a backslash-newline joins the end line'],
  ])('%j is not read-only (%s)', (command) => {
    fs.rmSync(path.join(ws, 'pwned'), { force: true });
    bash(`${command} 2>/dev/null || true`);
    expect(fs.existsSync(path.join(ws, 'pwned'))).toBe(true);
    fs.rmSync(path.join(ws, 'pwned'));
    expect(verdict(command).readOnly).toBe(false);
  });

  it.each(["cat <<'EOF'\n$(x)\nEOF", 'cat <<"EOF"\nx\nEOF', 'cat <<\\EOF\nx\nEOF', 'cat <<-EOF\n\tx\n\tEOF', 'cat <<EOF\nx\nEOF'])(
    'a bare or fully quoted delimiter is still fine: %j',
    (command) => expect(verdict(command).readOnly).toBe(true),
  );
});

describe('secret-named variables (class 8)', () => {
  const names = [
    'DATABASE_URL',
    'REDIS_URL',
    'MONGO_URI',
    'SENTRY_DSN',
    'DB_PWD',
    'GITHUB_PAT',
    'STRIPE_KEY',
    'SIGNING_KEYS',
    'APP_SECRET_V2',
  ];
  const more = ['AWS_CREDENTIALS', 'NPM_AUTH', 'SESSION_ID', 'JWT', 'PG_CONNECTION_STRING', 'MY_CREDS', 'HMAC_SALT', 'OTP_SEED'];
  it.each([...names, ...more])('`echo $%s` is not read-only', (name) => {
    expect(bash(`echo $${name}`, { [name]: 'hunter2' }).trim()).toBe('hunter2');
    expect(verdict(`echo $${name}`).readOnly).toBe(false);
    expect(verdict(`printenv ${name}`).readOnly).toBe(false);
  });

  it('a value that is a credential counts whatever the name', () => {
    const view = { ...hostView(), env: (n: string) => ({ BACKEND: 'postgres://app:hunter2@db/app', GREETING: 'hello' })[n] };
    expect(verdict('echo "$BACKEND"', view).reason).toMatch(/looks like a credential/);
    expect(verdict('echo "$GREETING" $PWD $OLDPWD $HOME $PATH', view).readOnly).toBe(true);
  });
});

describe('friction: read-only commands that are allowed', () => {
  it.each([
    'grep -n foo -- *.ts',
    'grep -n foo -- src/*.ts',
    'cat .env.example',
    'git config user.email',
    'cd src && ls',
    'for f in src/*.ts; do wc -l "$f"; done',
    "find . -name '*.ts' -exec grep -l foo {} +",
    'git cherry -v',
    'git submodule status',
    'basename "$PWD"',
    'printenv HOME',
    'jq -r .version package.json',
    'cat /etc/os-release',
  ])('%s', (command) => {
    const a = verdict(command);
    expect(a.reason).toMatch(/read-only/);
    expect(a.readOnly).toBe(true);
  });

  it.each([
    ['cd src && cat ../../home/keys/deploy.txt', /outside the workspace/],
    ['cd src; cat ../.env', /secrets/],
    ['(cd src); cat ../package.json', /outside the workspace/],
    ['git config user.password', /credential/],
    ['git config user.email x@y', /changes configuration/],
    ['jq -n env', /environment/],
    ['jq -n "\\(\\$ENV.HOME)"', /environment/],
    ['jq -r . --rawfile k .env package.json', /reads a file/],
    ['jq -L. -n 1', /modules/],
    ['jq -nf prog.jq', /from a file/],
    ['printenv', /whole environment/],
    ["find . -name '*.env' -exec cat {} +", /secrets/],
    ['find src -type f -exec wc -l {} \\;', /secrets/],
    ["find . -name '*.ts' -o -exec cat {} +", /-o/],
    ['cat /etc/passwd', /outside the workspace/],
  ])('%s is not read-only', (command, why) => {
    const a = verdict(command);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(why);
  });

  it('find -exec is refused when a symlink below could hand the command a file outside', () => {
    plant(path.join(home, 'keys', 'deploy.txt'), 'src/key.ts');
    expect(bash("find src -name '*.ts' -exec cat {} +")).toContain('PRIVATE');
    expect(verdict("find src -name '*.ts' -exec cat {} +").reason).toMatch(/symbolic links/);
  });
});

describe('Read deny rules vs git paths (class 7)', () => {
  it('REV:path, pathspecs and whole-history reads honour Read deny rules', () => {
    const repo = path.join(ws, 'proj');
    fs.mkdirSync(path.join(repo, 'config'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'config', 'prod.yml'), 'password: hunter2\n');
    fs.writeFileSync(path.join(repo, 'a.ts'), 'x\n');
    const git = (command: string) =>
      bash(`cd proj && git -c user.name=t -c user.email=t@e.invalid ${command}`, { GIT_CONFIG_NOSYSTEM: '1' });
    git('init -q . && git add . && git -c user.name=t -c user.email=t@e.invalid commit -qm init');
    expect(git('show HEAD:config/prod.yml')).toContain('hunter2');
    const denied = (p: string) => p.startsWith(path.join(repo, 'config'));
    const at = (command: string) => analyzeBash(command, { cwd: repo, roots: [repo], readDenied: denied, contained: true });
    for (const command of [
      'git show HEAD:config/prod.yml',
      'git log -p',
      'git diff HEAD',
      'git grep hunter2',
      'git log -p -- config',
      "git log -p -- '*.yml'",
    ]) {
      expect(at(command).readOnly, command).toBe(false);
    }
    expect(at('git log -p -- a.ts').readOnly).toBe(true);
    expect(at('git show HEAD:a.ts').readOnly).toBe(true);
    expect(analyzeBash('git log -p', { cwd: repo, roots: [repo], contained: true }).readOnly).toBe(true);
  });
});

describe('configuration the workspace controls (class 3)', () => {
  it('npm reads the project .npmrc, which can send its logs outside the workspace', () => {
    const logs = path.join(tmp, 'npm-logs');
    fs.writeFileSync(path.join(ws, '.npmrc'), `logs-dir=${logs}\n`);
    bash('npm ls --offline >/dev/null 2>&1 || true');
    expect(fs.readdirSync(logs).length).toBeGreaterThan(0);
    expect(verdict('npm ls', textOnly).readOnly).toBe(true);
    expect(verdict('npm ls').reason).toMatch(/\.npmrc/);
    expect(verdict('cd src && npm ls').reason).toMatch(/\.npmrc/);
    fs.unlinkSync(path.join(ws, '.npmrc'));
    expect(verdict('npm ls').readOnly).toBe(true);
    fs.writeFileSync(path.join(ws, '.tool-versions'), 'nodejs 18.0.0\n');
    expect(verdict('node --version').reason).toMatch(/tool-versions/);
    fs.unlinkSync(path.join(ws, '.tool-versions'));
  });
});

describe('option parsers that are not getopt (class 5)', () => {
  it('clap and lexopt read `-f=VALUE` without the `=`', () => {
    expect(verdict('rg -f=/etc/shadow x').reason).toMatch(/outside the workspace/);
    expect(verdict('fd --ignore-file=../x y').readOnly).toBe(false);
    expect(verdict('rg -e=foo src').readOnly).toBe(true);
  });
});
