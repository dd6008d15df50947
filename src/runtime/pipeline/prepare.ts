// The prepare phase of one call: lookup → parse → validate → validateInput → PreToolUse hooks
// → permission. Runs one call at a time, in the model's order, so prompts never interleave.
import type { AnyTool, ToolContext } from '../tool/types.js';
import { errorContent, interruptedBeforeRun, type ErrorContent } from '../results/errors.js';
import { runHooks } from '../hooks/run.js';
import type { RuntimeContext, ToolCallRequest } from './types.js';
import { lookupTool } from './lookup.js';
import { parseArguments, type ToolInput } from './parse.js';
import { validateArguments } from './validate.js';
import { decidePermission } from './permission.js';
import { reportHooks } from './hook-outcome.js';
import { fail, type StageResult } from './outcome.js';
import { messageOf } from '../util/message.js';
import { checkFreeform, FREEFORM_PARAMETER } from '../tool/freeform.js';
import { inputWithFormat, takeResponseFormat, type FormattedInput } from './format.js';

export interface ReadyCall {
  kind: 'ready';
  request: ToolCallRequest;
  tool: AnyTool;
  input: ToolInput;
  /** The response format for toModel: the model's choice or the tool's default; undefined for tools without formats. */
  format?: string;
  toolContext: ToolContext;
  /** Repairs made to the arguments, told to the model with the result. */
  notes: string[];
  /** Context PreToolUse hooks added, given to the model with the result. */
  hookContext: string[];
  startedAt: number;
}

export interface SettledCall {
  kind: 'settled';
  request: ToolCallRequest;
  tool?: AnyTool;
  /** Why the call ended before it ran. */
  result: ErrorContent;
  startedAt: number;
}

export type PreparedCall = ReadyCall | SettledCall;

export function makeContext(request: ToolCallRequest, rt: RuntimeContext, signal: AbortSignal): ToolContext {
  return {
    signal,
    session: rt.session,
    toolUseId: request.id,
    askUser: rt.askUser,
    onProgress: (progress) => rt.emit?.({ type: 'tool_progress', toolUseId: request.id, toolName: request.name, progress }),
  };
}

export async function prepareCall(request: ToolCallRequest, rt: RuntimeContext, signal: AbortSignal): Promise<PreparedCall> {
  const startedAt = performance.now();
  const settle = (result: ErrorContent, tool?: AnyTool): SettledCall => ({ kind: 'settled', request, tool, result, startedAt });
  if (signal.aborted) return settle(interruptedBeforeRun());
  const found = await lookupTool(request.name, rt, signal);
  if (!found.ok) return settle(found.error);
  const tool = found.value;
  const notes = [...(found.notes ?? [])];
  rt.emit?.({ type: 'tool_start', toolUseId: request.id, toolName: tool.name, input: request.input });
  const ctx = makeContext({ ...request, name: tool.name }, rt, signal);
  try {
    const checked = await checkFormattedInput(tool, request.input, ctx, notes);
    if (!checked.ok) return settle(checked.error, tool);
    let { input, format } = checked.value;

    const hooks = await runHooks(
      rt.hooks,
      {
        hook_event_name: 'PreToolUse',
        session_id: rt.session.id,
        cwd: rt.session.cwd,
        tool_name: tool.name,
        tool_input: inputWithFormat(input, format),
        tool_use_id: request.id,
      },
      signal,
    );
    reportHooks(rt, request.id, tool.name, 'PreToolUse', hooks);
    if (hooks.block) return settle(errorContent('hook_blocked', `Blocked by a PreToolUse hook: ${hooks.block.reason}`), tool);
    if (hooks.permissionDecision === 'deny') {
      return settle(
        errorContent('hook_blocked', `Denied by a PreToolUse hook: ${hooks.permissionDecisionReason ?? 'no reason given'}`),
        tool,
      );
    }
    if (hooks.updatedInput) {
      // A rewritten input is validated and checked again like the original.
      const rechecked = await checkFormattedInput(tool, { ...input, ...hooks.updatedInput }, ctx, notes);
      if (!rechecked.ok) return settle(rechecked.error, tool);
      input = rechecked.value.input;
      format = rechecked.value.format ?? format;
    }
    const hookDecision = hooks.permissionDecision
      ? { behavior: hooks.permissionDecision, reason: hooks.permissionDecisionReason }
      : undefined;
    const permitted = await decidePermission(
      {
        tool,
        input,
        toolUseId: request.id,
        hookDecision,
        ctx,
        recheck: (raw) => checkInput(tool, raw, ctx, notes),
      },
      rt,
    );
    // An abort while the person was asked (Esc at the prompt, a client that cancelled) is an
    // interruption, whatever the prompt answered or however it failed.
    if (signal.aborted) return settle(interruptedBeforeRun(), tool);
    if (!permitted.ok) return settle(permitted.error, tool);
    const hookContext = hooks.additionalContext ? [hooks.additionalContext] : [];
    format ??= tool.responseFormats?.default;
    const readyCtx = format === undefined ? ctx : { ...ctx, responseFormat: format };
    return { kind: 'ready', request, tool, input: permitted.value, format, toolContext: readyCtx, notes, hookContext, startedAt };
  } catch (error) {
    // Stages return values; this only catches a bug in a stage or a hook implementation.
    return settle(errorContent('tool_failed', `${tool.name}: the call could not be prepared (${messageOf(error)}).`), tool);
  }
}

function toolInputOf(checked: StageResult<FormattedInput>): StageResult<ToolInput> {
  return checked.ok ? { ok: true, value: checked.value.input } : checked;
}

/** parse → schema → the tool's own validateInput (also used by the adapters to preview a permission decision). */
export async function checkInput(tool: AnyTool, raw: unknown, ctx: ToolContext, notes: string[]): Promise<StageResult<ToolInput>> {
  return toolInputOf(await checkFormattedInput(tool, raw, ctx, notes));
}

/** parse → response format → schema → the tool's own validateInput. */
async function checkFormattedInput(tool: AnyTool, raw: unknown, ctx: ToolContext, notes: string[]): Promise<StageResult<FormattedInput>> {
  const parsed = parseArguments(raw, tool.inputJSONSchema);
  if (!parsed.ok) return parsed;
  notes.push(...(parsed.notes ?? []));
  const formatted = takeResponseFormat(tool, parsed.value);
  if (!formatted.ok) return formatted;
  const valid = await validateArguments(tool, formatted.value.input);
  if (!valid.ok) return valid;
  const checked = { ok: true as const, value: { input: valid.value, format: formatted.value.format } };
  if (tool.freeform) {
    const grammar = checkFreeform(tool.name, tool.freeform, String(valid.value[FREEFORM_PARAMETER]));
    if (!grammar.ok) return fail('invalid_input', grammar.message);
  }
  if (!tool.validateInput) return checked;
  try {
    const verdict = await tool.validateInput(valid.value, ctx);
    return verdict.ok ? checked : fail('invalid_input', verdict.message);
  } catch (error) {
    return fail('tool_failed', `${tool.name}: input check failed (${messageOf(error)}).`);
  }
}
