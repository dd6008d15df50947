// Grep, Glob and LS under Read deny rules: hidden files are never shown (nor opened by rg), the
// result says how many were hidden, and both Grep engines agree. Real files, real ripgrep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { rgPath } from '@vscode/ripgrep';
import { readDenyPredicate } from '../../../src/coding/permissions/read-deny.js';
import { globTool } from '../../../src/coding/tools/glob.js';
import { grepTool, type GrepInput } from '../../../src/coding/tools/grep.js';
import { lsTool } from '../../../src/coding/tools/ls.js';
import { denyRule, run, workspace, type Workspace } from './helpers.js';

const rg = grepTool({ engine: 'ripgrep' });
const js = grepTool({ engine: 'js' });
/** Text of hidden files, their names and the hidden folder: none may appear in any result. */
const LEAKS = ['secret-root', 'secret-local', 'secret-nested', 'secret-pem', 'secret-notes', '.env', 'id.pem', 'private'];
let ws: Workspace;

beforeAll(() => {
  ws = workspace();
  ws.file('.gitignore', 'ignored/\n');
  ws.file('.env', 'TOKEN=secret-root\n');
  ws.file('.env.local', 'TOKEN=secret-local\n');
  ws.file('app/.env', 'TOKEN=secret-nested\n');
  ws.file('app/main.ts', 'const secret = load();\n');
  ws.file('app/keys/id.pem', 'secret-pem\n');
  ws.file('app/keys/readme.txt', 'the secret key lives next door\n');
  ws.file('private/notes.md', 'secret-notes\n');
  ws.file('docs/guide.md', 'keep the secret safe\n');
  ws.file('ignored/x.txt', 'secret-ignored\n');
  // A bare name (any depth), a `**` pattern anchored at the settings folder, an absolute `//` folder.
  const rules = ['Read(.env*)', 'Read(app/**/*.pem)', `Read(/${ws.root}/private)`].map((text) => denyRule(text, ws.root));
  ws.session.readDenied = readDenyPredicate(rules, path.dirname(ws.root));
});
afterAll(() => ws.cleanup());

const note = (n: number, noun: 'file' | 'entry' = 'file') =>
  `[${n} ${n === 1 ? noun : noun === 'file' ? 'files' : 'entries'} hidden by Read deny rules]`;

