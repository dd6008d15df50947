// The analyser on programs that print what files hold (src/coding/bash/programs/files.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../../src/coding/bash/index.js';

const ro = (cmd: string) => analyzeBash(cmd, { cwd: '/ws/project', roots: ['/ws/project'] });

beforeAll(async () => {
  await loadBashAnalyzer();
});

const READ_ONLY: string[] = ['strings a.bin'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [['xxd a b', /output file/]];

describe('files', () => {
  it.each(READ_ONLY)('read-only: %j', (cmd) => {
    expect(ro(cmd)).toMatchObject({ readOnly: true });
  });
  it.each(NOT_READ_ONLY)('not read-only: %j', (cmd, why) => {
    const a = ro(cmd);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(why);
  });
});
