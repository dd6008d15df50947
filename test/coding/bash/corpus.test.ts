import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { loadCorpus } from './corpus.js';

const rows = loadCorpus();
// The corpus was checked in a scratch workspace: relative operands are inside it.
const base = { cwd: '/srv/project', roots: ['/srv/project'] };

beforeAll(async () => {
  await loadBashAnalyzer();
});

// Contained, the analyser only decides friction; alone (no containment) it must hold by itself.
describe.each([
  { mode: 'contained', contained: true, floor: 0.95 },
  { mode: 'no sandbox', contained: false, floor: 0.4 },
])('bash-safety corpus, $mode', ({ mode, contained, floor }) => {
  const opts = { ...base, contained };

  it('never treats an ask row as read-only', () => {
    const bypasses = rows
      .filter((r) => r.expected === 'ask')
      .filter((r) => analyzeBash(r.command, opts).readOnly)
      .map((r) => r.command);
    expect(bypasses).toEqual([]);
  });

  it(`auto-allows at least ${floor * 100}% of the safe rows`, () => {
    const safe = rows.filter((r) => r.expected === 'safe');
    const missed = safe.filter((r) => !analyzeBash(r.command, opts).readOnly);
    const share = (safe.length - missed.length) / safe.length;
    console.log(`safe rows auto-allowed (${mode}): ${(share * 100).toFixed(1)}% (${safe.length - missed.length}/${safe.length})`);
    for (const r of missed) console.log(`  asks: ${JSON.stringify(r.command)} — ${analyzeBash(r.command, opts).reason}`);
    expect(share).toBeGreaterThanOrEqual(floor);
  });
});

it('gives every row a reason and at least one command', () => {
  for (const r of rows) {
    const a = analyzeBash(r.command, base);
    expect(a.reason.length).toBeGreaterThan(0);
    expect(a.commands.length).toBeGreaterThan(0);
  }
});
