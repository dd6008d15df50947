// The execution order rules, shared by a batch (one model reply) and the adapters' per-runtime
// gate (calls a framework starts on its own): a concurrency-safe call runs beside the safe calls
// around it (capped); any other call runs alone, after everything scheduled before it; two calls
// with the same write key never overlap. Calls must be scheduled in the model's order.
import type { AnyTool } from '../tool/types.js';
import type { ReadyCall } from '../pipeline/prepare.js';
import { Semaphore } from './semaphore.js';

export const DEFAULT_MAX_CONCURRENCY = 10;

/** Pure: may this call share the execution slot with its concurrency-safe neighbours? */
export function isConcurrencySafeCall(tool: AnyTool, input: Record<string, unknown>): boolean {
  try {
    return tool.isConcurrencySafe(input) === true;
  } catch {
    return false;
  }
}

/** The resource a call mutates (Tool.writeKey), or undefined when it names none or its check throws. */
export function writeKeyOf(call: ReadyCall): string | undefined {
  try {
    return call.tool.writeKey?.(call.input, { cwd: call.toolContext.session.cwd });
  } catch {
    return undefined;
  }
}

export class ExecutionOrder {
  private readonly slots: Semaphore;
  // `barrier` settles when the last exclusive call is done; `group` holds the safe calls started
  // since, which the next exclusive call must wait for. Both forget settled calls, so an order
  // that lives as long as a runtime does not grow with every call it ever ran.
  private barrier: Promise<unknown> = Promise.resolve();
  private group = new Set<Promise<unknown>>();
  private readonly writeLocks = new Map<string, Promise<unknown>>();

  constructor(maxConcurrency = DEFAULT_MAX_CONCURRENCY) {
    this.slots = new Semaphore(Math.max(1, maxConcurrency));
  }

  /** Runs `run` for `call` when the rules allow; `run` must not reject. */
  schedule<T>(call: ReadyCall, run: () => Promise<T>): Promise<T> {
    const key = writeKeyOf(call);
    const sameKey = key !== undefined ? this.writeLocks.get(key) : undefined;
    let started: Promise<T>;
    if (isConcurrencySafeCall(call.tool, call.input)) {
      started = Promise.all([this.barrier, sameKey]).then(() => this.slots.run(run));
      const group = this.group;
      group.add(started);
      void started.then(() => group.delete(started));
    } else {
      started = Promise.all([this.barrier, sameKey, ...this.group]).then(run);
      this.barrier = started;
      this.group = new Set();
    }
    if (key !== undefined) {
      this.writeLocks.set(key, started);
      void started.then(() => {
        if (this.writeLocks.get(key) === started) this.writeLocks.delete(key);
      });
    }
    return started;
  }
}
