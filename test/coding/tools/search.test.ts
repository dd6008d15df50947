import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { globTool } from '../../../src/coding/tools/glob.js';
import { grepTool } from '../../../src/coding/tools/grep.js';
import type { GrepInput } from '../../../src/coding/tools/grep.js';
import { lsTool } from '../../../src/coding/tools/ls.js';
import { run, workspace } from './helpers.js';
import type { Workspace } from './helpers.js';

const rg = grepTool({ engine: 'ripgrep' });
const js = grepTool({ engine: 'js' });
let ws: Workspace;

beforeAll(() => {
  ws = workspace();
  ws.file('.gitignore', 'dist/\n*.log\n');
  ws.file('src/app.ts', 'import x from "y";\nexport function hello() {\n  return "Hello";\n}\n// TODO: more\n');
  ws.file('src/util.ts', 'export const a = 1;\nexport const b = 2;\n// todo lower\n');
  ws.file('src/deep/nested.py', 'def hello():\n    pass\n');
  ws.file('src/deep/.gitignore', 'secret.ts\n');
  ws.file('src/deep/secret.ts', 'hello from an ignored file\n');
  ws.file('.hidden/conf.ts', 'hello hidden\n');
  ws.file('dist/bundle.js', 'hello bundled\n');
  ws.file('debug.log', 'hello log\n');
  ws.file('bin.dat', Buffer.concat([Buffer.from('hello'), Buffer.from([0, 1, 2])]));
  ws.file('crlf.txt', 'hello\r\nworld\r\n');
  ws.file('unicode.md', '# Héllo wörld\nnaïve hello\n');
  let t = 1_700_000_000;
  for (const rel of ['src/app.ts', 'src/util.ts', 'src/deep/nested.py', '.hidden/conf.ts', 'crlf.txt', 'unicode.md']) {
    fs.utimesSync(path.join(ws.root, rel), t, t);
    t += 100;
  }
});
afterAll(() => ws.cleanup());

describe('Grep', () => {
  const queries: GrepInput[] = [
    { pattern: 'hello' },
    { pattern: 'hello', '-i': true },
    { pattern: 'hello', output_mode: 'content' },
    { pattern: 'hello', output_mode: 'content', '-n': false, '-i': true },
    { pattern: 'const', output_mode: 'content', '-C': 1 },
    { pattern: 'TODO', output_mode: 'content', '-i': true, '-B': 2 },
    { pattern: 'export', output_mode: 'count' },
    { pattern: 'hello', glob: '*.ts', output_mode: 'content' },
    { pattern: 'hello', type: 'py' },
    { pattern: 'function hello\\(\\) \\{\\n\\s+return', multiline: true, output_mode: 'content' },
    { pattern: 'e', output_mode: 'content', head_limit: 3 },
    { pattern: 'hello', path: 'src' },
    { pattern: 'world', path: 'crlf.txt', output_mode: 'content' },
  ];
  it.each(queries.map((q) => [JSON.stringify(q), q] as const))(
    'ripgrep and the JS fallback give the same output: %s',
    async (_label, query) => {
      const a = await run(rg, query, ws.ctx());
      const b = await run(js, query, ws.ctx());
      expect(a.isError).toBeFalsy();
      expect(b.text).toBe(a.text);
    },
  );

  it('respects .gitignore (nested too), skips binaries, includes hidden files, newest first', async () => {
    const out = await run(rg, { pattern: 'hello' }, ws.ctx());
    expect(out.text.split('\n')).toEqual([
      'Found 5 files',
      'unicode.md',
      'crlf.txt',
      '.hidden/conf.ts',
      'src/deep/nested.py',
      'src/app.ts',
    ]);
  });

  it('formats content like rg --no-heading, with context separators', async () => {
    const out = await run(rg, { pattern: 'const b', output_mode: 'content', '-B': 1 }, ws.ctx());
    expect(out.text).toBe('src/util.ts-1-export const a = 1;\nsrc/util.ts:2:export const b = 2;');
  });

  it('caps results with a notice', async () => {
    const out = await run(rg, { pattern: 'e', output_mode: 'content', head_limit: 2 }, ws.ctx());
    expect(out.text).toContain('[Showing 2 of');
    expect(out.text).toContain('head_limit 2');
  });

  it('falls back to the JS engine when rg cannot run', async () => {
    const broken = grepTool({ rgPath: path.join(ws.root, 'no-such-rg') });
    const output = await broken.call({ pattern: 'hello', output_mode: 'content' }, ws.ctx());
    expect(output.engine).toBe('js');
    expect(output.text).toBe((await run(rg, { pattern: 'hello', output_mode: 'content' }, ws.ctx())).text);
  });

  it('explains bad patterns, unknown paths and paths outside the workspace', async () => {
    expect((await run(rg, { pattern: '(' }, ws.ctx())).text).toContain('regex');
    expect((await run(js, { pattern: '(' }, ws.ctx())).text).toContain('not a valid regular expression');
    expect((await run(rg, { pattern: 'x', path: 'nope' }, ws.ctx())).text).toContain('does not exist');
    expect((await run(rg, { pattern: 'x', path: '/etc' }, ws.ctx())).text).toContain('outside the workspace');
    expect((await run(rg, { pattern: 'x', '-C': 500 }, ws.ctx())).text).toContain('-C must be between 0 and 100');
    expect((await run(rg, { pattern: 'nothing-matches-this' }, ws.ctx())).text).toBe('No matches found.');
  });
});

