// Code mode's safety parity over every row of the safety corpora (test/data/bash-safety,
// test/data/path-guard): each row decided as a direct call and as an inner call of a RunCode
// program, contained and not. Prints the rows whose outcomes differ (goal: 0).
import { readFileSync } from 'node:fs';
import { bashCalls, compareBothWays, parityWorkspace, pathCalls } from '../test/support/codemode-parity.js';

const lines = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

const corpora = [
  ['bash-safety/commands-dev', bashCalls(lines('test/data/bash-safety/commands-dev.jsonl'))],
  ['bash-safety/adversarial', bashCalls(lines('test/data/bash-safety/adversarial.jsonl'))],
  ['path-guard/cases-dev', pathCalls(lines('test/data/path-guard/cases-dev.jsonl'))],
  ['path-guard/adversarial', pathCalls(lines('test/data/path-guard/adversarial.jsonl'))],
] as const;

const where = await parityWorkspace();
let total = 0;
let differing = 0;
try {
  for (const contained of [true, false]) {
    for (const [name, calls] of corpora) {
      const { differences, ran } = await compareBothWays(where, [...calls], contained);
      total += calls.length;
      differing += differences.length;
      console.log(
        `${contained ? 'contained  ' : 'uncontained'} ${name.padEnd(26)} ${String(calls.length).padStart(5)} calls, ${String(ran).padStart(5)} ran, ${differences.length} differ`,
      );
      for (const d of differences) console.log(`  differs: ${JSON.stringify(d)}`);
    }
  }
} finally {
  where.dispose();
}
console.log(`${total} calls made both ways, ${differing} differ`);
if (differing > 0) process.exitCode = 1;
