// Stage 5: the permission decision. The policy decides (rules, mode, the tool's own check,
// hooks); "ask" goes to PermissionRequest hooks, then a person; with nobody to ask it is a deny.
// A PermissionRequest hook's allow may rewrite the input: the rewrite is validated and decided
// again (hard blocks, deny rules), so a hook cannot smuggle in what the rules refuse.
import type { AnyTool, PermissionCheck, ToolContext } from '../tool/types.js';
import { runHooks } from '../hooks/run.js';
import type { PermissionAnswer, PermissionDecision, RuntimeContext, ToolEvent } from './types.js';
import { errorContent, type ErrorContent } from '../results/errors.js';
import { fail, preview, type StageResult } from './outcome.js';
import { messageOf } from '../util/message.js';
import { isRecord } from '../util/record.js';
import { reportHooks } from './hook-outcome.js';
import type { ToolInput } from './parse.js';

const USER_DECLINED = 'the user declined: ';

/** The person's own words in a decline's reason (what a replay gives again), if they gave any. */
export function declineMessageOf(reason: string): string | undefined {
  return reason.startsWith(USER_DECLINED) ? reason.slice(USER_DECLINED.length) : undefined;
}

export interface PermissionInput {
  tool: AnyTool;
  input: ToolInput;
  toolUseId: string;
  hookDecision?: { behavior: 'allow' | 'deny' | 'ask'; reason?: string };
  ctx: ToolContext;
  /** Parses and validates a rewritten input again (schema, validateInput), as for the original. */
  recheck: (raw: unknown) => Promise<StageResult<ToolInput>>;
}

const REWRITTEN = 'the input as rewritten by a PermissionRequest hook';

export async function decidePermission(request: PermissionInput, rt: RuntimeContext): Promise<StageResult<ToolInput>> {
  const { tool, toolUseId } = request;
  let input = request.input;
  const emit = (event: ToolEvent): void => rt.emit?.(event);

  let toolCheck: PermissionCheck;
  try {
    toolCheck = await tool.checkPermissions(input, request.ctx);
  } catch (error) {
    return fail('tool_failed', `${tool.name}: its permission check failed (${messageOf(error)}); the call was not run.`);
  }
  if (toolCheck.updatedInput) input = toolCheck.updatedInput;

  let decision: PermissionDecision;
  try {
    decision = await rt.policy.decide({ tool, input, toolCheck, hookDecision: request.hookDecision, session: rt.session });
  } catch (error) {
    return fail('denied', `${tool.name}: the permission policy failed (${messageOf(error)}); the call was not run.`);
  }
  if (decision.updatedInput) input = decision.updatedInput;
  decision = tightenedByHook(decision, request.hookDecision);

  const asked = decision.behavior === 'ask';
  if (asked) {
    emit({ type: 'permission_asked', toolUseId, toolName: tool.name, input, decision });
    const resolved = await resolveAsk(tool, input, toolUseId, decision, rt, request.ctx.signal);
    decision = resolved.decision;
    if (decision.behavior === 'allow' && resolved.updatedInput) {
      const rewritten = await checkRewrite(request, { ...input, ...resolved.updatedInput }, rt);
      if (!rewritten.ok) {
        emit({ type: 'permission_decided', toolUseId, toolName: tool.name, decision: rewritten.decision, by: resolved.by });
        return { ok: false, error: rewritten.error };
      }
      input = rewritten.value;
    }
    emit({ type: 'permission_decided', toolUseId, toolName: tool.name, decision, by: resolved.by });
  } else {
    emit({ type: 'permission_decided', toolUseId, toolName: tool.name, decision, by: 'policy' });
  }
  if (decision.behavior === 'allow') {
    // An answer to an ask (a person, a PermissionRequest hook) is an approval, not a basis to contain by.
    request.ctx.allowedBy = asked ? undefined : decision.allowedBy;
    return { ok: true, value: input };
  }
  return fail('denied', denialMessage(tool.name, decision));
}

/**
 * A hook-approved rewrite runs only if it is valid and nothing refuses it: the tool's check and
 * the policy see the new input (its "ask" stands approved by the hook; a deny stands).
 */
async function checkRewrite(
  request: PermissionInput,
  raw: ToolInput,
  rt: RuntimeContext,
): Promise<{ ok: true; value: ToolInput } | { ok: false; error: ErrorContent; decision: PermissionDecision }> {
  const { tool } = request;
  const refuse = (reason: string, error: ErrorContent) => ({
    ok: false as const,
    error,
    decision: { behavior: 'deny' as const, reason },
  });
  const checked = await request.recheck(raw);
  if (!checked.ok) {
    const why = checked.error.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    const reason = `${REWRITTEN} is invalid`;
    return refuse(reason, errorContent('denied', `${tool.name}: ${reason}; the call was not run.\n${why}`));
  }
  let input = checked.value;
  let decision: PermissionDecision;
  try {
    const toolCheck = await tool.checkPermissions(input, request.ctx);
    if (toolCheck.updatedInput) input = toolCheck.updatedInput;
    decision = await rt.policy.decide({ tool, input, toolCheck, hookDecision: request.hookDecision, session: rt.session });
  } catch (error) {
    const reason = `the permission check of ${REWRITTEN} failed (${messageOf(error)})`;
    return refuse(reason, errorContent('denied', `${tool.name}: ${reason}; the call was not run.`));
  }
  if (decision.behavior === 'deny') {
    const denied = { ...decision, reason: `${REWRITTEN} is refused: ${decision.reason}`, suggestions: undefined };
    return { ok: false, error: errorContent('denied', denialMessage(tool.name, denied)), decision: denied };
  }
  return { ok: true, value: decision.updatedInput ?? input };
}

