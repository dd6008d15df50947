// The analyser on git's diff and log option families (src/coding/bash/programs/git-diff-options.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../../src/coding/bash/index.js';

const ro = (cmd: string) => analyzeBash(cmd, { cwd: '/ws/project', roots: ['/ws/project'] });

beforeAll(async () => {
  await loadBashAnalyzer();
});

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

describe('git-diff-options', () => {
  it.each(READ_ONLY)('read-only: %j', (cmd) => {
    expect(ro(cmd)).toMatchObject({ readOnly: true });
  });
  it.each(NOT_READ_ONLY)('not read-only: %j', (cmd, why) => {
    const a = ro(cmd);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(why);
  });
});
