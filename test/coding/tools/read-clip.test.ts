// Read's clipped-line marker must state how many characters of the line are not shown, however
// long the line is (the streamed part beyond the kept prefix included).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readTool, READ_MAX_LINE_CHARS } from '../../../src/coding/tools/read.js';
import { run, workspace } from './helpers.js';
import type { Workspace } from './helpers.js';

const tool = readTool();
let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.cleanup());

const MARKER = /… \[line clipped: ([\d,]+) more characters\]$/;

/** Each numbered output line split into the shown text and the marker's count (0 when whole). */
function shownLines(text: string): Array<{ shown: string; notShown: number }> {
  return text
    .split('\n')
    .filter((line) => /^ *\d+\t/.test(line))
    .map((line) => {
      const body = line.slice(line.indexOf('\t') + 1);
      const marker = MARKER.exec(body);
      return marker ? { shown: body.slice(0, marker.index), notShown: Number(marker[1].replace(/,/g, '')) } : { shown: body, notShown: 0 };
    });
}

describe('Read clipped-line marker', () => {
  it.each([3_000, 8_000, 10_000, 20_000, 50_000, 100_000])('a %i-character line reports the characters not shown', async (length) => {
    ws.file('long.txt', `${'x'.repeat(length)}\nshort\n`);
    const out = await run(tool, { file_path: 'long.txt' }, ws.ctx());
    expect(out.text).toContain(`[line clipped: ${(length - READ_MAX_LINE_CHARS).toLocaleString('en-US')} more characters]`);
    const [first, second] = shownLines(out.text);
    expect(first.shown).toBe('x'.repeat(READ_MAX_LINE_CHARS));
    expect(second).toEqual({ shown: 'short', notShown: 0 });
  });

  it('counts characters, not bytes, in multi-byte text, CRLF lines and a BOM', async () => {
    const line = '日本🎉é'.repeat(3_000); // 15,000 UTF-16 characters, 27,000 bytes
    ws.file('cjk.txt', `\uFEFF${line}\r\n${line}\r\n`);
    const out = await run(tool, { file_path: 'cjk.txt' }, ws.ctx());
    for (const { shown, notShown } of shownLines(out.text)) {
      expect(shown.length + notShown).toBe(line.length);
      expect(line.startsWith(shown)).toBe(true);
    }
  });

  it('property: shown characters + the marker count = the line length, for random lengths', async () => {
    const piece = fc.constantFrom('a', 'é', '日', '🎉', 'xyz ');
    const lineSpec = fc.record({ length: fc.integer({ min: 0, max: 60_000 }), piece, crlf: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(lineSpec, { minLength: 1, maxLength: 5 }), async (specs) => {
        const lines = specs.map(({ length, piece: p }) =>
          p
            .repeat(Math.ceil(length / p.length))
            .slice(0, length)
            .replace(/[\uD800-\uDBFF]$/, ''),
        );
        ws.file('p.txt', lines.map((line, i) => line + (specs[i].crlf ? '\r\n' : '\n')).join(''));
        const out = await run(tool, { file_path: 'p.txt' }, ws.ctx());
        const got = shownLines(out.text);
        expect(got).toHaveLength(lines.length);
        got.forEach(({ shown, notShown }, i) => {
          expect(shown.length + notShown).toBe(lines[i].length);
          expect(lines[i].startsWith(shown)).toBe(true);
          expect(shown.length).toBeLessThanOrEqual(READ_MAX_LINE_CHARS);
          expect(notShown > 0).toBe(lines[i].length > READ_MAX_LINE_CHARS);
        });
      }),
      { numRuns: 40 },
    );
  });
});
