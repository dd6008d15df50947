// Where a cached session's billed input goes, from its recorded request bodies, by the simulator's
// rules (test/support/cache-simulator.ts): the first request's write, the later writes and the
// reads; whether anything was written twice or missed by the lookback; the floor no breakpoint
// placement can beat (only the last request's write is avoidable, and only by knowing it is the
// last); and how much larger the fixed prefix (tools + system) would have to be for a given
// ratio — a larger prefix lowers the ratio while raising the bill.
import { AnthropicCacheSimulator, type BilledRequest } from '../test/support/cache-simulator.js';

type Body = Record<string, unknown>;

function billAll(bodies: readonly Body[]): BilledRequest[] {
  const simulator = new AnthropicCacheSimulator();
  return bodies.map((body) => simulator.bill(body));
}

const sum = (values: readonly number[]) => values.reduce((total, v) => total + v, 0);

/** A session's billed input (base-input-token units) and its share of the uncached input. */
export function billSession(bodies: readonly unknown[]): { requests: number; uncachedTokens: number; billedTokens: number; ratio: number } {
  const bills = billAll(bodies as Body[]);
  const { billed, total } = ratioOf(bills);
  return { requests: bills.length, uncachedTokens: total, billedTokens: Math.round(billed), ratio: Number((billed / total).toFixed(3)) };
}

/** The body with `chars` more characters at the end of its system prompt. */
function withLongerSystem(body: Body, chars: number): Body {
  const pad = ` ${'x'.repeat(Math.max(0, chars - 1))}`;
  if (typeof body.system === 'string') return { ...body, system: body.system + pad };
  const blocks = [...((body.system as Record<string, unknown>[] | undefined) ?? [])];
  const last = blocks.length - 1;
  if (last < 0) return { ...body, system: pad };
  blocks[last] = { ...blocks[last], text: `${String(blocks[last].text)}${pad}` };
  return { ...body, system: blocks };
}

function ratioOf(bills: readonly BilledRequest[]): { billed: number; total: number; ratio: number } {
  const billed = sum(bills.map((b) => b.billed));
  const total = sum(bills.map((b) => b.totalTokens));
  return { billed, total, ratio: billed / total };
}

export interface BillingBreakdown {
  fixedPrefixTokens: number;
  newTokensPerRequest: number;
  firstRequestBilled: number;
  laterWritesBilled: number;
  readsBilled: number;
  /** Tokens written to the cache more than once (0: each block written once). */
  writtenTwiceTokens: number;
  /** Requests that did not read back everything the request before them sent. */
  lookbackMisses: number;
  /** Billed ÷ uncached if the last request's new part had been sent uncached (an oracle). */
  floorRatio: number;
  /** Tokens the fixed prefix would need on top for the ratio to reach `ratioGoal`, and the bill then. */
  extraPrefixForGoal: number;
  billedWithThatPrefix: number;
}

export function billingBreakdown(bodies: readonly Body[], ratioGoal: number): BillingBreakdown {
  const bills = billAll(bodies);
  const first = bills[0];
  const last = bills[bills.length - 1];
  const { billed, total } = ratioOf(bills);
  let lookbackMisses = 0;
  for (let i = 1; i < bills.length; i++) if (bills[i].cacheReadTokens < bills[i - 1].totalTokens) lookbackMisses++;
  // A growing history ends up whole in the last request: what was written beyond it was written twice.
  const written = sum(bills.map((b) => b.cacheWriteTokens));
  let extra = 0;
  let step = 4_096;
  // Grow the system prompt in 4-character steps (one token) until the goal is met; bisect for speed.
  if (ratioOf(bills).ratio > ratioGoal) {
    while (ratioOf(billAll(bodies.map((b) => withLongerSystem(b, (extra + step) * 4)))).ratio > ratioGoal) extra += step;
    for (; step >= 1; step = Math.floor(step / 2)) {
      if (ratioOf(billAll(bodies.map((b) => withLongerSystem(b, (extra + step) * 4)))).ratio > ratioGoal) extra += step;
    }
    extra += 1;
  }
  const padded = ratioOf(billAll(bodies.map((b) => withLongerSystem(b, extra * 4))));
  return {
    fixedPrefixTokens: first.totalTokens,
    newTokensPerRequest: Math.round((last.totalTokens - first.totalTokens) / Math.max(1, bills.length - 1)),
    firstRequestBilled: Math.round(first.billed),
    laterWritesBilled: Math.round(1.25 * sum(bills.slice(1).map((b) => b.cacheWriteTokens))),
    readsBilled: Math.round(0.1 * sum(bills.map((b) => b.cacheReadTokens))),
    writtenTwiceTokens: Math.max(0, written - last.totalTokens),
    lookbackMisses,
    floorRatio: Number(((billed - 0.25 * last.cacheWriteTokens) / total).toFixed(4)),
    extraPrefixForGoal: extra,
    billedWithThatPrefix: Math.round(padded.billed),
  };
}
