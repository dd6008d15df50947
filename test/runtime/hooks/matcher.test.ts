import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { matcherError, matchesTool } from '../../../src/runtime/hooks/matcher.js';

describe('matchesTool', () => {
  it.each([
    [undefined, 'Bash', true],
    ['', 'Bash', true],
    ['*', 'mcp__x__y', true],
    ['Bash', 'Bash', true],
    ['Edit', 'NotebookEdit', false],
    ['Edit|Write', 'Write', true],
    ['Edit|Write', 'Read', false],
    ['mcp__github__.*', 'mcp__github__create_issue', true],
    ['mcp__github__.*', 'mcp__gitlab__x', false],
    ['Notebook.*', 'NotebookEdit', true],
    ['(', 'Bash', false],
  ])('%j vs %s → %s', (matcher, tool, want) => {
    expect(matchesTool(matcher, tool)).toBe(want);
  });

  it('property: an exact name matches only itself', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/), fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/), (a, b) => {
        expect(matchesTool(a, b)).toBe(a === b);
        expect(matchesTool(`${a}|${b}`, b)).toBe(true);
      }),
    );
  });

  it('explains an unusable matcher', () => {
    expect(matcherError('(')).toContain('not a valid regular expression');
    expect(matcherError('Edit|Write')).toBeUndefined();
  });
});
