import { describe, expect, it } from 'vitest';
import { clipLines, colorDiff, editedContent, fileDiff } from '../../src/cli/diff-view.js';

describe('edit diffs', () => {
  const file = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';

  it('numbers hunks by the file’s own lines (a change on line 7 is not @@ -1,1 +1,1 @@)', () => {
    const lines = fileDiff('Edit', '/p/a.txt', { file_path: '/p/a.txt', old_string: 'seven', new_string: 'SEVEN' }, file);
    expect(lines[0]).toBe('  /p/a.txt');
    expect(lines).toContain('  @@ -4,5 +4,5 @@');
    // Each line after its number in the file: the old one for a removal, the new one otherwise.
    expect(lines.slice(2)).toEqual(['  4  four', '  5  five', '  6  six', '  7 -seven', '  7 +SEVEN', '  8  eight']);
    const wide = fileDiff('Edit', 'w', { old_string: 'l9', new_string: 'x\ny' }, Array.from({ length: 12 }, (_, i) => `l${i}`).join('\n'));
    expect(wide).toContain('  10 -l9');
    expect(wide).toContain('  11 +y');
    expect(wide).toContain('  12  l10');
    const second = fileDiff('Edit', 'b', { old_string: 'two', new_string: 'TWO' }, 'one\ntwo\n');
    expect(second).toContain('  @@ -1,2 +1,2 @@');
  });

  it('applies replace_all, and a Write replaces the whole file', () => {
    expect(editedContent('Edit', { old_string: 'o', new_string: '0', replace_all: true }, 'foo boo')).toBe('f00 b00');
    expect(editedContent('Edit', { old_string: 'o', new_string: '$&$&' }, 'foo')).toBe('f$&$&o');
    expect(editedContent('Write', { content: 'new' }, undefined)).toBe('new');
    expect(fileDiff('Write', 'w', { content: 'a\nb\n' }, undefined)).toContain('  @@ -0,0 +1,2 @@');
  });

  it('says the numbers are unknown when the file does not hold the text', () => {
    const lines = fileDiff('Edit', 'c', { old_string: 'gone', new_string: 'back' }, 'other\n');
    expect(lines).toContain('  @@ (line numbers unknown: the file does not hold this text now) @@');
    expect(lines).toContain('  -gone');
  });

  it('colours additions, removals and hunk headers only when asked', () => {
    const lines = ['  f', '  @@ -1 +1 @@', '  1 -a', '  1 +b', '  2  c'];
    expect(colorDiff(lines, false)).toEqual(lines);
    const colored = colorDiff(lines, true);
    expect(colored[2]).toContain('\x1b[31m');
    expect(colored[3]).toContain('\x1b[32m');
    expect(colored[1]).toContain('\x1b[36m');
    expect(colored[4]).toBe('  2  c');
    expect(clipLines(['a', 'b', 'c'], 2)).toEqual(['a', 'b', '  … 1 more lines']);
  });
});
