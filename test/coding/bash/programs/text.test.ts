// The analyser on text tools (src/coding/bash/programs/text.ts).
import { verdictTable } from './verdicts.js';

const READ_ONLY: string[] = ['diff -lq a b'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['sort -o out a.txt', /writes/],
  ['sort a.txt -oout', /writes/],
  ['sort --out=x a', /writes/],
  ['sort --compress-program=sh a', /runs a program/],
  ['uniq a.txt b.txt', /output file/],
];

verdictTable('text', READ_ONLY, NOT_READ_ONLY);