async function resolveAsk(
  tool: AnyTool,
  input: ToolInput,
  toolUseId: string,
  decision: PermissionDecision,
  rt: RuntimeContext,
  signal: AbortSignal,
): Promise<{ decision: PermissionDecision; by: 'user' | 'hook' | 'no-tty'; updatedInput?: ToolInput }> {
  const hooks = await runHooks(
    rt.hooks,
    {
      hook_event_name: 'PermissionRequest',
      session_id: rt.session.id,
      cwd: rt.session.cwd,
      tool_name: tool.name,
      tool_input: input,
      tool_use_id: toolUseId,
    },
    signal,
  );
  reportHooks(rt, toolUseId, tool.name, 'PermissionRequest', hooks);
  // Exit code 2 (or `continue: false`) denies, as in Claude Code.
  if (hooks.block)
    return {
      decision: {
        ...decision,
        behavior: 'deny',
        reason: `a PermissionRequest hook denied it: ${hooks.block.reason}`,
        suggestions: undefined,
      },
      by: 'hook',
    };
  if (hooks.permissionDecision === 'allow' || hooks.permissionDecision === 'deny') {
    const reason = hooks.permissionDecisionReason ?? `a PermissionRequest hook answered ${hooks.permissionDecision}`;
    const updatedInput = hooks.permissionDecision === 'allow' ? hooks.updatedInput : undefined;
    return { decision: { ...decision, behavior: hooks.permissionDecision, reason }, by: 'hook', updatedInput };
  }
  if (!rt.askPermission) {
    return {
      decision: { ...decision, behavior: 'deny', reason: `${decision.reason}; no one can approve it in this non-interactive run` },
      by: 'no-tty',
    };
  }
  try {
    const answer: unknown = await rt.askPermission({ tool, input, decision, toolUseId }, signal);
    if (!isPermissionAnswer(answer)) {
      const reason = `askPermission answered ${preview(answer)}, which is not a permission answer; it must return { behavior: 'allow' } or { behavior: 'deny', message? }`;
      return { decision: { ...decision, behavior: 'deny', reason, suggestions: undefined }, by: 'user' };
    }
    if (answer.behavior === 'allow') {
      // A read outside the workspace, approved: its folder joins the session's roots (the tool's
      // own path check and later calls see it), as Claude Code's "add this directory" does.
      if (decision.addDirectory && !rt.session.roots.includes(decision.addDirectory)) rt.session.roots.push(decision.addDirectory);
      return { decision: { ...decision, behavior: 'allow', reason: 'approved by the user' }, by: 'user' };
    }
    const why = answer.message ? `${USER_DECLINED}${answer.message}` : 'the user declined this call';
    return { decision: { ...decision, behavior: 'deny', reason: why, suggestions: undefined }, by: 'user' };
  } catch (error) {
    return { decision: { ...decision, behavior: 'deny', reason: `the permission prompt failed (${messageOf(error)})` }, by: 'user' };
  }
}

/**
 * Pure: a PreToolUse hook's "ask" holds whatever the policy said (allowAll, a custom policy, the
 * rule engine): an allow becomes an ask. Its deny never gets here (the call is blocked before).
 */
export function tightenedByHook(decision: PermissionDecision, hook: PermissionInput['hookDecision']): PermissionDecision {
  if (hook?.behavior !== 'ask' || decision.behavior !== 'allow') return decision;
  const reason = hook.reason ? `a PreToolUse hook asks for approval: ${hook.reason}` : 'a PreToolUse hook asks for approval';
  return { behavior: 'ask', reason, suggestions: [] };
}

function isPermissionAnswer(answer: unknown): answer is PermissionAnswer {
  return isRecord(answer) && (answer.behavior === 'allow' || answer.behavior === 'deny');
}

/** What the model reads on a deny: why, and which rule would allow it. */
export function denialMessage(toolName: string, decision: PermissionDecision): string {
  const rules = decision.suggestions?.length
    ? ` To allow it, the user can add ${decision.suggestions.length > 1 ? 'the rules' : 'the rule'} ${decision.suggestions.map((rule) => `"${rule}"`).join(' and ')} to permissions.allow.`
    : '';
  return `Permission denied for ${toolName}: ${decision.reason}.${rules} Do not retry the same call; choose another approach or ask the user.`;
}
