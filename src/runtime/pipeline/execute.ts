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
  let content: ToolResultContent;
  // The kind of an error the runtime wrote; an error result of the tool's own is tool_failed.
  let errorKind: ErrorKind | undefined;
  let display: string | undefined;
  if (prepared.kind === 'settled') {
    content = prepared.result;
    errorKind = prepared.result.errorKind;
  } else if (!execution?.ok) {
    const failed = execution?.result ?? interruptedWhileRunning();
    content = failed;
    errorKind = failed.errorKind;
  } else {
    try {
      const { tool, format } = prepared;
      // The budget applies after the format: a concise result is cut (and spilled) by its own, tighter budget.
      const maxChars = formatBudget(tool.maxResultChars, tool.responseFormats, format);
      content = tool.toModel(execution.output, { maxChars }, format);
      display = tool.toDisplay?.(execution.output);
      content = await applyBudget(content, maxChars, rt.session, toolName, (spill) =>
        rt.emit?.({ type: 'result_budgeted', toolUseId: request.id, toolName, ...spill }),
      );
    } catch (error) {
      content = errorContent('tool_failed', `${toolName} ran, but its result could not be prepared for you (${messageOf(error)}).`);
    }
  }
  if (prepared.kind === 'ready') {
    const before = content;
    content = await postHooks(prepared, content, rt, signal);
    if (content.isError && !before.isError) errorKind = 'hook_blocked';
  }
  const notes = prepared.kind === 'ready' ? prepared.notes : [];
  if (notes.length > 0) {
    content = { ...content, content: [...content.content, { type: 'text', text: `[wield: ${notes.join('; ')}]` }] };
  }
  const isError = content.isError === true;
  const result: ToolCallResult = {
    toolUseId: request.id,
    toolName,
    content: content.content.length > 0 ? content.content : [{ type: 'text', text: '(no output)' }],
    isError,
    ...(isError ? { errorKind: errorKind ?? 'tool_failed' } : {}),
    structured: content.structured,
    display,
    durationMs: performance.now() - prepared.startedAt,
  };
  rt.emit?.({ type: 'tool_end', toolUseId: request.id, toolName, result });
  return result;
}

async function postHooks(call: ReadyCall, content: ToolResultContent, rt: RuntimeContext, signal: AbortSignal): Promise<ToolResultContent> {
  const extra = [...call.hookContext];
  if (rt.hooks && rt.hooks.length > 0) {
    const hooks = await runHooks(
      rt.hooks,
      {
        hook_event_name: 'PostToolUse',
        session_id: rt.session.id,
        cwd: rt.session.cwd,
        tool_name: call.tool.name,
        tool_input: call.input,
        tool_use_id: call.request.id,
        tool_response: content,
      },
      signal,
    );
    reportHooks(rt, call.request.id, call.tool.name, 'PostToolUse', hooks);
    if (hooks.replaceResult) content = hooks.replaceResult;
    if (hooks.block) extra.push(`A PostToolUse hook flagged this result: ${hooks.block.reason}`);
    if (hooks.additionalContext) extra.push(hooks.additionalContext);
  }
  if (extra.length === 0) return content;
  return { ...content, content: [...content.content, ...extra.map((text) => ({ type: 'text' as const, text }))] };
}
