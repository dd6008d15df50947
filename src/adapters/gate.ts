// A framework (AI SDK, Agents SDK, LangChain) calls each tool's execute function on its own, often
// several at once for one model step, and without telling us which calls belong together. The gate
// is one scheduler per runtime that every adapter's calls go through, so wield's rules still hold:
// calls are prepared one at a time in arrival order (permission prompts never interleave), then run
// by the same ExecutionOrder as a batch: concurrency-safe calls together (at most 10), any other
// call alone after the calls before it, and calls with the same write key (one file) never at once.
// Arrival order is the model's order: the frameworks start a step's calls in the order the model
// sent them. Each call is finalized (result mapping, budget, PostToolUse hooks) on its own and gets
// exactly one result, whatever its siblings do.
import type { ToolCallResult } from '../runtime/tool/types.js';
import type { RuntimeContext, ToolCallRequest } from '../runtime/pipeline/types.js';
import { prepareCall, type PreparedCall } from '../runtime/pipeline/prepare.js';
import { executeCall, finalizeCall, type Execution } from '../runtime/pipeline/execute.js';
import { forCallPath } from '../runtime/pipeline/runtime.js';
import { interruptedBeforeRun } from '../runtime/results/errors.js';
import { ExecutionOrder } from '../runtime/scheduler/order.js';

export interface GatedCallOptions {
  /** The framework's abort signal for this call. */
  signal?: AbortSignal;
  /** The framework's own approval flow approved this call: an "ask" is answered yes. */
  approved?: boolean;
}

const NEVER = new AbortController().signal;

class CallGate {
  private readonly order = new ExecutionOrder();
  private prepareChain: Promise<unknown> = Promise.resolve();

  constructor(private readonly runtime: RuntimeContext) {}

  async run(request: ToolCallRequest, options: GatedCallOptions): Promise<ToolCallResult> {
    const signal = options.signal ?? NEVER;
    const rt = forCallPath(options.approved ? { ...this.runtime, askPermission: approvedByFramework } : this.runtime);
    const prepared: Promise<PreparedCall> = this.prepareChain.then(() => prepareCall(request, rt, signal));
    this.prepareChain = prepared;
    const call = await prepared;
    let execution: Execution | undefined;
    if (call.kind === 'ready') {
      execution = await this.order.schedule(call, async () =>
        signal.aborted ? { ok: false, result: interruptedBeforeRun() } : executeCall(call),
      );
    }
    return finalizeCall(call, execution, rt, signal);
  }
}

const approvedByFramework: NonNullable<RuntimeContext['askPermission']> = async () => ({ allow: true });

const gates = new WeakMap<RuntimeContext, CallGate>();

/** Runs one framework-started call through the whole pipeline, under the runtime's one gate. */
export function runGatedCall(runtime: RuntimeContext, request: ToolCallRequest, options: GatedCallOptions = {}): Promise<ToolCallResult> {
  let gate = gates.get(runtime);
  if (!gate) {
    gate = new CallGate(runtime);
    gates.set(runtime, gate);
  }
  return gate.run(request, options);
}
