// The analyser on text tools (src/coding/bash/programs/text.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../../src/coding/bash/index.js';

const ro = (cmd: string) => analyzeBash(cmd, { cwd: '/ws/project', roots: ['/ws/project'] });

beforeAll(async () => {
  await loadBashAnalyzer();
});

const READ_ONLY: string[] = ['diff -lq a b'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['sort -o out a.txt', /writes/],
  ['sort a.txt -oout', /writes/],
  ['sort --out=x a', /writes/],
  ['sort --compress-program=sh a', /runs a program/],
  ['uniq a.txt b.txt', /output file/],
];

describe('text', () => {
  it.each(READ_ONLY)('read-only: %j', (cmd) => {
    expect(ro(cmd)).toMatchObject({ readOnly: true });
  });
  it.each(NOT_READ_ONLY)('not read-only: %j', (cmd, why) => {
    const a = ro(cmd);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(why);
  });
});
