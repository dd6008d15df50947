// The analyser on git subcommands that print contents (src/coding/bash/programs/git-contents.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../../src/coding/bash/index.js';

const ro = (cmd: string) => analyzeBash(cmd, { cwd: '/ws/project', roots: ['/ws/project'] });

beforeAll(async () => {
  await loadBashAnalyzer();
});

const READ_ONLY: string[] = ['git show HEAD:README.md', 'git grep -n foo -- src'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['git stash', /stashes/],
  ['git grep -Ovim foo', /pager/],
];

describe('git-contents', () => {
  it.each(READ_ONLY)('read-only: %j', (cmd) => {
    expect(ro(cmd)).toMatchObject({ readOnly: true });
  });
  it.each(NOT_READ_ONLY)('not read-only: %j', (cmd, why) => {
    const a = ro(cmd);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(why);
  });
});
