import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { loadCorpus } from './corpus.js';

// Red-team rows written for this project: parser differentials, option-parsing quirks, write and
// exec options of read-only-looking programs, environment hijacks, secrets, and everyday commands.
const rows = loadCorpus('adversarial.jsonl');
const base = { cwd: '/srv/project', roots: ['/srv/project'] };

beforeAll(async () => {
  await loadBashAnalyzer();
});

it('has the rows it is meant to have', () => {
  expect(rows.length).toBeGreaterThanOrEqual(300);
  expect(new Set(rows.map((r) => r.command)).size).toBe(rows.length);
  for (const r of rows) expect(['ask', 'safe']).toContain(r.expected);
});

describe.each([
  { mode: 'contained', contained: true, floor: 0.95 },
  { mode: 'no sandbox', contained: false, floor: 0.2 },
])('adversarial bash corpus, $mode', ({ mode, contained, floor }) => {
  const opts = { ...base, contained };

  it('never treats an ask row as read-only', () => {
    const bypasses = rows
      .filter((r) => r.expected === 'ask')
      .filter((r) => analyzeBash(r.command, opts).readOnly)
      .map((r) => `${r.command} — ${r.why}`);
    expect(bypasses).toEqual([]);
  });

  it('reports the share of safe rows auto-allowed', () => {
    const safe = rows.filter((r) => r.expected === 'safe');
    const missed = safe.filter((r) => !analyzeBash(r.command, opts).readOnly);
    const share = (safe.length - missed.length) / safe.length;
    console.log(
      `adversarial safe rows auto-allowed (${mode}): ${(share * 100).toFixed(1)}% (${safe.length - missed.length}/${safe.length})`,
    );
    for (const r of missed) console.log(`  asks: ${JSON.stringify(r.command)} — ${analyzeBash(r.command, opts).reason}`);
    expect(share).toBeGreaterThanOrEqual(floor);
  });
});
