// The analyser on programs that print what files hold (src/coding/bash/programs/files.ts).
import { verdictTable } from './verdicts.js';

const READ_ONLY: string[] = ['strings a.bin'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [['xxd a b', /output file/]];

verdictTable('files', READ_ONLY, NOT_READ_ONLY);
