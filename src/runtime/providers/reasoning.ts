// How `--thinking [tokens]` / `--effort LEVEL` read in each dialect. Pure.
// Anthropic: extended thinking with a token budget (max_tokens must exceed it, so the answer's
// own room is added on top). OpenAI Chat: reasoning_effort; Responses: reasoning.effort.
import type { ReasoningEffort, ReasoningOptions } from './types.js';

/** Anthropic's smallest thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

/** Budgets per effort, after Anthropic's guidance (start at the minimum, raise for harder tasks). */
export const THINKING_BUDGETS: Record<ReasoningEffort, number> = { low: 4_000, medium: 10_000, high: 32_000 };

export function thinkingBudget(reasoning: ReasoningOptions): number {
  return Math.max(MIN_THINKING_BUDGET, reasoning.budgetTokens ?? THINKING_BUDGETS[reasoning.effort ?? 'medium']);
}

/** The `thinking` and `max_tokens` parameters of an Anthropic request; `answerTokens` is the room left for the answer. */
export function anthropicThinking(
  reasoning: ReasoningOptions | undefined,
  answerTokens: number,
): { thinking?: { type: 'enabled'; budget_tokens: number }; max_tokens: number } {
  if (reasoning === undefined) return { max_tokens: answerTokens };
  const budget = thinkingBudget(reasoning);
  return { thinking: { type: 'enabled', budget_tokens: budget }, max_tokens: budget + answerTokens };
}

/** The OpenAI effort: as given, else the one whose Anthropic budget a token count is nearest to. */
export function openAIEffort(reasoning: ReasoningOptions | undefined): ReasoningEffort | undefined {
  if (reasoning === undefined) return undefined;
  if (reasoning.effort !== undefined) return reasoning.effort;
  const budget = reasoning.budgetTokens;
  if (budget === undefined) return 'medium';
  if (budget <= THINKING_BUDGETS.low) return 'low';
  return budget < THINKING_BUDGETS.high ? 'medium' : 'high';
}
