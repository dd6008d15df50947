import { describe, expect, it } from 'vitest';
import { anthropicThinking, openAIEffort, THINKING_BUDGETS } from '../../../src/runtime/providers/reasoning.js';

describe('reasoning options per dialect', () => {
  it('gives Anthropic a budget with the answer room on top, and nothing when not asked', () => {
    expect(anthropicThinking(undefined, 16_384)).toEqual({ max_tokens: 16_384 });
    expect(anthropicThinking({ budgetTokens: 2048 }, 16_384)).toEqual({
      thinking: { type: 'enabled', budget_tokens: 2048 },
      max_tokens: 18_432,
    });
    expect(anthropicThinking({ effort: 'low' }, 100).thinking?.budget_tokens).toBe(THINKING_BUDGETS.low);
    expect(anthropicThinking({}, 100).thinking?.budget_tokens).toBe(THINKING_BUDGETS.medium);
  });

  it('gives OpenAI the effort asked for, or the one nearest a token budget', () => {
    expect(openAIEffort(undefined)).toBeUndefined();
    expect(openAIEffort({})).toBe('medium');
    expect(openAIEffort({ effort: 'high', budgetTokens: 1024 })).toBe('high');
    expect(openAIEffort({ budgetTokens: 2048 })).toBe('low');
    expect(openAIEffort({ budgetTokens: 20_000 })).toBe('medium');
    expect(openAIEffort({ budgetTokens: 64_000 })).toBe('high');
  });
});
