// What the analyser lets run unasked with and without containment. Contained, it only decides
// friction (the view holds no home, no secrets, no network, nothing writable); alone, only the
// audited core runs. Each hole of the analyser alone is shown first in real bash in a temp folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import type { WorkspaceView } from '../../../src/coding/bash/types.js';

let tmp: string;
let ws: string;
let home: string;
const verdict = (command: string, contained: boolean) => analyzeBash(command, { cwd: ws, roots: [ws], contained });

function bash(command: string): string {
  return execFileSync('bash', ['-c', command], {
    cwd: ws,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', PAGER: 'cat', GIT_PAGER: 'cat' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

beforeAll(async () => {
  await loadBashAnalyzer();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-contain-')));
  home = path.join(tmp, 'home');
  ws = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(home, 'notes'), { recursive: true });
  fs.writeFileSync(path.join(home, 'notes', 'plan.txt'), 'CANARY outside\n');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'config'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'export {};\n');
  fs.writeFileSync(path.join(ws, 'README.md'), '# x\n');
  fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"x","version":"1.2.3"}\n');
  fs.writeFileSync(path.join(ws, 'config', 'credentials.example.json'), '{"token":"<your token>"}\n');
  bash('git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -q -m init');
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Daily commands that were friction (issue 23), then everyday ones; each must run when contained. */
const FRICTION = [
  'git -C src log',
  'wc -l $(git ls-files)',
  'git show-branch',
  'umask',
  'free -h',
  'cat /proc/cpuinfo',
  'npm pkg get version',
  'cat config/credentials.example.json',
  "find src -name '*.ts' | xargs wc -l",
  'grep -c x $(git ls-files src)',
  'cat /proc/meminfo',
  'umask -S',
  'git show-branch --list',
  'npm pkg get name version',
];
const DAILY = [
  'ls -la',
  'git status',
  'git log --oneline -5',
  'git diff HEAD',
  'head -n 20 README.md',
  'grep -rn TODO src',
  'du -sh .',
  'uname -a',
];

describe('contained: the analyser decides friction only', () => {
  it('auto-runs at least 90% of the friction set', () => {
    const asks = FRICTION.filter((c) => !verdict(c, true).readOnly);
    const share = (FRICTION.length - asks.length) / FRICTION.length;
    console.log(`friction set auto-run (contained): ${(share * 100).toFixed(1)}% (${FRICTION.length - asks.length}/${FRICTION.length})`);
    for (const c of asks) console.log(`  asks: ${c} — ${verdict(c, true).reason}`);
    expect(share).toBeGreaterThanOrEqual(0.9);
  });

  it.each(DAILY)('runs %s', (command) => {
    expect(verdict(command, true).readOnly).toBe(true);
  });

  it.each([
    'npm install',
    'curl https://example.com',
    'git push',
    'git fetch',
    'touch x',
    'sort -o out README.md',
    'wc -l $(git ls-files) > counts.txt',
    'git config user.name me',
    'umask 077',
    'npm pkg set version=2.0.0',
    'find . $(echo -delete)',
    'cat $HOME/notes/plan.txt',
    "git ls-files | xargs -I{} sh -c 'echo {}'",
    'free -s 1',
  ])('still asks for writes, network and embedded programs: %s', (command) => {
    expect(verdict(command, true).readOnly).toBe(false);
  });
});

describe('alone: only the audited core runs', () => {
  it.each([
    'ls -la',
    'cat README.md',
    'head -n 5 README.md src/a.ts',
    'wc -l README.md',
    'grep -rn export src',
    'umask',
    'free -h',
    'cat /proc/cpuinfo',
    'cat config/credentials.example.json',
    'du -sh .',
    'pwd',
  ])('runs %s', (command) => {
    expect(verdict(command, false).readOnly).toBe(true);
  });

  it.each([
    'git status',
    'git -C src log',
    'wc -l $(git ls-files)',
    'npm pkg get version',
    "find src -name '*.ts' | xargs wc -l",
    'ls | xargs cat',
    "awk '{print}' README.md",
    'sed -n 1p README.md',
    'jq . package.json',
    'rg TODO',
    'tree -L 2',
    "sh -c 'ls'",
    'timeout 5 ls',
  ])('asks for %s (outside the core)', (command) => {
    expect(verdict(command, false)).toMatchObject({ readOnly: false, reason: expect.stringMatching(/contained|only known|xargs/) });
  });

  it('grep -R follows a link out of the workspace (shown in bash); alone it asks', () => {
    fs.symlinkSync(path.join(home, 'notes'), path.join(ws, 'src', 'linked'));
    try {
      expect(bash('grep -R CANARY src')).toContain('CANARY outside');
      expect(bash('grep -r CANARY src || true')).not.toContain('CANARY');
      expect(verdict('grep -R CANARY src', false)).toMatchObject({
        readOnly: false,
        reason: expect.stringMatching(/follows symbolic links/),
      });
      expect(verdict('grep -r CANARY src', false).readOnly).toBe(true);
      expect(verdict('ls -RL src', false).readOnly).toBe(false);
      expect(verdict('du -L src', false).readOnly).toBe(false);
      // Contained, the link leads nowhere: the view holds no home.
      expect(verdict('grep -R CANARY src', true).readOnly).toBe(true);
    } finally {
      fs.rmSync(path.join(ws, 'src', 'linked'));
    }
  });

  // Found by the safety differential (bench/safety-diff.bench.ts): `grep -r` read `.env` and `*.key` below its folder.
  it('grep -r reads the secrets below its folder (shown in bash); alone it asks while one is there', () => {
    fs.mkdirSync(path.join(ws, 'conf', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'conf', 'app.txt'), 'plain\n');
    fs.writeFileSync(path.join(ws, 'conf', 'deep', '.env'), 'CANARY_ENV=1\n');
    try {
      expect(bash('grep -r CANARY conf')).toContain('CANARY_ENV=1');
      expect(bash('cd conf && grep -rh CANARY')).toContain('CANARY_ENV=1');
      for (const command of [
        'grep -r CANARY conf',
        'grep -rn CANARY .',
        'grep -r CANARY',
        'grep -d recurse CANARY conf',
        'grep --directories=recurse CANARY c*',
        'cd conf && grep -rh CANARY',
      ]) {
        expect(verdict(command, false), command).toMatchObject({
          readOnly: false,
          reason: expect.stringMatching(/deep\/\.env.*may hold secrets/),
        });
        // Contained, the view hides it: the analyser only decides friction.
        expect(verdict(command, true).readOnly, command).toBe(true);
      }
      // Nothing secret below, or no recursion: as before.
      expect(verdict('grep -rn export src', false).readOnly).toBe(true);
      expect(verdict('grep CANARY conf/app.txt', false).readOnly).toBe(true);
      // A file a Read deny rule covers counts too.
      fs.rmSync(path.join(ws, 'conf', 'deep', '.env'));
      const denied = (abs: string): boolean => abs === path.join(ws, 'conf', 'app.txt');
      expect(analyzeBash('grep -r x conf', { cwd: ws, roots: [ws], readDenied: denied })).toMatchObject({
        readOnly: false,
        reason: expect.stringMatching(/conf\/app\.txt/),
      });
      expect(verdict('grep -r x conf', false).readOnly).toBe(true);
    } finally {
      fs.rmSync(path.join(ws, 'conf'), { recursive: true, force: true });
    }
  });

  // Found by the safety differential: bash brace-expands a redirection's word, and `{.env,}` is the one word `.env`.
  it('a brace in the file of a redirection names another file (shown in bash); it asks', () => {
    fs.writeFileSync(path.join(ws, '.env'), 'CANARY_ENV=1\n');
    try {
      expect(bash('cat < {.env,}')).toBe('CANARY_ENV=1\n');
      expect(bash('cat < {,../home/notes/plan.txt}')).toBe('CANARY outside\n');
      for (const command of ['cat < {.env,}', 'cat < {,../home/notes/plan.txt}', 'head -n1 <{.env,}', 'cat < {src,}/a.ts']) {
        for (const contained of [false, true])
          expect(verdict(command, contained), command).toMatchObject({ readOnly: false, reason: expect.stringMatching(/brace expansion/) });
      }
      // Quoted, it is a name like any other.
      expect(verdict('cat < "{.env,}"', false).readOnly).toBe(true);
    } finally {
      fs.rmSync(path.join(ws, '.env'));
    }
  });

  // Found by the safety differential: the list file is in the workspace, the files it names need not be.
  it('du --files0-from and md5sum -c read what a list file names (shown in bash); alone they ask', () => {
    fs.writeFileSync(path.join(ws, 'list0'), '../home/notes\0');
    fs.writeFileSync(path.join(ws, 'sums'), `${bash('md5sum ../home/notes/plan.txt')}`);
    try {
      expect(bash('du -a --files0-from=list0')).toContain('../home/notes/plan.txt');
      expect(bash('md5sum -c sums')).toBe('../home/notes/plan.txt: OK\n');
      for (const command of [
        'du -a --files0-from=list0',
        'du --files0-from list0',
        'du --files0=list0',
        'md5sum -c sums',
        'sha256sum --check sums',
      ]) {
        expect(verdict(command, false), command).toMatchObject({ readOnly: false, reason: expect.stringMatching(/list file/) });
        // Contained, what the list names is outside the view.
        expect(verdict(command, true).readOnly, command).toBe(true);
      }
      expect(verdict('du -a src', false).readOnly).toBe(true);
      expect(verdict('md5sum sums', false).readOnly).toBe(true);
    } finally {
      for (const file of ['list0', 'sums']) fs.rmSync(path.join(ws, file));
    }
  });

  it('a recursion below a folder too large to check asks when alone', () => {
    const view: WorkspaceView = {
      realPath: (p) => path.posix.resolve(p),
      kind: () => 'dir',
      list: (dir) => (dir === '/w/big' ? Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}.txt`, kind: 'file' as const })) : []),
      env: () => undefined,
    };
    const at = (command: string, contained: boolean) => analyzeBash(command, { cwd: '/w', roots: ['/w'], view, contained });
    expect(at('grep -r x big', false)).toMatchObject({ readOnly: false, reason: expect.stringMatching(/too many to check/) });
    expect(at('grep -r x big', true).readOnly).toBe(true);
    expect(at('grep x big/f1.txt', false).readOnly).toBe(true);
  });

  it('git status runs a program named in ~/.gitconfig (shown in bash); alone git asks', () => {
    const mark = path.join(tmp, 'fsmonitor-ran');
    fs.writeFileSync(path.join(home, '.gitconfig'), `[core]\n\tfsmonitor = "touch ${mark}; false"\n`);
    try {
      bash('git status --short >/dev/null 2>&1 || true');
      expect(fs.existsSync(mark)).toBe(true);
      expect(verdict('git status', false)).toMatchObject({ readOnly: false, reason: expect.stringMatching(/contained/) });
    } finally {
      fs.rmSync(path.join(home, '.gitconfig'));
    }
  });

  it('a glob in a folder that cannot be listed is a guess: alone it asks', () => {
    const view: WorkspaceView = {
      realPath: (p) => path.posix.resolve(p),
      kind: () => 'dir',
      list: () => undefined,
      env: () => undefined,
    };
    const at = (contained: boolean) => analyzeBash('cat logs/*.txt', { cwd: '/w', roots: ['/w'], view, contained });
    expect(at(false)).toMatchObject({ readOnly: false, reason: expect.stringMatching(/unknown/) });
    expect(at(true).readOnly).toBe(true);
  });
});
