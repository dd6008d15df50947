import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMarkdownStream, loadMarkdownRenderer, splitReady } from '../../src/cli/markdown.js';

describe('streaming markdown a block at a time', () => {
  it('holds text until a block ends: a blank line, or the close of a code fence', () => {
    expect(splitReady('## Title\n\nSome tex')).toEqual({ ready: '## Title\n\n', rest: 'Some tex' });
    expect(splitReady('```ts\nconst a = 1;\n\nconst b')).toEqual({ ready: '', rest: '```ts\nconst a = 1;\n\nconst b' });
    expect(splitReady('```ts\nconst a = 1;\n```\nafter')).toEqual({ ready: '```ts\nconst a = 1;\n```\n', rest: 'after' });
    expect(splitReady('no newline yet')).toEqual({ ready: '', rest: 'no newline yet' });
  });

  it('loses and reorders nothing, however the text is split (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', ' ', '\n', '`', '```', '~~~', '#', '*'), { maxLength: 60 }), fc.nat(5), (parts, cut) => {
        const text = parts.join('');
        const out: string[] = [];
        const stream = createMarkdownStream(
          () => (md) => md,
          (t) => out.push(t),
        );
        for (let i = 0; i < text.length; i += cut + 1) stream.push(text.slice(i, i + cut + 1));
        stream.flush();
        // Blank lines between blocks may change; no other character is lost or moved.
        expect(out.join('').replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
      }),
    );
  });

  it('writes blocks as they came until the renderer has loaded, rendered after', () => {
    let render: ((md: string) => string) | undefined;
    const out: string[] = [];
    const stream = createMarkdownStream(
      () => render,
      (t) => out.push(t),
    );
    stream.push('**one**\n\n');
    render = (md) => md.toUpperCase();
    stream.push('two\n\n');
    expect(out).toEqual(['**one**\n\n', 'TWO\n\n']);
  });

  it('renders headings, emphasis and code without their markup', async () => {
    const render = await loadMarkdownRenderer(80);
    const out: string[] = [];
    const stream = createMarkdownStream(
      () => render,
      (t) => out.push(t),
    );
    for (const chunk of ['## Sum', 'mary\n\nSome **bold** and `x`.\n\n```js\nlet', ' a = 1;\n```\n']) stream.push(chunk);
    stream.flush();
    const plain = out.join('').replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toContain('Summary');
    expect(plain).not.toContain('##');
    expect(plain).not.toContain('**');
    expect(plain).not.toContain('```');
    expect(plain).toContain('let a = 1;');
  });

  it('renders inline code and emphasis inside list items too', async () => {
    const render = await loadMarkdownRenderer(80);
    const plain = render('- run `npm test` now\n- a **bold** item\n\n1. then `npm run build`\n').replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toContain('run npm test now');
    expect(plain).toContain('a bold item');
    expect(plain).toContain('then npm run build');
    expect(plain).not.toContain('`');
    expect(plain).not.toContain('**');
  });
});
