// The analyser on git's diff and log option families (src/coding/bash/programs/git-diff-options.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ro, verdictTable } from './verdicts.js';

const READ_ONLY: string[] = [
  'git log --format="%h %s"',
  "git log --format='%%G?'",
  'git log --oneline -n 5',
  'git diff --stat HEAD~1 -- src/',
];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['git log --out=x', /ambiguous|writes/],
  ['git log --outp=x', /ambiguous|writes/],
  ['git diff --output x', /writes/],
  ['git diff --ext-diff', /external diff/],
];

verdictTable('git-diff-options', READ_ONLY, NOT_READ_ONLY);

describe('-U and --unified take their value attached only', () => {
  // The spec read `-U` and `--unified` as taking the next argument, as the manual's `-U<n>`
  // suggests; git's parser takes a value only when attached, so the next argument is a revision
  // or path, which the analyser never checked: `git diff -U HEAD:.env HEAD:README.md` printed .env.
  it('the hole, in real git: the word after -U is a blob to diff', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-git-unified-'));
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, encoding: 'utf8' });
      git('init', '-q', '.');
      writeFileSync(path.join(dir, '.env'), 'TOKEN=hunter2\n');
      writeFileSync(path.join(dir, 'README.md'), 'hi\n');
      git('add', '-f', '.env', 'README.md');
      git('commit', '-qm', 'x');
      expect(git('diff', '-U', 'HEAD:.env', 'HEAD:README.md')).toContain('TOKEN=hunter2');
      expect(git('diff', '--unified', 'HEAD:.env', 'HEAD:README.md')).toContain('TOKEN=hunter2');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    'git diff -U HEAD:.env HEAD:README.md',
    'git diff --unified HEAD:.env HEAD:README.md',
    'git show -U HEAD:.env',
    'git log -p -U HEAD:.env',
  ])('%s is not read-only', (cmd) => {
    expect(ro(cmd)).toMatchObject({ readOnly: false, reason: /secret/ });
  });

  it.each(['git diff -U5', 'git diff --unified=5', 'git log -p -U1 -- src'])('%s stays read-only', (cmd) => {
    expect(ro(cmd).readOnly).toBe(true);
  });
});
