// The analyser on git's global options and the subcommand table (src/coding/bash/programs/git.ts).
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

