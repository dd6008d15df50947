// Loads the bash-safety corpus (test/data/bash-safety) for the corpus test and the benchmark.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface CorpusRow {
  command: string;
  expected: 'safe' | 'ask';
  why: string;
  tags?: string[];
}

/** `commands-dev.jsonl` (collected and checked corpus) or `adversarial.jsonl` (written by this project). */
export function loadCorpus(name = 'commands-dev.jsonl'): CorpusRow[] {
  const file = fileURLToPath(new URL(`../../data/bash-safety/${name}`, import.meta.url));
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorpusRow);
}
