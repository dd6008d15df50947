// The turn budget: how many characters each result of one batch may keep so that together they
// stay within a share of the room left in the window. Pure.
import { CHARS_PER_TOKEN } from './tokens.js';

/**
 * Share of the room left that one batch of results may take. A quarter leaves room for at least
 * three more turns like it before compaction must run, and the few turns compaction keeps
 * verbatim (two or three) still fit in the window afterwards. 8 parallel Reads of 1 MB files in a
 * fresh 200K window: ~180K tokens of room → 45K tokens ≈ 180,000 characters for all eight.
 */
export const TURN_BUDGET_SHARE = 0.25;
/** A result never gets less than this: enough for a head, a tail and the "read more" pointer. */
export const MIN_RESULT_CHARS = 2_000;

/** Characters the batch may take: share × (window − context so far − output reserve). */
export function turnBudgetChars(room: { window: number; contextTokens: number; reserveTokens: number }, share = TURN_BUDGET_SHARE): number {
  const left = Math.max(0, room.window - room.contextTokens - room.reserveTokens);
  return Math.floor(left * share * CHARS_PER_TOKEN);
}

/**
 * Per-result caps by water-filling: results under the common cap keep everything, the large ones
 * share what is left equally, so the largest give up the most. Sizes within the budget come back
 * unchanged (no cap is below a size unless the sum exceeds the budget).
 */
export function fairShares(sizes: readonly number[], budget: number, floor = MIN_RESULT_CHARS): number[] {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= budget) return [...sizes];
  const order = sizes.map((size, index) => ({ size, index })).sort((a, b) => a.size - b.size);
  let left = budget;
  let remaining = sizes.length;
  const caps = new Array<number>(sizes.length);
  for (const { size, index } of order) {
    const share = Math.max(floor, Math.floor(left / remaining));
    const cap = Math.min(size, share);
    caps[index] = cap;
    left = Math.max(0, left - cap);
    remaining--;
  }
  return caps;
}
