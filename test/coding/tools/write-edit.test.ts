import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleCrashWriter } from './crash-writer-bundle.js';
import { editTool } from '../../../src/coding/tools/edit.js';
import { applyEdit, closestRegion, decodeText, encodeText } from '../../../src/coding/tools/edit-match.js';
import { readTool } from '../../../src/coding/tools/read.js';
import { writeTool } from '../../../src/coding/tools/write.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { runBatch } from '../../../src/runtime/scheduler/batch.js';
import { run, workspace } from './helpers.js';
import type { Workspace } from './helpers.js';

const read = readTool();
const write = writeTool();
const edit = editTool();
let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.cleanup());

describe('Write', () => {
  it('creates files and parent folders, atomically', async () => {
    const out = await run(write, { file_path: 'deep/new/file.txt', content: 'hello\nworld\n' }, ws.ctx());
    expect(out.isError).toBeFalsy();
    expect(out.text).toContain('Created deep/new/file.txt (2 lines');
    expect(fs.readFileSync(path.join(ws.root, 'deep/new/file.txt'), 'utf8')).toBe('hello\nworld\n');
    expect(fs.readdirSync(path.join(ws.root, 'deep/new'))).toEqual(['file.txt']); // no temp left behind
  });

  it('refuses to overwrite a file that was not read, and one changed since the read', async () => {
    const file = ws.file('a.txt', 'old');
    const unread = await run(write, { file_path: 'a.txt', content: 'new' }, ws.ctx());
    expect(unread.isError).toBe(true);
    expect(unread.text).toContain('Read it first');
    await run(read, { file_path: 'a.txt' }, ws.ctx());
    fs.writeFileSync(file, 'changed by someone else');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const stale = await run(write, { file_path: 'a.txt', content: 'new' }, ws.ctx());
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain('changed on disk');
    expect(fs.readFileSync(file, 'utf8')).toBe('changed by someone else');
    await run(read, { file_path: 'a.txt' }, ws.ctx());
    expect((await run(write, { file_path: 'a.txt', content: 'new' }, ws.ctx())).isError).toBeFalsy();
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
  });

  it('keeps the mode of the file it replaces', async () => {
    const file = ws.file('run.sh', '#!/bin/sh\n');
    fs.chmodSync(file, 0o750);
    await run(read, { file_path: 'run.sh' }, ws.ctx());
    await run(write, { file_path: 'run.sh', content: '#!/bin/sh\necho hi\n' }, ws.ctx());
    expect(fs.statSync(file).mode & 0o777).toBe(0o750);
  });

  it('refuses paths outside the workspace, through links too', async () => {
    const outside = path.join(path.dirname(ws.root), 'victim.txt');
    fs.writeFileSync(outside, 'untouched');
    fs.symlinkSync(outside, path.join(ws.root, 'out.txt'));
    expect((await run(write, { file_path: 'out.txt', content: 'x' }, ws.ctx())).isError).toBe(true);
    expect((await run(write, { file_path: '../victim.txt', content: 'x' }, ws.ctx())).isError).toBe(true);
    expect((await run(write, { file_path: '~/x', content: 'x' }, ws.ctx())).isError).toBe(true);
    expect(fs.readFileSync(outside, 'utf8')).toBe('untouched');
    expect(write.writeKey?.({ file_path: 'a', content: '' }, { cwd: '/w' })).toBe('/w/a');
  });

  it('leaves the old or the new file, never a partial one, when killed -9 mid-write', async () => {
    const script = await bundleCrashWriter(path.join(path.dirname(ws.root), 'crash-writer.mjs'));
    const size = 8 * 1024 * 1024;
    const file = ws.file('target.bin', Buffer.alloc(size, 'O'));
    for (const delay of [150, 400, 700]) {
      const child = spawn(process.execPath, [script, file, String(size)], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise((resolve) => child.stdout.once('data', resolve));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const data = fs.readFileSync(file);
      expect(data.length).toBe(size);
      const first = data[0];
      expect([0x4f, 0x41, 0x42]).toContain(first);
      expect(data.every((byte) => byte === first)).toBe(true);
    }
  });
});

describe('Edit', () => {
  it('replaces a unique string and returns a short diff', async () => {
    const file = ws.file('a.ts', 'const a = 1;\nconst b = 2;\n');
    await run(read, { file_path: 'a.ts' }, ws.ctx());
    const out = await run(edit, { file_path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }, ws.ctx());
    expect(out.isError).toBeFalsy();
    expect(out.text).toContain('-const b = 2;');
    expect(out.text).toContain('+const b = 3;');
    expect(fs.readFileSync(file, 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
    // A second edit works without a re-read: the session knows what it wrote.
    const again = await run(edit, { file_path: 'a.ts', old_string: 'const a = 1;', new_string: 'const a = 0;' }, ws.ctx());
    expect(again.isError).toBeFalsy();
  });

  it('requires a prior Read and detects changes on disk since', async () => {
    const file = ws.file('a.txt', 'x = 1\n');
    const unread = await run(edit, { file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' }, ws.ctx());
    expect(unread.text).toContain('Read it first');
    await run(read, { file_path: 'a.txt' }, ws.ctx());
    fs.writeFileSync(file, 'x = 1 # edited elsewhere\n');
    const stale = await run(edit, { file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' }, ws.ctx());
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain('changed on disk');
  });

  it('refuses no-op, ambiguous and missing edits with actionable messages', async () => {
    ws.file('a.txt', 'foo\nbar\nfoo\n');
    await run(read, { file_path: 'a.txt' }, ws.ctx());
    expect((await run(edit, { file_path: 'a.txt', old_string: 'foo', new_string: 'foo' }, ws.ctx())).text).toContain('identical');
    const ambiguous = await run(edit, { file_path: 'a.txt', old_string: 'foo', new_string: 'baz' }, ws.ctx());
    expect(ambiguous.text).toContain('occurs 2 times');
    expect(ambiguous.text).toContain('lines 1, 3');
    const all = await run(edit, { file_path: 'a.txt', old_string: 'foo', new_string: 'baz', replace_all: true }, ws.ctx());
    expect(all.text).toContain('2 replacements');
    expect((await run(edit, { file_path: 'a.txt', old_string: '', new_string: 'x' }, ws.ctx())).text).toContain(
      'old_string must not be empty',
    );
  });

  it('shows the closest region when only whitespace or quotes differ', async () => {
    ws.file('q.py', 'def f():\n    print("hello")\n    return 1\n');
    await run(read, { file_path: 'q.py' }, ws.ctx());
    const out = await run(edit, { file_path: 'q.py', old_string: 'print(“hello”)\n  return 1', new_string: 'x' }, ws.ctx());
    expect(out.isError).toBe(true);
    expect(out.text).toContain('only in whitespace or quote characters');
    expect(out.text).toContain('     2\t    print("hello")');
  });

  it('preserves CRLF line endings and a BOM', async () => {
    const file = ws.file('w.txt', '\uFEFFone\r\ntwo\r\nthree\r\n');
    await run(read, { file_path: 'w.txt' }, ws.ctx());
    const out = await run(edit, { file_path: 'w.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' }, ws.ctx());
    expect(out.isError).toBeFalsy();
    expect(fs.readFileSync(file, 'utf8')).toBe('\uFEFFuno\r\ndos\r\nthree\r\n');
  });

  it('edits unicode text and keeps `$&` in new_string literal', async () => {
    const file = ws.file('u.txt', 'naïve café 日本\n');
    await run(read, { file_path: 'u.txt' }, ws.ctx());
    await run(edit, { file_path: 'u.txt', old_string: 'café', new_string: '$& 🍵' }, ws.ctx());
    expect(fs.readFileSync(file, 'utf8')).toBe('naïve $& 🍵 日本\n');
  });

  it('serializes concurrent Edits of one file (direct calls and one batch)', async () => {
    const file = ws.file('n.txt', Array.from({ length: 20 }, (_, i) => `v${i}=0`).join('\n'));
    await run(read, { file_path: 'n.txt' }, ws.ctx());
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => run(edit, { file_path: 'n.txt', old_string: `v${i}=0`, new_string: `v${i}=1` }, ws.ctx())),
    );
    expect(results.every((r) => !r.isError)).toBe(true);
    const registry = new ToolRegistry();
    registry.register(edit);
    const rt = createRuntime({ registry, session: ws.session, policy: allowAll });
    const calls = Array.from({ length: 10 }, (_, i) => ({
      id: `c${i}`,
      name: 'Edit',
      input: { file_path: 'n.txt', old_string: `v${i + 10}=0`, new_string: `v${i + 10}=1` },
    }));
    const batch = await runBatch(calls, rt, { signal: new AbortController().signal });
    expect(batch.map((r) => r.isError)).toEqual(Array(10).fill(false));
    expect(fs.readFileSync(file, 'utf8')).toBe(Array.from({ length: 20 }, (_, i) => `v${i}=1`).join('\n'));
  });
});

describe('edit decisions (pure)', () => {
  it('decode/encode round-trips any text with LF or CRLF and an optional BOM (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string().map((s) => s.replace(/[\r\n]/g, ''))), fc.boolean(), fc.boolean(), (lines, crlf, bom) => {
        const raw = (bom ? '\uFEFF' : '') + lines.join(crlf ? '\r\n' : '\n');
        const { text, format } = decodeText(raw);
        expect(encodeText(text, format)).toBe(raw);
        expect(text.includes('\r\n')).toBe(false);
      }),
    );
  });

  it('applyEdit replaces exactly the occurrences counted (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), (text, needle, replacement) => {
        const result = applyEdit(text, needle, replacement, true);
        if (!text.includes(needle)) expect(result).toEqual({ ok: false, kind: 'not_found' });
        else if (result.ok) expect(result.text).toBe(text.split(needle).join(replacement));
      }),
    );
  });

  it('finds nothing when nothing is close', () => {
    expect(closestRegion('alpha\nbeta\n', 'zzzzzzzzzzzzzzz qqqqqqq')).toBeUndefined();
  });
});
