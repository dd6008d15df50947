// Bash analyser: time per command over the bash-safety corpus, plus the corpus figures
// (ask rows auto-allowed — must be 0 — and the share of safe rows auto-allowed, by tag).
import { readFileSync } from 'node:fs';
import { analyzeBash, loadBashAnalyzer } from '../src/coding/bash/index.js';

interface Row {
  command: string;
  expected: 'safe' | 'ask';
  tags: string[];
}

const rows = readFileSync('test/data/bash-safety/commands-dev.jsonl', 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Row);
const opts = { cwd: '/srv/project', roots: ['/srv/project'] };
// The same rows judged in this checkout, where paths, globs and config files are really looked up.
const realFs = { cwd: process.cwd(), roots: [process.cwd()] };

await loadBashAnalyzer();
// Warm up the JIT and the parser.
for (let i = 0; i < 3; i++) for (const r of rows) analyzeBash(r.command, opts);

const times: number[] = [];
const rounds = 20;
for (let round = 0; round < rounds; round++) {
  for (const r of rows) {
    const t0 = process.hrtime.bigint();
    analyzeBash(r.command, opts);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
}
const realTimes: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const r of rows) {
    const t0 = process.hrtime.bigint();
    analyzeBash(r.command, realFs);
    realTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
}
times.sort((a, b) => a - b);
realTimes.sort((a, b) => a - b);
const pct = (p: number, of = times): number => of[Math.min(of.length - 1, Math.floor(p * of.length))];

const byTag: Record<string, { safe: number; allowed: number }> = {};
let askAllowed = 0;
let safe = 0;
let safeAllowed = 0;
for (const r of rows) {
  const readOnly = analyzeBash(r.command, opts).readOnly;
  if (r.expected === 'ask') {
    if (readOnly) askAllowed++;
    continue;
  }
  safe++;
  if (readOnly) safeAllowed++;
  for (const tag of r.tags.length ? r.tags : ['(none)']) {
    byTag[tag] ??= { safe: 0, allowed: 0 };
    byTag[tag].safe++;
    if (readOnly) byTag[tag].allowed++;
  }
}

console.log(
  JSON.stringify(
    {
      commands: rows.length,
      samples: times.length,
      medianMs: +pct(0.5).toFixed(4),
      p99Ms: +pct(0.99).toFixed(4),
      maxMs: +times[times.length - 1].toFixed(4),
      realFsMedianMs: +pct(0.5, realTimes).toFixed(4),
      realFsP99Ms: +pct(0.99, realTimes).toFixed(4),
      realFsAskRowsAutoAllowed: rows.filter((r) => r.expected === 'ask' && analyzeBash(r.command, realFs).readOnly).length,
      realFsSafeAutoAllowedShare: +(
        rows.filter((r) => r.expected === 'safe' && analyzeBash(r.command, realFs).readOnly).length / safe
      ).toFixed(4),
      askRows: rows.length - safe,
      askRowsAutoAllowed: askAllowed,
      safeRows: safe,
      safeAutoAllowedShare: +(safeAllowed / safe).toFixed(4),
      safeByTag: Object.fromEntries(Object.entries(byTag).map(([t, v]) => [t, `${v.allowed}/${v.safe}`])),
    },
    null,
    2,
  ),
);
