import { describe, expect, it } from 'vitest';
import { historyFromText, historyLine } from '../../src/cli/prompt-history.js';

describe('prompt history', () => {
  it('gives the newest prompt first, skipping blank lines, at most 500', () => {
    expect(historyFromText('a\n\nb\nc\n')).toEqual(['c', 'b', 'a']);
    const many = Array.from({ length: 600 }, (_, n) => `p${n}`).join('\n');
    const read = historyFromText(many);
    expect(read).toHaveLength(500);
    expect(read[0]).toBe('p599');
    expect(read.at(-1)).toBe('p100');
  });

  it('keeps a prompt of several lines, or one starting with a quote, whole on one line', () => {
    const prompts = ['first\nsecond', '"quoted" start', 'plain', 'tab\there \\ and "quotes"'];
    const text = `${prompts.map(historyLine).join('\n')}\n`;
    expect(text.split('\n').filter(Boolean)).toHaveLength(4);
    expect(historyFromText(text)).toEqual([...prompts].reverse());
    // Lines written before this encoding read as they were.
    expect(historyFromText('"unclosed\nold plain line\n')).toEqual(['old plain line', '"unclosed']);
  });
});
