// Links in a rendered answer show where they go, even in a terminal that takes hyperlinks (where
// marked-terminal would draw one whose text can hide its target). The variable is set before the
// renderer first loads: supports-hyperlinks reads it once, on import.
import { describe, expect, it } from 'vitest';
import { loadMarkdownRenderer } from '../../src/cli/markdown.js';

process.env.FORCE_HYPERLINK = '1';

describe('links in answers', () => {
  it('are drawn as text and address, never as a terminal hyperlink', async () => {
    const render = await loadMarkdownRenderer(80);
    const out = render('See [the docs](https://docs.test/a) and <https://plain.test/>.\n');
    expect(out).not.toContain('\x1b]8;');
    const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toContain('the docs (https://docs.test/a)');
    expect(plain).toContain('https://plain.test/');
    expect(plain).not.toContain('https://plain.test/ (https://plain.test/)');
  });
});
