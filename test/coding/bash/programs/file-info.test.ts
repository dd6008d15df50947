// The analyser on programs that print what files are (src/coding/bash/programs/file-info.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../../src/coding/bash/index.js';

const ro = (cmd: string) => analyzeBash(cmd, { cwd: '/ws/project', roots: ['/ws/project'] });

beforeAll(async () => {
  await loadBashAnalyzer();
});

const READ_ONLY: string[] = ['du -sh *', 'ls -la src'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['file -C -m magic', /compiled magic/],
  ['file -z a.gz', /decompression/],
  ['file --files-from list.txt', /list file/],
  ['tree -o out.txt', /to a file/],
];

describe('file-info', () => {
  it.each(READ_ONLY)('read-only: %j', (cmd) => {
    expect(ro(cmd)).toMatchObject({ readOnly: true });
  });
  it.each(NOT_READ_ONLY)('not read-only: %j', (cmd, why) => {
    const a = ro(cmd);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(why);
  });
});
