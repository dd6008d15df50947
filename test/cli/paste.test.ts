import { describe, expect, it } from 'vitest';
import { createPasteState } from '../../src/cli/paste.js';

describe('bracketed paste', () => {
  it('holds the lines of a paste and sends them as one prompt with the next Enter', () => {
    const paste = createPasteState();
    paste.start();
    expect(paste.line('first')).toBeUndefined();
    expect(paste.line('')).toBeUndefined();
    expect(paste.line('third')).toBeUndefined();
    expect(paste.end('fourth, unfinished')).toBe('first\n\nthird\nfourth, unfinished');
    expect(paste.line('')).toBe('first\n\nthird\nfourth, unfinished');
    expect(paste.line('next')).toBe('next');
  });

  it('adds what is typed after the paste, and leaves a one-line paste in the editor', () => {
    const paste = createPasteState();
    paste.start();
    paste.line('a');
    expect(paste.end('')).toBe('a');
    expect(paste.line('and b')).toBe('a\nand b');
    paste.start();
    expect(paste.end('just one line')).toBeUndefined();
    expect(paste.line('just one line')).toBe('just one line');
  });
});
