import { describe, expect, it } from 'vitest';
import { resultSummary } from '../../src/cli/summary.js';
import { emptySpend, statusLine } from '../../src/cli/slash-commands.js';

describe('result summaries', () => {
  const result = (text: string, durationMs = 10) => ({
    toolUseId: 'a',
    toolName: 'Bash',
    durationMs,
    isError: false,
    content: [{ type: 'text' as const, text }],
  });

  it('says "no output" for a command that printed nothing, not "2 lines"', () => {
    expect(resultSummary(result('(no output)\n[exit code 0]'))).toBe('no output');
    expect(resultSummary(result('built\n[exit code 0]'))).toBe('built');
    expect(resultSummary(result('a\nb\n'))).toBe('2 lines');
  });

  it('leaves the time spent waiting for the person out of the duration', () => {
    expect(resultSummary(result('x', 9_000), 8_400)).toBe('x');
    expect(resultSummary(result('x', 9_000), 6_000)).toBe('x · 3.0s');
  });
});

describe('the status line', () => {
  it('names the model, the context used as a share of the window, and the cost', () => {
    expect(statusLine('m', { ...emptySpend(), costUsd: 0.01234, contextTokens: 24_000, contextWindow: 200_000 })).toBe(
      'm · context 12% of 200k · $0.0123',
    );
    expect(statusLine('m', { ...emptySpend(), costKnown: false })).toBe('m · cost unknown');
  });
});
