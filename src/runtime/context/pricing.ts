// Usage accounting and its price. Pure.
import type { Usage } from '../providers/types.js';
import { knownModel, type ModelPrice } from './models.js';

/** How long a prompt-cache write lives; a 1-hour write costs more (priced below). Owned here, not
 * beside the breakpoints, so the root's types never reach the Anthropic SDK's. */
export type CacheTtl = '5m' | '1h';

/** Session totals: every count present (0 when a server reported none). */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export function emptyUsage(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

export function addUsage(total: UsageTotals, usage: Usage): UsageTotals {
  return {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    cacheReadTokens: total.cacheReadTokens + (usage.cacheReadTokens ?? 0),
    cacheWriteTokens: total.cacheWriteTokens + (usage.cacheWriteTokens ?? 0),
  };
}

/** Prices per million tokens by model id (settings `pricing`), over the built-in table. */
export type PriceOverrides = Readonly<Record<string, ModelPrice>>;

export function priceFor(model: string, overrides?: PriceOverrides): ModelPrice | undefined {
  return overrides?.[model] ?? knownModel(model)?.price;
}

/**
 * USD for one usage at list price, or undefined when the model's price is unknown (a local
 * model, an unlisted id): a missing price is not a free request. inputTokens includes the cached
 * reads and writes, which are billed at their own rates.
 */
export function costUsd(usage: Usage, price: ModelPrice | undefined, ttl: CacheTtl = '5m'): number | undefined {
  if (price === undefined) return undefined;
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - read - write);
  const writeRate = ttl === '1h' ? (price.cacheWrite1h ?? price.cacheWrite) : price.cacheWrite;
  const micro = plain * price.input + read * price.cacheRead + write * writeRate + usage.outputTokens * price.output;
  return micro / 1_000_000;
}
