// One tool call through the whole path: prepare → execute → finalize.
import type { ToolCallResult } from '../tool/types.js';
import type { RuntimeContext, ToolCallRequest } from './types.js';
import { prepareCall } from './prepare.js';
import { forCallPath } from './runtime.js';
import { executeCall, finalizeCall } from './execute.js';

export async function runToolCall(request: ToolCallRequest, runtime: RuntimeContext, signal: AbortSignal): Promise<ToolCallResult> {
  const rt = forCallPath(runtime);
  const prepared = await prepareCall(request, rt, signal);
  const execution = prepared.kind === 'ready' ? await executeCall(prepared) : undefined;
  return finalizeCall(prepared, execution, rt, signal);
}
