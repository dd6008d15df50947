// The index's typed storage held to plain models: posting lists sharing one pair of arrays
// (lists move and reuse each other's regions as they grow), and names → ids.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PostingArena } from '../../../src/runtime/search/postings.js';
import { NameIds } from '../../../src/runtime/search/store.js';

describe('PostingArena', () => {
  it('holds what plain arrays with the same pushes and removals hold, in the same order', () => {
    // Lists come and grow at different rates (as terms do), so regions they leave get reused;
    // tool ids from a small range, so lists also empty and refill.
    const op = fc.record({
      kind: fc.constantFrom('list', 'push', 'push', 'push', 'remove'),
      pick: fc.integer({ min: 0, max: 2 ** 12 - 2 }),
      id: fc.integer({ min: 0, max: 40 }),
      tf: fc.integer({ min: 0, max: 2 ** 30 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 800 }), (ops) => {
        const arena = new PostingArena();
        const model: { ids: number[]; tfs: number[] }[] = [];
        const addList = () => {
          expect(arena.addList()).toBe(model.length);
          model.push({ ids: [], tfs: [] });
        };
        addList();
        for (const { kind, pick, id, tf } of ops) {
          if (kind === 'list') {
            addList();
            continue;
          }
          // Skewed: the last list is picked about half the time, the one before a quarter...
          const list = Math.max(0, model.length - 12 + Math.floor(Math.log2(1 + pick)));
          const { ids, tfs } = model[list];
          const at = ids.indexOf(id);
          if (kind === 'push' && at < 0) {
            arena.push(list, id, tf);
            ids.push(id);
            tfs.push(tf);
          } else if (kind === 'remove') {
            arena.remove(list, id);
            if (at < 0) continue;
            ids[at] = ids[ids.length - 1];
            tfs[at] = tfs[tfs.length - 1];
            ids.pop();
            tfs.pop();
          }
        }
        model.forEach((expected, list) => {
          const view = arena.view(list);
          expect(arena.count(list)).toBe(expected.ids.length);
          expect([...view.ids]).toEqual(expected.ids);
          expect([...view.tfs]).toEqual(expected.tfs);
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('NameIds', () => {
  it('gives the ids added under a name and not removed, in the order they were added', () => {
    const op = fc.tuple(fc.boolean(), fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 5 }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const names = new NameIds();
        const model = new Map<string, number[]>();
        for (const [add, name, id] of ops) {
          const ids = model.get(name) ?? [];
          if (add && !ids.includes(id)) {
            names.add(name, id);
            model.set(name, [...ids, id]);
          } else if (!add) {
            names.delete(name, id);
            model.set(
              name,
              ids.filter((other) => other !== id),
            );
          }
        }
        for (const name of ['a', 'b', 'c', 'd']) expect(names.get(name)).toEqual(model.get(name) ?? []);
      }),
      { numRuns: 300 },
    );
  });
});
