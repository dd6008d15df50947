// Regression guard on the development queries (test/data/toolsearch, see its SOURCE.md): the
// benchmark reports the full figures; this only keeps ranking from silently getting worse.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../../src/runtime/search/catalog.js';
import { ToolIndex } from '../../../src/runtime/search/tool-index.js';

const dataDir = new URL('../../data/toolsearch/', import.meta.url);

describe('ranking quality on the development queries', () => {
  it('recall@5 stays at or above 0.80, the goal', () => {
    const { docs, errors } = parseCatalog(readFileSync(new URL('tools.jsonl', dataDir), 'utf8'));
    expect(errors).toEqual([]);
    const index = new ToolIndex();
    index.add(docs);
    const queries = readFileSync(new URL('queries-dev.jsonl', dataDir), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { query: string; relevant: string[] });
    let recall = 0;
    for (const q of queries) {
      const top = index.search(q.query, 5).hits.map((h) => h.name);
      recall += q.relevant.filter((name) => top.includes(name)).length / q.relevant.length;
    }
    expect(recall / queries.length).toBeGreaterThanOrEqual(0.8);
  });
});
