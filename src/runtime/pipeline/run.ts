// One tool call on its own, on the one call runner: prepare → execute → finalize, with the
// abort, hook and permission behaviour of a batch (nothing to schedule it against).
import type { ToolCallResult } from '../tool/types.js';
import type { RuntimeContext, ToolCallRequest } from './types.js';
import { CallRunner } from '../scheduler/runner.js';

export function runToolCall(request: ToolCallRequest, runtime: RuntimeContext, signal?: AbortSignal): Promise<ToolCallResult> {
  return new CallRunner(runtime, { schedule: false }).run(request, signal);
}
