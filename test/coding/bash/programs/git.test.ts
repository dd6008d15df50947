// The analyser on git's global options and the subcommand table (src/coding/bash/programs/git.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../../src/coding/bash/index.js';

const ro = (cmd: string) => analyzeBash(cmd, { cwd: '/ws/project', roots: ['/ws/project'] });

beforeAll(async () => {
  await loadBashAnalyzer();
});

const READ_ONLY: string[] = ['git -C . log -n 3', 'git -C src rev-parse --show-prefix', 'git -C . status --short'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['git -c core.pager=cat log', /configuration/],
  ['git -ccore.pager=cat log', /configuration/],
  ['git --git-dir=/tmp/x status', /another repository/],
  ['git -C /tmp status', /outside/],
  ['git push', /read-only git/],
  ['git -p log', /pager/],
];

describe('git', () => {
  it.each(READ_ONLY)('read-only: %j', (cmd) => {
    expect(ro(cmd)).toMatchObject({ readOnly: true });
  });
  it.each(NOT_READ_ONLY)('not read-only: %j', (cmd, why) => {
    const a = ro(cmd);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(why);
  });
});

describe('subcommand names that are members of every object', () => {
  // `git constructor` found Object.prototype.constructor in the subcommand table and passed as a
  // read-only subcommand. In real git it runs the alias of that name: a planted `.git/config`
  // (a repository from a tarball) makes it run any program.
  it('the hole, in real bash: an alias named like a prototype member runs a program', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-git-alias-'));
    try {
      execFileSync('git', ['init', '-q', '.'], { cwd: dir });
      execFileSync('git', ['config', 'alias.constructor', `!touch ${path.join(dir, 'ran')}`], { cwd: dir });
      execFileSync('bash', ['-c', 'git constructor'], { cwd: dir });
      expect(existsSync(path.join(dir, 'ran'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'])('`git %s` is not read-only', (name) => {
    const a = ro(`git ${name}`);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(/not a read-only git command/);
  });
});
