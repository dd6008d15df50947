// Loads the bash-safety corpus (test/data/bash-safety) for the corpus test and the benchmark.
import { readJsonl } from '../../support/data.js';

export interface CorpusRow {
  command: string;
  expected: 'safe' | 'ask';
  why: string;
  tags?: string[];
}

/** `commands-dev.jsonl` (collected and checked corpus) or `adversarial.jsonl` (written by this project). */
export function loadCorpus(name = 'commands-dev.jsonl'): CorpusRow[] {
  return readJsonl<CorpusRow>('bash-safety', name);
}
