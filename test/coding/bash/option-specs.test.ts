// The option specs checked against the real programs on this machine, not only their manuals: an
// option the spec reads as a flag must not make the program ask for an argument (had it taken
// one, the analyser would read the next word as an operand or an option while the program takes
// it as the value). Each flag is run alone in an empty temp folder with empty input, which reads
// and writes nothing; programs that are not installed are skipped.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROGRAMS } from '../../../src/coding/bash/programs/table.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wield-specs-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Options that wait for input that never ends (`tail -f`) or change the machine are not run. */
const NOT_RUN: Record<string, string> = { tail: 'fF', date: 's', hostname: 'abdfiIsAyF' };
const ASKS_FOR_VALUE = /requires an argument|requires a value|missing argument|needs an argument/i;

function installed(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).status === 0;
}

function flagLetters(short: string): string[] {
  return [...short.matchAll(/([A-Za-z0-9])(?!:)/g)]
    .map((m) => m[1])
    .filter((c, i, all) => short[short.indexOf(c) + 1] !== ':' && all.indexOf(c) === i);
}

const cases = [...PROGRAMS].filter(([name, spec]) => spec.short && !spec.noOptions && /^[a-z0-9]+$/.test(name) && installed(name));

describe('option specs agree with the installed programs', () => {
  it('checks some programs, and sees a value option ask for its value', () => {
    expect(cases.length).toBeGreaterThan(20);
    expect(spawnSync('head', ['-n'], { cwd: dir, input: '', encoding: 'utf8' }).stderr).toMatch(ASKS_FOR_VALUE);
  });
  it.each(cases.map(([name, spec]) => [name, spec.short ?? ''] as const))('%s: every flag in `%s` takes no value', (name, short) => {
    const wrong: string[] = [];
    for (const c of flagLetters(short)) {
      if (NOT_RUN[name]?.includes(c)) continue;
      const run = spawnSync(name, [`-${c}`], {
        cwd: dir,
        input: '',
        timeout: 2000,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: dir },
      });
      if (ASKS_FOR_VALUE.test(run.stderr ?? '')) wrong.push(`-${c}: ${run.stderr.split('\n')[0]}`);
    }
    expect(wrong).toEqual([]);
  });
});
