// Stage 5: the permission decision. The policy decides (rules, mode, the tool's own check,
// hooks); "ask" goes to PermissionRequest hooks, then a person; with nobody to ask it is a deny.
import type { AnyTool, PermissionCheck, ToolContext } from '../tool/types.js';
import { runHooks } from '../hooks/run.js';
import type { PermissionDecision, RuntimeContext, ToolEvent } from './types.js';
import { fail, messageOf, type StageResult } from './outcome.js';
import type { ToolInput } from './parse.js';

export interface PermissionInput {
  tool: AnyTool;
  input: ToolInput;
  toolUseId: string;
  hookDecision?: { behavior: 'allow' | 'deny' | 'ask'; reason?: string };
  ctx: ToolContext;
}

export async function decidePermission(request: PermissionInput, rt: RuntimeContext): Promise<StageResult<ToolInput>> {
  const { tool, toolUseId } = request;
  let input = request.input;
  const emit = (event: ToolEvent): void => rt.emit?.(event);

  let toolCheck: PermissionCheck;
  try {
    toolCheck = await tool.checkPermissions(input, request.ctx);
  } catch (error) {
    return fail(`${tool.name}: its permission check failed (${messageOf(error)}); the call was not run.`);
  }
  if (toolCheck.updatedInput) input = toolCheck.updatedInput;

  let decision: PermissionDecision;
  try {
    decision = await rt.policy.decide({ tool, input, toolCheck, hookDecision: request.hookDecision, session: rt.session });
  } catch (error) {
    return fail(`${tool.name}: the permission policy failed (${messageOf(error)}); the call was not run.`);
  }
  if (decision.updatedInput) input = decision.updatedInput;

  if (decision.behavior === 'ask') {
    emit({ type: 'permission_asked', toolUseId, toolName: tool.name, input, decision });
    const resolved = await resolveAsk(tool, input, toolUseId, decision, rt, request.ctx.signal);
    emit({ type: 'permission_decided', toolUseId, toolName: tool.name, decision: resolved.decision, by: resolved.by });
    decision = resolved.decision;
  } else {
    emit({ type: 'permission_decided', toolUseId, toolName: tool.name, decision, by: 'policy' });
  }
  if (decision.behavior === 'allow') return { ok: true, value: input };
  return fail(denialMessage(tool.name, decision));
}

async function resolveAsk(
  tool: AnyTool,
  input: ToolInput,
  toolUseId: string,
  decision: PermissionDecision,
  rt: RuntimeContext,
  signal: AbortSignal,
): Promise<{ decision: PermissionDecision; by: 'user' | 'hook' | 'no-tty' }> {
  const hooks = await runHooks(
    rt.hooks,
    { hook_event_name: 'PermissionRequest', session_id: rt.session.id, cwd: rt.session.cwd, tool_name: tool.name, tool_input: input, tool_use_id: toolUseId },
    signal,
  );
  if (hooks.permissionDecision === 'allow' || hooks.permissionDecision === 'deny') {
    const reason = hooks.permissionDecisionReason ?? `a PermissionRequest hook answered ${hooks.permissionDecision}`;
    return { decision: { ...decision, behavior: hooks.permissionDecision, reason }, by: 'hook' };
  }
  if (!rt.askPermission) {
    return { decision: { ...decision, behavior: 'deny', reason: `${decision.reason}; no one can approve it in this non-interactive run` }, by: 'no-tty' };
  }
  try {
    const answer = await rt.askPermission({ tool, input, decision, toolUseId }, signal);
    if (answer.allow) return { decision: { ...decision, behavior: 'allow', reason: 'approved by the user' }, by: 'user' };
    const why = answer.message ? `the user declined: ${answer.message}` : 'the user declined this call';
    return { decision: { ...decision, behavior: 'deny', reason: why, suggestions: undefined }, by: 'user' };
  } catch (error) {
    return { decision: { ...decision, behavior: 'deny', reason: `the permission prompt failed (${messageOf(error)})` }, by: 'user' };
  }
}

/** What the model reads on a deny: why, and which rule would allow it. */
export function denialMessage(toolName: string, decision: PermissionDecision): string {
  const rules = decision.suggestions?.length ? ` To allow it, the user can add ${decision.suggestions.length > 1 ? 'the rules' : 'the rule'} ${decision.suggestions.map((rule) => `"${rule}"`).join(' and ')} to permissions.allow.` : '';
  return `Permission denied for ${toolName}: ${decision.reason}.${rules} Do not retry the same call; choose another approach or ask the user.`;
}
