// Tells the runtime's listeners (the UI, traces) what a tool's hooks did, when they did anything.
import type { MergedHookOutcome } from '../hooks/run.js';
import type { RuntimeContext, ToolEvent } from './types.js';

type HookOutcomeEvent = Extract<ToolEvent, { type: 'hook_outcome' }>;

/** Pure: the event for a merged hook outcome, or undefined when no hook did anything. */
export function hookOutcomeEvent(
  toolUseId: string,
  toolName: string,
  event: HookOutcomeEvent['event'],
  merged: MergedHookOutcome,
): HookOutcomeEvent | undefined {
  const outcome: HookOutcomeEvent['outcome'] | undefined = merged.block
    ? 'block'
    : (merged.permissionDecision ??
      (merged.updatedInput
        ? 'rewrite'
        : merged.replaceResult
          ? 'replace'
          : merged.additionalContext
            ? 'context'
            : merged.errors.length > 0
              ? 'failed'
              : undefined));
  if (outcome === undefined) return undefined;
  const reason = merged.block?.reason ?? merged.permissionDecisionReason;
  return { type: 'hook_outcome', toolUseId, toolName, event, outcome, ...(reason ? { reason } : {}), errors: merged.errors };
}

export function reportHooks(
  rt: RuntimeContext,
  toolUseId: string,
  toolName: string,
  event: HookOutcomeEvent['event'],
  merged: MergedHookOutcome,
): void {
  const outcome = hookOutcomeEvent(toolUseId, toolName, event, merged);
  if (outcome) rt.emit?.(outcome);
}
