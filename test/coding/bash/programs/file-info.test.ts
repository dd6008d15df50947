// The analyser on programs that print what files are (src/coding/bash/programs/file-info.ts).
import { verdictTable } from './verdicts.js';

const READ_ONLY: string[] = ['du -sh *', 'ls -la src'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['file -C -m magic', /compiled magic/],
  ['file -z a.gz', /decompression/],
  ['file --files-from list.txt', /list file/],
  ['tree -o out.txt', /to a file/],
];

verdictTable('file-info', READ_ONLY, NOT_READ_ONLY);
