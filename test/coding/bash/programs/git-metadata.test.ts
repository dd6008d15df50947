// The analyser on git subcommands that print names, refs and metadata (src/coding/bash/programs/git-metadata.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../../src/coding/bash/index.js';

const ro = (cmd: string) => analyzeBash(cmd, { cwd: '/ws/project', roots: ['/ws/project'] });

beforeAll(async () => {
  await loadBashAnalyzer();
});

const READ_ONLY: string[] = ['git branch -a', 'git tag -l "v*"', 'git config --get user.name', 'git rev-parse --abbrev-ref HEAD'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['git branch -D main', /branches/],
  ['git branch feature', /creates a branch/],
  ['git tag v1', /creates a tag/],
  ['git config user.name x', /changes configuration/],
];

describe('git-metadata', () => {
  it.each(READ_ONLY)('read-only: %j', (cmd) => {
    expect(ro(cmd)).toMatchObject({ readOnly: true });
  });
  it.each(NOT_READ_ONLY)('not read-only: %j', (cmd, why) => {
    const a = ro(cmd);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(why);
  });
});