describe('Glob', () => {
  const glob = globTool();
  it('lists matches newest first and respects .gitignore', async () => {
    const out = await run(glob, { pattern: '**/*.ts' }, ws.ctx());
    expect(out.text.split('\n')).toEqual(['.hidden/conf.ts', 'src/util.ts', 'src/app.ts']);
    expect((await run(glob, { pattern: '*.ts', path: 'src' }, ws.ctx())).text.split('\n')).toEqual(['src/util.ts', 'src/app.ts']);
  });

  it('never follows a symlink out of the search root', async () => {
    const outside = path.join(path.dirname(ws.root), 'outside');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'leak.ts'), 'x');
    fs.symlinkSync(outside, path.join(ws.root, 'link-dir'));
    fs.symlinkSync(path.join(outside, 'leak.ts'), path.join(ws.root, 'link-file.ts'));
    try {
      const out = await run(glob, { pattern: '**/*.ts' }, ws.ctx());
      expect(out.text).not.toContain('leak');
      expect(out.text).not.toContain('link-file');
    } finally {
      fs.rmSync(path.join(ws.root, 'link-dir'));
      fs.rmSync(path.join(ws.root, 'link-file.ts'));
    }
  });

  it('caps at 100 with a notice and refuses patterns that climb out', async () => {
    for (let i = 0; i < 120; i++) ws.file(`many/f${i}.txt`, '');
    const out = await run(glob, { pattern: 'many/*.txt' }, ws.ctx());
    expect(out.text).toContain('[Showing the 100 newest of 120 files');
    fs.rmSync(path.join(ws.root, 'many'), { recursive: true });
    expect((await run(glob, { pattern: '../*' }, ws.ctx())).isError).toBe(true);
    expect((await run(glob, { pattern: 'zzz*' }, ws.ctx())).text).toBe('No files found.');
  });
});

describe('Glob at the edges', () => {
  it('says the working folder is gone instead of naming an undefined path', async () => {
    const gone = workspace();
    fs.rmSync(gone.root, { recursive: true });
    const out = await run(globTool(), { pattern: '*' }, gone.ctx());
    expect(out.isError).toBe(true);
    expect(out.text).toBe(
      `The working folder ${gone.root} no longer exists (deleted or moved); pass path as a folder that exists, or cd to one with Bash.`,
    );
    gone.cleanup();
  });

  it('lists a file whose name is not UTF-8', async () => {
    const odd = workspace();
    fs.writeFileSync(Buffer.concat([Buffer.from(`${odd.root}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'x');
    fs.writeFileSync(path.join(odd.root, 'plain.txt'), 'x');
    const out = await run(globTool(), { pattern: '*.txt' }, odd.ctx());
    expect(out.text.split('\n').filter((line) => line.endsWith('.txt'))).toHaveLength(2);
    expect(out.text).toMatch(/1 name is not valid UTF-8 and shown with \uFFFD; .*use Bash with a pattern/);
    odd.cleanup();
  });
});

describe('LS', () => {
  const ls = lsTool();
  it('prints a tree with folders marked, .gitignore and ignore patterns respected', async () => {
    const out = await run(ls, { path: 'src', ignore: ['*.py'] }, ws.ctx());
    expect(out.text).toBe(`${path.join(ws.root, 'src')}/\n  app.ts\n  deep/\n    .gitignore\n  util.ts`);
  });

  it('lists the root with hidden entries and without ignored ones', async () => {
    const out = await run(ls, {}, ws.ctx());
    expect(out.text).toContain('  .hidden/\n    conf.ts');
    expect(out.text).not.toContain('dist/');
    expect(out.text).not.toContain('debug.log');
    expect((await run(ls, { path: 'unicode.md' }, ws.ctx())).text).toContain('is a file');
  });
});
