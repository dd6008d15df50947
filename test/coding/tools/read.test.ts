import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readTool } from '../../../src/coding/tools/read.js';
import { IMAGE_MAX_EDGE, IMAGE_MAX_INPUT_BYTES } from '../../../src/coding/tools/image-scale.js';
import sharp from 'sharp';
import { run, workspace } from './helpers.js';
import type { Workspace } from './helpers.js';

const tool = readTool();
let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.cleanup());

const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('Read', () => {
  it('numbers lines like cat -n and records the read in the file state', async () => {
    const file = ws.file('a.txt', 'alpha\nbeta\n');
    const out = await run(tool, { file_path: 'a.txt' }, ws.ctx());
    expect(out.isError).toBeFalsy();
    expect(out.text).toBe('     1\talpha\n     2\tbeta');
    const record = ws.session.fileState.get(file);
    expect(record).toMatchObject({ path: file, size: 11 });
    expect(record?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('pages with offset/limit and names the exact next call', async () => {
    ws.file('big.txt', Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n'));
    const first = await run(tool, { file_path: 'big.txt' }, ws.ctx());
    expect(first.text).toContain('  2000\tline 2000');
    expect(first.text).not.toContain('line 2001');
    expect(first.text).toContain('Showing lines 1-2000 of 2500');
    expect(first.text).toContain('"offset": 2001');
    const second = await run(tool, { file_path: 'big.txt', offset: 2001, limit: 10 }, ws.ctx());
    expect(second.text.split('\n')[0]).toBe('  2001\tline 2001');
    expect(second.text).toContain('"offset": 2011');
    const past = await run(tool, { file_path: 'big.txt', offset: 3000 }, ws.ctx());
    expect(past.isError).toBe(true);
    expect(past.text).toContain('2500 lines');
  });

  it('clips long lines with a marker and strips CR of CRLF files and a BOM', async () => {
    ws.file('long.txt', `${'x'.repeat(5000)}\nshort\n`);
    const out = await run(tool, { file_path: 'long.txt' }, ws.ctx());
    expect(out.text).toContain('[line clipped: 3,000 more characters]');
    expect(out.text).toContain('clipped; use Grep');
    ws.file('crlf.txt', '\uFEFFone\r\ntwo\r\n');
    const crlf = await run(tool, { file_path: 'crlf.txt' }, ws.ctx());
    expect(crlf.text).toBe('     1\tone\n     2\ttwo');
  });

  it('reads unicode text intact', async () => {
    ws.file('u.txt', 'héllo wörld — 日本語 🎉\n');
    const out = await run(tool, { file_path: 'u.txt' }, ws.ctx());
    expect(out.text).toBe('     1\théllo wörld — 日本語 🎉');
  });

  it('pages through a 100 MB file without loading it whole', async () => {
    const file = path.join(ws.root, 'huge.txt');
    const line = `${'0123456789'.repeat(9)}abcdefghi\n`; // 100 bytes
    const block = line.repeat(10_000); // 1 MB
    const fd = fs.openSync(file, 'w');
    for (let i = 0; i < 100; i++) fs.writeSync(fd, block);
    fs.closeSync(fd);
    const out = await run(tool, { file_path: 'huge.txt', offset: 999_990, limit: 5 }, ws.ctx());
    expect(out.isError).toBeFalsy();
    expect(out.text).toContain('999990\t0123456789');
    expect(out.text).toContain('Showing lines 999990-999994 of 1000000');
    expect(ws.session.fileState.get(file)?.size).toBe(100_000_000);
  });

  it('refuses binary files and says so', async () => {
    ws.file('bin.dat', Buffer.from([1, 2, 0, 3, 4]));
    const out = await run(tool, { file_path: 'bin.dat' }, ws.ctx());
    expect(out.isError).toBe(true);
    expect(out.text).toContain('binary file');
  });

  it('returns images (by magic bytes, not extension) as image blocks', async () => {
    ws.file('pic.bin', Buffer.concat([PNG_HEADER, Buffer.alloc(100, 7)]));
    const out = await run(tool, { file_path: 'pic.bin' }, ws.ctx());
    expect(out.content[0]).toMatchObject({ type: 'image', mediaType: 'image/png' });
  });

  it('scales large images down, refuses corrupt and huge ones', async () => {
    // Noise does not compress: a 4000×3000 PNG of it is far over the API's 5 MB limit.
    const pixels = Buffer.alloc(4000 * 3000 * 3);
    for (let i = 0; i < pixels.length; i += 4) pixels.writeUInt32LE((i * 2654435761) >>> 0, i);
    ws.file(
      'photo.png',
      await sharp(pixels, { raw: { width: 4000, height: 3000, channels: 3 } })
        .png({ compressionLevel: 1 })
        .toBuffer(),
    );
    const scaled = await run(tool, { file_path: 'photo.png' }, ws.ctx());
    expect(scaled.isError).toBeFalsy();
    const block = scaled.content[0] as { type: string; data: string; mediaType: string };
    const meta = await sharp(Buffer.from(block.data, 'base64')).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(IMAGE_MAX_EDGE);
    expect(Buffer.from(block.data, 'base64').length).toBeLessThanOrEqual(3.75 * 2 ** 20);
    expect(scaled.text).toContain('scaled from 4000×3000 to 1568×1176 px');

    ws.file('broken.png', Buffer.concat([PNG_HEADER, Buffer.alloc(4 * 2 ** 20)]));
    const broken = await run(tool, { file_path: 'broken.png' }, ws.ctx());
    expect(broken.isError).toBe(true);
    expect(broken.text).toContain('cannot be decoded');

    ws.file('huge.png', Buffer.concat([PNG_HEADER, Buffer.alloc(IMAGE_MAX_INPUT_BYTES + 1)]));
    const huge = await run(tool, { file_path: 'huge.png' }, ws.ctx());
    expect(huge.isError).toBe(true);
    expect(huge.text).toContain('are not decoded');
  });

  it('refuses FIFOs, devices, directories and links out of the workspace', async () => {
    execFileSync('mkfifo', [path.join(ws.root, 'pipe')]);
    const fifo = await run(tool, { file_path: 'pipe' }, ws.ctx());
    expect(fifo.isError).toBe(true);
    expect(fifo.text).toContain('FIFO');
    fs.symlinkSync('/dev/zero', path.join(ws.root, 'zero'));
    expect((await run(tool, { file_path: 'zero' }, ws.ctx())).isError).toBe(true);
    expect((await run(tool, { file_path: '/proc/self/fd/0' }, ws.ctx())).isError).toBe(true);
    fs.mkdirSync(path.join(ws.root, 'dir'));
    expect((await run(tool, { file_path: 'dir' }, ws.ctx())).text).toContain('LS');
    const outside = path.join(path.dirname(ws.root), 'secret.txt');
    fs.writeFileSync(outside, 'secret');
    fs.symlinkSync(outside, path.join(ws.root, 'link.txt'));
    const linked = await run(tool, { file_path: 'link.txt' }, ws.ctx());
    expect(linked.isError).toBe(true);
    expect(linked.text).toContain('outside the workspace');
    expect(linked.text).not.toContain('secret\n');
  });

  it('suggests close names for a missing file', async () => {
    ws.file('src/config.ts', 'x');
    const out = await run(tool, { file_path: 'src/confg.ts' }, ws.ctx());
    expect(out.isError).toBe(true);
    expect(out.text).toContain('src/config.ts');
  });

  it('resolves relative paths against the session cwd', async () => {
    ws.file('sub/x.txt', 'in sub\n');
    ws.session.cwd = path.join(ws.root, 'sub');
    expect((await run(tool, { file_path: 'x.txt' }, ws.ctx())).text).toContain('in sub');
  });

  it('names the parameter and the range for bad input', async () => {
    const out = await run(tool, { file_path: 'a', limit: 5000 }, ws.ctx());
    expect(out.isError).toBe(true);
    expect(out.text).toContain('limit must be between 1 and 2000');
    expect((await run(tool, { file_path: 'a', offset: 0 }, ws.ctx())).text).toContain('offset must be ≥ 1');
    expect((await run(tool, { file_path: '' }, ws.ctx())).text).toContain('file_path');
  });

  it('is read-only and concurrency-safe, and reports the touched path', () => {
    expect(tool.isReadOnly({ file_path: 'a' })).toBe(true);
    expect(tool.isConcurrencySafe({ file_path: 'a' })).toBe(true);
    expect(tool.touchedPaths?.({ file_path: 'a' }, { cwd: '/w' })).toEqual([{ path: '/w/a', access: 'read' }]);
  });
});
