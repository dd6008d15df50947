// A program's tool calls: each one a request on a call runner of its own over the runtime the
// RunCode call runs in, so an inner call takes the path a direct call takes (repair, validation,
// hooks, permission and the person, budgets, events, spans) and ends the same way. The person's
// thinking time is measured, so it never counts against the program's deadline.
import type { ContentBlock, ErrorKind } from '../tool/types.js';
import type { RuntimeContext } from '../pipeline/types.js';
import { CallRunner } from '../scheduler/runner.js';
import type { CallOutcome, ProgramHost } from './types.js';

/** One inner call as the ledger tells it: which tool, and how it ended. */
export interface LedgerEntry {
  tool: string;
  outcome: 'ok' | ErrorKind;
}

export interface ProgramBridge extends ProgramHost {
  /** The program's calls, in the order they ended. */
  ledger: LedgerEntry[];
}

/** Runtimes programs make their calls in: RunCode refuses to run in one (no program inside a program). */
const programRuntimes = new WeakSet<RuntimeContext>();

export function isProgramRuntime(runtime: RuntimeContext): boolean {
  return programRuntimes.has(runtime);
}

/**
 * @param parentId the RunCode call's id: inner calls are `<parentId>.1`, `.2`… in events and spans.
 */
export function createBridge(runtime: RuntimeContext, parentId: string, signal: AbortSignal): ProgramBridge {
  let waited = 0;
  let askingSince: number | undefined;
  const timed =
    <A extends unknown[], R>(ask: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      askingSince = performance.now();
      try {
        return await ask(...args);
      } finally {
        waited += performance.now() - askingSince;
        askingSince = undefined;
      }
    };
  const inner: RuntimeContext = {
    ...runtime,
    askPermission: runtime.askPermission && timed(runtime.askPermission),
    askUser: runtime.askUser && timed(runtime.askUser),
  };
  programRuntimes.add(inner);
  // Scheduled like a batch: calls the program starts together (Promise.all) are prepared one at a
  // time in call order, so permission prompts never interleave, and run under the ordering rules.
  const runner = new CallRunner(inner);
  const ledger: LedgerEntry[] = [];
  let calls = 0;
  return {
    signal,
    ledger,
    waitedMs: () => waited + (askingSince === undefined ? 0 : performance.now() - askingSince),
    async call(name, input): Promise<CallOutcome> {
      const result = await runner.run({ id: `${parentId}.${++calls}`, name, input }, signal);
      const text = textOf(result.content);
      if (!result.isError) {
        ledger.push({ tool: result.toolName, outcome: 'ok' });
        return { ok: true, text };
      }
      const kind = result.errorKind ?? 'tool_failed';
      ledger.push({ tool: result.toolName, outcome: kind });
      return { ok: false, message: text, kind };
    },
  };
}

/** A result as a program gets it: its text; an image is named, not inlined. */
export function textOf(content: readonly ContentBlock[]): string {
  return content.map((block) => (block.type === 'text' ? block.text : `[image: ${block.mediaType}]`)).join('\n');
}
