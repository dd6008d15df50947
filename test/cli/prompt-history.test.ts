import { describe, expect, it } from 'vitest';
import { historyFromText } from '../../src/cli/prompt-history.js';

describe('prompt history', () => {
  it('gives the newest prompt first, skipping blank lines, at most 500', () => {
    expect(historyFromText('a\n\nb\nc\n')).toEqual(['c', 'b', 'a']);
    const many = Array.from({ length: 600 }, (_, n) => `p${n}`).join('\n');
    const read = historyFromText(many);
    expect(read).toHaveLength(500);
    expect(read[0]).toBe('p599');
    expect(read.at(-1)).toBe('p100');
  });
});
