// The one call runner: every entry point (a batch, runToolCall and so the MCP gateway, the
// adapters' per-runtime gate) runs a call as prepare → schedule → execute → finalize here, so an
// abort, a hook's answer, a permission ask or a throwing callback ends the same way everywhere.
// Calls are prepared one at a time in arrival order (permission prompts never interleave), run
// under the ExecutionOrder rules, and every call gets exactly one result.
import type { ToolCallResult } from '../tool/types.js';
import type { AskPermission, RuntimeContext, ToolCallRequest } from '../pipeline/types.js';
import { prepareCall, type PreparedCall, type ReadyCall } from '../pipeline/prepare.js';
import { executeCall, finalizeCall, type Execution } from '../pipeline/execute.js';
import { forCallPath } from '../pipeline/runtime.js';
import { interruptedBeforeRun, interruptedWhileRunning, resultLostContent, syntheticResult } from '../results/errors.js';
import { messageOf } from '../util/message.js';
import { ExecutionOrder } from './order.js';

export interface CallRunnerOptions {
  maxConcurrency?: number;
  /**
   * false: calls are neither queued behind each other nor ordered (one lone call, as
   * runToolCall runs it); the rest of the path is the same.
   */
  schedule?: boolean;
}

export interface RunCallOptions {
  /** A framework's own approval flow approved this call: an "ask" is answered yes. */
  approved?: boolean;
  /** Finalize only after this settles (a batch finalizes and commits in the model's order). */
  finalizeAfter?: Promise<unknown>;
}

/** A signal that never fires: a call without one, and a blocking tool's own signal. */
const NEVER = new AbortController().signal;

const approvedByFramework: AskPermission = async () => ({ behavior: 'allow' });

export class CallRunner {
  private readonly order: ExecutionOrder | undefined;
  private prepareChain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly runtime: RuntimeContext,
    options: CallRunnerOptions = {},
  ) {
    this.order = options.schedule === false ? undefined : new ExecutionOrder(options.maxConcurrency);
  }

  async run(request: ToolCallRequest, signal: AbortSignal = NEVER, options: RunCallOptions = {}): Promise<ToolCallResult> {
    const rt = forCallPath(options.approved ? { ...this.runtime, askPermission: approvedByFramework } : this.runtime);
    try {
      const prepared = await this.prepare(request, rt, signal);
      // The runtime as given, not the traced or framework-approved one: calls a tool makes (RunCode)
      // are traced and approved on their own.
      const call: PreparedCall =
        prepared.kind === 'ready' ? { ...prepared, toolContext: { ...prepared.toolContext, runtime: this.runtime } } : prepared;
      let execution: Execution | undefined;
      if (call.kind === 'ready') {
        execution = this.order ? await this.order.schedule(call, () => execute(call, signal)) : await execute(call, signal);
      }
      if (options.finalizeAfter) await options.finalizeAfter;
      return await finalizeCall(call, execution, rt, signal);
    } catch (error) {
      // The stages return values; this guards the one-result-per-call promise against bugs.
      return syntheticResult(request, resultLostContent(messageOf(error)));
    }
  }

  private prepare(request: ToolCallRequest, rt: RuntimeContext, signal: AbortSignal): Promise<PreparedCall> {
    if (!this.order) return prepareCall(request, rt, signal);
    const prepared = this.prepareChain.then(() => prepareCall(request, rt, signal));
    this.prepareChain = prepared;
    return prepared;
  }
}

/**
 * Runs a ready call. A call that can be interrupted gets its own signal, so the listeners a tool
 * adds (a process, a fetch) sit on it rather than on the caller's (a dozen parallel calls would
 * trip Node's MaxListenersExceededWarning on one signal); the caller's abort reaches it through
 * the signal's one relay, and the call ends `interrupted` at once. A blocking tool finishes what
 * it started: its signal never fires.
 */
function execute(call: ReadyCall, signal: AbortSignal): Promise<Execution> {
  if (signal.aborted) return Promise.resolve({ ok: false, result: interruptedBeforeRun() });
  if (call.tool.interruptBehavior() === 'block') return executeCall(withSignal(call, NEVER));
  const own = new AbortController();
  let stop: () => void = () => undefined;
  const aborted = new Promise<Execution>((resolve) => {
    stop = () => {
      own.abort(signal.reason);
      resolve({ ok: false, result: interruptedWhileRunning() });
    };
  });
  const forget = onAbort(signal, stop);
  return Promise.race([executeCall(withSignal(call, own.signal)), aborted]).finally(forget);
}

function withSignal(call: ReadyCall, signal: AbortSignal): ReadyCall {
  return { ...call, toolContext: { ...call.toolContext, signal } };
}

// One listener per caller's signal while any of its calls runs, whatever their number: a call
// registers in a Set rather than on the signal, and the listener goes when the last call ends, so
// a signal shared by a whole session keeps none between calls. A blocking tool (the default)
// needs no relay at all, which keeps runToolCall's overhead low.
const relays = new WeakMap<AbortSignal, { calls: Set<() => void>; relay: () => void }>();

function onAbort(signal: AbortSignal, stop: () => void): () => void {
  let entry = relays.get(signal);
  if (!entry) {
    const calls = new Set<() => void>();
    const relay = () => {
      relays.delete(signal);
      for (const call of calls) call();
    };
    entry = { calls, relay };
    relays.set(signal, entry);
    signal.addEventListener('abort', relay, { once: true });
  }
  const { calls, relay } = entry;
  calls.add(stop);
  return () => {
    calls.delete(stop);
    if (calls.size === 0 && relays.get(signal)?.calls === calls) {
      relays.delete(signal);
      signal.removeEventListener('abort', relay);
    }
  };
}

const shared = new WeakMap<RuntimeContext, CallRunner>();

/**
 * The runtime's one scheduled runner, for calls a framework starts on its own (the adapters):
 * whichever adapter starts them, they share one prepare queue and one execution order.
 */
export function runnerFor(runtime: RuntimeContext): CallRunner {
  let runner = shared.get(runtime);
  if (!runner) {
    runner = new CallRunner(runtime);
    shared.set(runtime, runner);
  }
  return runner;
}
