// A batch of calls from one model reply. Prepare each call in order, one at a time; execute
// consecutive concurrency-safe calls together (capped), any other call alone; finalize and
// commit in the model's order. Every call gets exactly one result, also on abort.
import type { ToolCallResult } from '../tool/types.js';
import type { RuntimeContext, ToolCallRequest } from '../pipeline/types.js';
import { prepareCall, type PreparedCall, type ReadyCall } from '../pipeline/prepare.js';
import { executeCall, finalizeCall, type Execution } from '../pipeline/execute.js';
import { messageOf } from '../util/message.js';
import { interruptedBeforeRun, interruptedWhileRunning, resultLostContent, syntheticResult } from '../results/errors.js';
import { forCallPath } from '../pipeline/runtime.js';
import { ExecutionOrder } from './order.js';

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
  const rt = forCallPath(runtime);
  const { signal } = options;
  const order = new ExecutionOrder(options.maxConcurrency);
  const committed: ToolCallResult[] = [];
  let prepareChain: Promise<unknown> = Promise.resolve();
  let commitChain: Promise<unknown> = Promise.resolve();
  const interruptors = new Set<(execution: Execution) => void>();
  // The batch's only listener on the caller's signal; removed when the batch is done, so a
  // signal shared by many batches (a session's) does not collect one per batch.
  const onAbort = () => {
    for (const interrupt of interruptors) interrupt({ ok: false, result: interruptedWhileRunning() });
    interruptors.clear();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  let ended = false;
  let resolveResults: (results: ToolCallResult[]) => void = () => undefined;
  const results = new Promise<ToolCallResult[]>((resolve) => (resolveResults = resolve));

  async function runOne(call: ReadyCall): Promise<Execution> {
    if (signal.aborted) return { ok: false, result: interruptedBeforeRun() };
    // Each execution gets its own signal, so the listeners a tool adds (a Bash process, a fetch)
    // sit on it rather than on the batch's: a dozen parallel calls would otherwise trip Node's
    // MaxListenersExceededWarning on one signal. The batch's one listener relays the abort.
    const own = new AbortController();
    const run = { ...call, toolContext: { ...call.toolContext, signal: own.signal } };
    // A blocking tool finishes what it started even when the batch is aborted: its signal never fires.
    if (call.tool.interruptBehavior() === 'block') return executeCall(run);
    let interrupt: (execution: Execution) => void = () => undefined;
    const aborted = new Promise<Execution>((resolve) => {
      interrupt = (execution) => {
        own.abort(signal.reason);
        resolve(execution);
      };
    });
    interruptors.add(interrupt);
    try {
      return await Promise.race([executeCall(run), aborted]);
    } finally {
      interruptors.delete(interrupt);
    }
  }

  function push(request: ToolCallRequest): void {
    if (ended) throw new Error('createBatch: push() after end()');
    const index = committed.length;
    committed.push(undefined as unknown as ToolCallResult); // reserve the slot in call order
    const prepared: Promise<PreparedCall> = prepareChain.then(() => prepareCall(request, rt, signal));
    prepareChain = prepared;
    // Prepared promises resolve in call order, so schedule() sees calls in order too.
    const executed = prepared.then((call) => (call.kind === 'ready' ? order.schedule(call, () => runOne(call)) : undefined));
    commitChain = Promise.all([prepared, executed, commitChain]).then(async ([call, execution]) => {
      try {
        committed[index] = await finalizeCall(call, execution, rt, signal);
      } catch (error) {
        // finalizeCall returns values; this guards the one-result-per-call promise against bugs.
        committed[index] = syntheticResult(request, resultLostContent(messageOf(error)));
      }
    });
  }

  function end(): void {
    if (ended) return;
    ended = true;
    void commitChain.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolveResults(committed);
    });
  }

  return { push, end, results };
}

export async function runBatch(calls: ToolCallRequest[], rt: RuntimeContext, options: BatchOptions): Promise<ToolCallResult[]> {
  const batch = createBatch(rt, options);
  for (const call of calls) batch.push(call);
  batch.end();
  return batch.results;
}
