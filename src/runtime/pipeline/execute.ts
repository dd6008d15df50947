// The execute and finalize phases of one call: call → map result → budget → PostToolUse hooks.
import { ToolError, type ErrorKind, type ToolCallResult, type ToolResultContent } from '../tool/types.js';
import { applyBudget } from '../results/budget.js';
import { formatBudget } from '../tool/response-format.js';
import { errorContent, interruptedWhileRunning, type ErrorContent } from '../results/errors.js';
import { runHooks } from '../hooks/run.js';
import type { RuntimeContext } from './types.js';
import type { PreparedCall, ReadyCall } from './prepare.js';
import { messageOf } from '../util/message.js';
import { reportHooks } from './hook-outcome.js';
import { inputWithFormat } from './format.js';

/** What running a ready call produced, before mapping. */
export type Execution = { ok: true; output: unknown } | { ok: false; result: ErrorContent };

export async function executeCall(call: ReadyCall): Promise<Execution> {
  try {
    const output = await call.tool.call(call.input, call.toolContext);
    return { ok: true, output };
  } catch (error) {
    if (call.toolContext.signal.aborted) return { ok: false, result: interruptedWhileRunning() };
    if (error instanceof ToolError) return { ok: false, result: errorContent('tool_failed', error.message) };
    return { ok: false, result: errorContent('tool_failed', `${call.tool.name} failed: ${messageOf(error)}`) };
  }
}

/** Maps, budgets and post-processes a call's outcome into the one result the model gets. */
export async function finalizeCall(
  prepared: PreparedCall,
  execution: Execution | undefined,
  rt: RuntimeContext,
  signal: AbortSignal,
): Promise<ToolCallResult> {
  const { request } = prepared;
  const toolName = prepared.tool?.name ?? request.name;
  let modelResult: ToolResultContent;
  // The kind of an error the runtime wrote; an error result of the tool's own is tool_failed.
  let errorKind: ErrorKind | undefined;
  let display: string | undefined;
  if (prepared.kind === 'settled') {
    modelResult = prepared.result;
    errorKind = prepared.result.errorKind;
  } else if (!execution?.ok) {
    const failed = execution?.result ?? interruptedWhileRunning();
    modelResult = failed;
    errorKind = failed.errorKind;
  } else {
    try {
      const { tool, format } = prepared;
      // The budget applies after the format: a concise result is cut (and spilled) by its own, tighter budget.
      const maxChars = formatBudget(tool.maxResultChars, tool.responseFormats, format);
      modelResult = tool.toModel(execution.output, { maxChars }, format);
      display = tool.toDisplay?.(execution.output);
      modelResult = await applyBudget(modelResult, maxChars, rt.session, toolName, (spill) =>
        rt.emit?.({ type: 'result_budgeted', toolUseId: request.id, toolName, ...spill }),
      );
    } catch (error) {
      modelResult = errorContent('tool_failed', `${toolName} ran, but its result could not be prepared for you (${messageOf(error)}).`);
    }
  }
  if (prepared.kind === 'ready') {
    const before = modelResult;
    modelResult = await postHooks(prepared, modelResult, rt, signal);
    if (modelResult.isError && !before.isError) errorKind = 'hook_blocked';
  }
  const notes = prepared.kind === 'ready' ? prepared.notes : [];
  if (notes.length > 0) {
    modelResult = { ...modelResult, content: [...modelResult.content, { type: 'text', text: `[wield: ${notes.join('; ')}]` }] };
  }
  const isError = modelResult.isError === true;
  const result: ToolCallResult = {
    toolUseId: request.id,
    toolName,
    content: modelResult.content.length > 0 ? modelResult.content : [{ type: 'text', text: '(no output)' }],
    isError,
    ...(isError ? { errorKind: errorKind ?? 'tool_failed' } : {}),
    structured: modelResult.structured,
    display,
    durationMs: performance.now() - prepared.startedAt,
  };
  rt.emit?.({ type: 'tool_end', toolUseId: request.id, toolName, result });
  return result;
}

async function postHooks(
  call: ReadyCall,
  modelResult: ToolResultContent,
  rt: RuntimeContext,
  signal: AbortSignal,
): Promise<ToolResultContent> {
  const extra = [...call.hookContext];
  if (rt.hooks && rt.hooks.length > 0) {
    const hooks = await runHooks(
      rt.hooks,
      {
        hook_event_name: 'PostToolUse',
        session_id: rt.session.id,
        cwd: rt.session.cwd,
        tool_name: call.tool.name,
        tool_input: inputWithFormat(call.input, call.format),
        tool_use_id: call.request.id,
        tool_response: modelResult,
      },
      signal,
    );
    reportHooks(rt, call.request.id, call.tool.name, 'PostToolUse', hooks);
    if (hooks.replaceResult) modelResult = hooks.replaceResult;
    if (hooks.block) extra.push(`A PostToolUse hook flagged this result: ${hooks.block.reason}`);
    if (hooks.additionalContext) extra.push(hooks.additionalContext);
  }
  if (extra.length === 0) return modelResult;
  return { ...modelResult, content: [...modelResult.content, ...extra.map((text) => ({ type: 'text' as const, text }))] };
}
