// The analyser on git subcommands that print contents (src/coding/bash/programs/git-contents.ts).
import { verdictTable } from './verdicts.js';

const READ_ONLY: string[] = ['git show HEAD:README.md', 'git grep -n foo -- src'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['git stash', /stashes/],
  ['git grep -Ovim foo', /pager/],
];

verdictTable('git-contents', READ_ONLY, NOT_READ_ONLY);
