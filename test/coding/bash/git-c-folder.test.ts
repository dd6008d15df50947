// `git -C <dir>`: git looks for the repository from <dir> up. A folder of the workspace's own
// repository reads only its (trusted) config, so it runs unasked; a nested repository brings its
// own config, which can run programs on a read (shown in real bash in a temp folder), so it asks.
// `-c` stays refused: it can set such programs itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../src/coding/bash/index.js';

let tmp: string;
let ws: string;
const verdict = (command: string, cwd = ws) => analyzeBash(command, { cwd, roots: [ws], contained: true });

function bash(command: string): string {
  return execFileSync('bash', ['-c', command], {
    cwd: ws,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, GIT_CONFIG_NOSYSTEM: '1', PAGER: 'cat', GIT_PAGER: 'cat' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

beforeAll(async () => {
  await loadBashAnalyzer();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-git-c-')));
  ws = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(ws, 'src', 'deep'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'vendor', 'lib', 'inner'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'deep', 'a.ts'), 'export {};\n');
  fs.writeFileSync(path.join(ws, 'vendor', 'lib', 'inner', 'b.c'), 'int b;\n');
  bash('git init -q . && git add src && git -c user.name=t -c user.email=t@t commit -q -m init');
  // A nested repository (vendored code, an extracted fixture) whose config runs a program on status.
  bash(
    'cd vendor/lib && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -q -m v && ' +
      `git config core.fsmonitor "touch ${path.join(tmp, 'ran')}; false"`,
  );
  fs.symlinkSync(path.join(ws, 'vendor', 'lib'), path.join(ws, 'lib-link'));
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('git -C <dir>', () => {
  it.each([
    'git -C src log',
    'git -C src/deep log --oneline',
    'git -C src status',
    'git -C src -C deep diff HEAD',
    'git --no-pager -C src show HEAD --stat',
  ])('runs %s: a folder of the workspace’s own repository', (command) => {
    expect(verdict(command)).toMatchObject({ readOnly: true });
  });

  it('runs from a working folder below the root, into a sibling', () => {
    expect(verdict('git -C ../src log', path.join(ws, 'vendor')).readOnly).toBe(true);
  });

  it('a nested repository runs its own config on a read (the hole, in bash); the analyser asks', () => {
    bash('git -C vendor/lib status --short');
    expect(fs.existsSync(path.join(tmp, 'ran'))).toBe(true);
    for (const command of ['git -C vendor/lib status', 'git -C vendor/lib/inner log', 'git -C lib-link log']) {
      expect(verdict(command), command).toMatchObject({ readOnly: false, reason: expect.stringMatching(/nested repository/) });
    }
  });

  it('asks where the folder is not there to look at', () => {
    expect(verdict('git -C missing log').readOnly).toBe(false);
  });

  it('still refuses -c, which can name programs itself, before or after -C', () => {
    expect(verdict('git -c core.pager=less -C src log').readOnly).toBe(false);
    expect(verdict('git -C src -c core.fsmonitor=x status').readOnly).toBe(false);
    expect(verdict('git -C src --git-dir=../vendor/lib/.git log').readOnly).toBe(false);
  });

  it('asks for a folder outside the workspace', () => {
    expect(verdict(`git -C ${tmp} log`).readOnly).toBe(false);
  });
});
