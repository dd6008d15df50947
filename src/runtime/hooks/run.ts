// Runs the hooks that match an event and a tool, and merges their answers into one outcome.
import type { HookHandler, HookInput, HookOutcome } from '../hooks/types.js';
import { matchesTool } from './matcher.js';
import { messageOf } from '../util/message.js';

const STRICTNESS = { allow: 0, ask: 1, deny: 2 } as const;

export interface MergedHookOutcome extends HookOutcome {
  /** Hooks that failed to run; they never block, but the UI may show them. */
  errors: string[];
}

/**
 * Matching hooks run in parallel (as Claude Code's do). Merge: any block blocks; the strictest
 * permission decision wins (deny > ask > allow); rewritten inputs apply in hook order; contexts
 * are joined.
 */
export async function runHooks(
  handlers: readonly HookHandler[] | undefined,
  input: HookInput,
  signal: AbortSignal,
): Promise<MergedHookOutcome> {
  const merged: MergedHookOutcome = { errors: [] };
  const matching = (handlers ?? []).filter(
    (handler) =>
      handler.event === input.hook_event_name && (input.tool_name === undefined || matchesTool(handler.matcher, input.tool_name)),
  );
  if (matching.length === 0) return merged;
  const outcomes = await Promise.all(
    matching.map((handler) =>
      handler.run(input, signal).then(
        (outcome) => ({ handler, outcome }),
        (error: unknown) => ({ handler, error }),
      ),
    ),
  );
  const contexts: string[] = [];
  for (const entry of outcomes) {
    if ('error' in entry) {
      merged.errors.push(`hook ${entry.handler.name ?? entry.handler.matcher ?? entry.handler.event} failed: ${messageOf(entry.error)}`);
      continue;
    }
    const { outcome } = entry;
    if (outcome.block && !merged.block) merged.block = outcome.block;
    if (outcome.halt && !merged.halt) merged.halt = outcome.halt;
    if (
      outcome.permissionDecision &&
      (!merged.permissionDecision || STRICTNESS[outcome.permissionDecision] > STRICTNESS[merged.permissionDecision])
    ) {
      merged.permissionDecision = outcome.permissionDecision;
      merged.permissionDecisionReason = outcome.permissionDecisionReason;
    }
    if (outcome.updatedInput) merged.updatedInput = { ...(merged.updatedInput ?? {}), ...outcome.updatedInput };
    if (outcome.additionalContext) contexts.push(outcome.additionalContext);
    if (outcome.replaceResult) merged.replaceResult = outcome.replaceResult;
  }
  if (contexts.length > 0) merged.additionalContext = contexts.join('\n');
  return merged;
}