describe('Grep under Read deny rules', () => {
  const cases: Array<[GrepInput, string]> = [
    [
      { pattern: 'secret', output_mode: 'content' },
      `app/keys/readme.txt:1:the secret key lives next door\napp/main.ts:1:const secret = load();\ndocs/guide.md:1:keep the secret safe\n${note(5)}`,
    ],
    [
      { pattern: 'secret', output_mode: 'count' },
      `3 matching lines in 3 files\napp/keys/readme.txt:1\napp/main.ts:1\ndocs/guide.md:1\n${note(5)}`,
    ],
    [{ pattern: 'TOKEN' }, `No matches found.\n${note(5)}`],
    [{ pattern: 'secret', glob: '.env', output_mode: 'content' }, `No matches found.\n${note(2)}`],
    [{ pattern: 'secret', glob: '*.md', output_mode: 'content' }, `docs/guide.md:1:keep the secret safe\n${note(1)}`],
    [{ pattern: 'secret', type: 'md', output_mode: 'count' }, `1 matching lines in 1 files\ndocs/guide.md:1\n${note(1)}`],
    [{ pattern: 'secret', glob: '*.ts', output_mode: 'content' }, 'app/main.ts:1:const secret = load();'],
    [
      { pattern: 'secret', path: 'app', output_mode: 'content' },
      `app/keys/readme.txt:1:the secret key lives next door\napp/main.ts:1:const secret = load();\n${note(2)}`,
    ],
    [
      { pattern: 'secret', path: 'app/keys', output_mode: 'content', '-C': 2 },
      `app/keys/readme.txt:1:the secret key lives next door\n${note(1)}`,
    ],
    [{ pattern: 'secret', path: 'docs', output_mode: 'content' }, 'docs/guide.md:1:keep the secret safe'],
    [{ pattern: 'TOKEN=\\w+\\n', multiline: true, output_mode: 'content' }, `No matches found.\n${note(5)}`],
    [{ pattern: 'secret', path: '.env', output_mode: 'content' }, `No matches found.\n${note(1)}`],
  ];
  it.each(cases.map(([input, expected]) => [JSON.stringify(input), input, expected] as const))('%s', async (_label, input, expected) => {
    const a = await run(rg, input, ws.ctx());
    const b = await run(js, input, ws.ctx());
    expect(a.isError).toBeFalsy();
    expect(a.text).toBe(expected);
    expect(b.text).toBe(a.text);
    for (const leak of LEAKS) expect(a.text).not.toContain(leak);
  });

  it('lists matching files without the hidden ones, newest first', async () => {
    const out = await run(rg, { pattern: 'secret' }, ws.ctx());
    expect(out.text.split('\n').slice(1).sort()).toEqual(['app/keys/readme.txt', 'app/main.ts', 'docs/guide.md', note(5)].sort());
    expect((await run(js, { pattern: 'secret' }, ws.ctx())).text).toBe(out.text);
  });

  it('shows everything, with no note, when no rule hides anything', async () => {
    const open = { ...ws.session, readDenied: undefined };
    const out = await run(rg, { pattern: 'secret-root', output_mode: 'content' }, ws.ctx({ session: open }));
    expect(out.text).toBe('.env:1:TOKEN=secret-root');
  });

  it('ripgrep never opens a hidden file', async () => {
    // rg --trace names every file it searches; the wrapper keeps that log apart from the tool's stderr.
    const log = path.join(path.dirname(ws.root), 'rg-trace.log');
    const wrapper = path.join(path.dirname(ws.root), 'rg-traced.sh');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec '${rgPath}' --trace "$@" 2>>'${log}'\n`, { mode: 0o755 });
    const out = await run(grepTool({ engine: 'ripgrep', rgPath: wrapper }), { pattern: 'secret', output_mode: 'content' }, ws.ctx());
    expect(out.text).toContain(note(5));
    const opened = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => / searching |binary detection/.test(line));
    expect(opened.some((line) => line.includes('app/main.ts'))).toBe(true);
    for (const leak of ['.env', 'id.pem', 'private']) expect(opened.filter((line) => line.includes(leak))).toEqual([]);
  });

  it('rg leaves out hidden names that need escaping, or drops them from its output', async () => {
    const odd = workspace();
    try {
      for (const name of ['sp ace.env', 'star*.env', 'br[1]{x}.env', 'trail.env ', 'tab\t.env', 'plain.txt'])
        odd.file(`d/${name}`, 'secret\n');
      odd.session.readDenied = readDenyPredicate([denyRule('Read(*.env*)', odd.root)]);
      const a = await run(rg, { pattern: 'secret' }, odd.ctx());
      expect(a.text).toBe(`Found 1 file\nd/plain.txt\n${note(5)}`);
      expect((await run(js, { pattern: 'secret' }, odd.ctx())).text).toBe(a.text);
    } finally {
      odd.cleanup();
    }
  });

  it('the JS engine hides a symlink to a hidden file (rg never follows links)', async () => {
    fs.symlinkSync(path.join(ws.root, '.env'), path.join(ws.root, 'link.txt'));
    try {
      const out = await run(js, { pattern: 'TOKEN', output_mode: 'content' }, ws.ctx());
      expect(out.text).toBe(`No matches found.\n${note(6)}`);
    } finally {
      fs.rmSync(path.join(ws.root, 'link.txt'));
    }
  });
});

describe('Glob under Read deny rules', () => {
  const glob = globTool();
  it('lists only what the rules allow and counts the rest', async () => {
    const all = await run(glob, { pattern: '**/*' }, ws.ctx());
    expect(all.text.split('\n').slice(0, -1).sort()).toEqual(['.gitignore', 'app/keys/readme.txt', 'app/main.ts', 'docs/guide.md']);
    expect(all.text.endsWith(`\n${note(5)}`)).toBe(true);
    expect((await run(glob, { pattern: '**/.env*' }, ws.ctx())).text).toBe(`No files found.\n${note(3)}`);
    expect((await run(glob, { pattern: '*.md', path: 'docs' }, ws.ctx())).text).toBe('docs/guide.md');
  });
});

describe('LS under Read deny rules', () => {
  const ls = lsTool();
  it('leaves hidden files and folders out of the tree, a hidden folder counted once', async () => {
    const out = await run(ls, {}, ws.ctx());
    expect(out.text).toBe(
      `${ws.root}/\n  .gitignore\n  app/\n    keys/\n      readme.txt\n    main.ts\n  docs/\n    guide.md\n${note(5, 'entry')}`,
    );
  });

  it('hides a symlink that leads to a hidden file', async () => {
    fs.symlinkSync(path.join(ws.root, '.env'), path.join(ws.root, 'docs', 'link.txt'));
    try {
      const out = await run(ls, {}, ws.ctx());
      expect(out.text).not.toContain('link.txt');
      expect(out.text.endsWith(note(6, 'entry'))).toBe(true);
    } finally {
      fs.rmSync(path.join(ws.root, 'docs', 'link.txt'));
    }
  });

  it('does not count what the ignore parameter leaves out anyway', async () => {
    const out = await run(ls, { path: 'app', ignore: ['*.pem'] }, ws.ctx());
    expect(out.text).toBe(`${path.join(ws.root, 'app')}/\n  keys/\n    readme.txt\n  main.ts\n${note(1, 'entry')}`);
  });
});
