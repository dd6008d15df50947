// A batch of calls from one model reply, on the one call runner (runner.ts): prepared in order one
// at a time, executed under the ordering rules, finalized and committed in the model's order.
// Every call gets exactly one result, also on abort.
import type { ToolCallResult } from '../tool/types.js';
import type { RuntimeContext, ToolCallRequest } from '../pipeline/types.js';
import { CallRunner } from './runner.js';

export { DEFAULT_MAX_CONCURRENCY, isConcurrencySafeCall } from './order.js';

export interface BatchOptions {
  signal: AbortSignal;
  maxConcurrency?: number;
}

export interface Batch {
  /** Adds a call; a concurrency-safe one may start before later calls have arrived. */
  push(call: ToolCallRequest): void;
  /** No more calls will come; `results` resolves once all are committed. */
  end(): void;
  /** One result per pushed call, in push order. */
  results: Promise<ToolCallResult[]>;
}

export function createBatch(runtime: RuntimeContext, options: BatchOptions): Batch {
  const runner = new CallRunner(runtime, { maxConcurrency: options.maxConcurrency });
  const committed: Promise<ToolCallResult>[] = [];
  let ended = false;
  let resolveResults: (results: ToolCallResult[]) => void = () => undefined;
  const results = new Promise<ToolCallResult[]>((resolve) => (resolveResults = resolve));

  function push(request: ToolCallRequest): void {
    if (ended) throw new Error('createBatch: push() after end()');
    const finalizeAfter = committed.at(-1);
    committed.push(runner.run(request, options.signal, { finalizeAfter }));
  }

  function end(): void {
    if (ended) return;
    ended = true;
    void Promise.all(committed).then(resolveResults);
  }

  return { push, end, results };
}

export async function runBatch(calls: ToolCallRequest[], rt: RuntimeContext, options: BatchOptions): Promise<ToolCallResult[]> {
  const batch = createBatch(rt, options);
  for (const call of calls) batch.push(call);
  batch.end();
  return batch.results;
}
