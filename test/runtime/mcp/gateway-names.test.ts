import { describe, expect, it } from 'vitest';
import { GatewayNames } from '../../../src/runtime/mcp/gateway-names.js';

const entries = [
  { pool: 'Read' },
  { pool: 'mcp__a__search', own: 'search' },
  { pool: 'mcp__b__search', own: 'search' },
  { pool: 'mcp__a__Read', own: 'Read' },
  { pool: 'mcp__a__fetch', own: 'fetch' },
];

describe('GatewayNames', () => {
  it('shows the pool names unless asked for the servers’ own', () => {
    const names = new GatewayNames(entries, false);
    expect(entries.map((entry) => names.shownName(entry.pool))).toEqual(entries.map((entry) => entry.pool));
    expect(names.poolName('fetch')).toBe('fetch');
  });

  it('gives a proxied tool its own name only where no other name of the list is the same', () => {
    const names = new GatewayNames(entries, true);
    expect(entries.map((entry) => names.shownName(entry.pool))).toEqual([
      'Read',
      // Two servers call theirs "search": both keep the pool's form.
      'mcp__a__search',
      'mcp__b__search',
      // A built-in is already "Read".
      'mcp__a__Read',
      'fetch',
    ]);
    expect(names.poolName('fetch')).toBe('mcp__a__fetch');
    expect(names.poolName('mcp__a__fetch')).toBe('mcp__a__fetch');
    expect(names.poolName('Read')).toBe('Read');
  });
});
