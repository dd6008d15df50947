// When a crashed or unreachable server may be started again. The first restart is immediate (a
// crash mid-call should not cost the next call anything); repeated failures back off so a
// server that dies on start is not respawned on every call.
export const MAX_RESTART_DELAY_MS = 30_000;
const BASE_DELAY_MS = 500;

/** Delay before the next attempt, given how many attempts in a row have failed. */
export function restartDelay(consecutiveFailures: number): number {
  if (consecutiveFailures <= 1) return 0;
  return Math.min(MAX_RESTART_DELAY_MS, BASE_DELAY_MS * 2 ** (consecutiveFailures - 2));
}

/** Milliseconds still to wait before a restart may start (0 when it may start now). */
export function remainingDelay(consecutiveFailures: number, lastFailureAt: number, now: number): number {
  return Math.max(0, lastFailureAt + restartDelay(consecutiveFailures) - now);
}
