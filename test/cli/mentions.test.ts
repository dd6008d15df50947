import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { completeMention, findMentions, withAttachments } from '../../src/cli/mentions.js';

describe('@path mentions', () => {
  it('finds @file at the start of a word, quoted paths, once each, without trailing punctuation', () => {
    expect(findMentions('summarize @notes.txt, then @src/a.ts.')).toEqual(['notes.txt', 'src/a.ts']);
    expect(findMentions('@a.md and @"my file.md" and @a.md')).toEqual(['a.md', 'my file.md']);
    expect(findMentions('mail me at me@example.com')).toEqual([]);
    expect(findMentions('nothing here')).toEqual([]);
  });

  it('puts each attached file after the prompt, named', () => {
    expect(withAttachments('p', [])).toBe('p');
    expect(withAttachments('see @a', [{ path: 'a', text: '1\thello\n' }])).toBe(
      'see @a\n\nAttached with @ (read with the Read tool):\n<file path="a">\n1\thello\n</file>',
    );
  });

  it('completes the @path at the end of the line from the folder', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-complete-'));
    writeFileSync(path.join(dir, 'notes.txt'), '');
    writeFileSync(path.join(dir, '.hidden'), '');
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src', 'main.ts'), '');
    expect(completeMention('look at @no', dir)).toEqual([['@notes.txt'], '@no']);
    expect(completeMention('@', dir)).toEqual([['@notes.txt', '@src/'], '@']);
    expect(completeMention('@src/m', dir)).toEqual([['@src/main.ts'], '@src/m']);
    expect(completeMention('@.h', dir)).toEqual([['@.hidden'], '@.h']);
    expect(completeMention('no mention', dir)).toEqual([[], 'no mention']);
  });
});
