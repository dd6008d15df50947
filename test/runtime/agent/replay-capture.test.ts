import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterRecord, createFileSnapshots, type FileRecord } from '../../../src/runtime/agent/replay-capture.js';
import { restoreFiles } from '../../../src/runtime/agent/replay.js';
import { recordFor } from '../../../src/runtime/agent/session-store.js';
import type { AgentEvent } from '../../../src/runtime/agent/events.js';
import { defineTool } from '../../../src/runtime/tool/define.js';
import type { AnyTool } from '../../../src/runtime/tool/types.js';

const writeTool = defineTool({
  name: 'Put',
  description: 'Writes a file',
  inputSchema: z.object({ file_path: z.string() }),
  touchedPaths: (input) => [{ path: input.file_path, access: 'write' }],
  call: async () => 'written',
});
const readTool = defineTool({
  name: 'Get',
  description: 'Reads a file',
  inputSchema: z.object({ file_path: z.string() }),
  touchedPaths: (input) => [{ path: input.file_path, access: 'read' }],
  call: async () => 'read',
});
const tools = new Map<string, AnyTool>([
  ['Put', writeTool],
  ['Get', readTool],
]);

const prompt = (text: string): AgentEvent => ({
  type: 'user_message',
  message: { role: 'user', content: [{ type: 'text', text }] },
  origin: 'prompt',
});
const start = (id: string, toolName: string, file: string): AgentEvent => ({
  type: 'tool_start',
  toolUseId: id,
  toolName,
  input: { file_path: file },
});
const end = (id: string, toolName: string): AgentEvent => ({
  type: 'tool_end',
  toolUseId: id,
  toolName,
  result: { toolUseId: id, toolName, content: [], isError: false, durationMs: 1 },
});

describe('file snapshots', () => {
  it('a file too large to hash is recorded by size alone, without reading it into memory', () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'wield-capture-'));
    // Sparse: 3 GB on paper, nothing on disk. Read whole, it is more than a Buffer holds (2 GB).
    const image = path.join(cwd, 'disk.img');
    writeFileSync(image, '');
    truncateSync(image, 3 * 1024 ** 3);
    const mid = path.join(cwd, 'mid.bin');
    writeFileSync(mid, 'm'.repeat(500));
    const snapshots = createFileSnapshots({
      cwd,
      resolveTool: (name) => tools.get(name),
      limits: { maxFileBytes: 100, maxTotalBytes: 1000, maxFiles: 10, maxHashBytes: 1000 },
    });
    const records = [...snapshots(prompt('p')), ...snapshots(start('w1', 'Put', image)), ...snapshots(start('r1', 'Get', mid))];
    expect(records.map(({ mtimeMs: _, ...rest }) => rest)).toEqual([
      { type: 'file', path: 'disk.img', size: 3 * 1024 ** 3 },
      { type: 'file', path: 'mid.bin', size: 500, sha256: createHash('sha256').update('m'.repeat(500)).digest('hex') },
    ]);
    expect(snapshots(end('w1', 'Put'))).toEqual([{ type: 'file', path: 'disk.img', after: true, size: 3 * 1024 ** 3 }]);
    expect(afterRecord(cwd, mid)?.sha256).toBe(records[1]?.sha256);
  });

  it('records a written file before its first change in each prompt, and its hash after each change', () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'wield-capture-'));
    const file = path.join(cwd, 'a.txt');
    writeFileSync(file, 'one\n');
    const snapshots = createFileSnapshots({ cwd, resolveTool: (name) => tools.get(name) });
    const records: FileRecord[] = [];
    const run = (event: AgentEvent): void => {
      records.push(...snapshots(event));
    };
    run(prompt('first'));
    run(start('r1', 'Get', file));
    run(start('w1', 'Put', file));
    writeFileSync(file, 'two\n');
    run(end('w1', 'Put'));
    run(start('w2', 'Put', file));
    writeFileSync(file, 'three\n');
    run(end('w2', 'Put'));
    run(prompt('second'));
    run(start('r2', 'Get', file));
    run(start('w3', 'Put', file));
    run(end('w3', 'Put'));
    expect(records.map((r) => (r.after ? `after ${r.size}` : r.content))).toEqual(['one\n', 'after 4', 'after 6', 'three\n', 'after 6']);
    // A replay still starts from the state before the session touched the file.
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'wield-capture-ws-'));
    expect(restoreFiles(records, workspace)).toEqual({ restored: 1, missing: [] });
  });

  it("keeps /rewind's later records within caps of their own, so the first states stay whole", () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'wield-capture-'));
    const a = path.join(cwd, 'a.txt');
    const b = path.join(cwd, 'b.txt');
    writeFileSync(a, 'aaaaa\n');
    writeFileSync(b, 'bbbbb\n');
    const snapshots = createFileSnapshots({
      cwd,
      resolveTool: (name) => tools.get(name),
      limits: { maxFileBytes: 100, maxTotalBytes: 12, maxFiles: 10, maxHashBytes: 1000 },
    });
    const records: FileRecord[] = [];
    for (const n of [1, 2, 3, 4]) {
      records.push(...snapshots(prompt(`p${n}`)), ...snapshots(start(`w${n}`, 'Put', a)));
    }
    records.push(...snapshots(start('r', 'Get', b)));
    expect(records.map((r) => `${r.path}:${r.content === undefined ? 'hash' : 'content'}`)).toEqual([
      'a.txt:content',
      'a.txt:content',
      'a.txt:content',
      'a.txt:hash',
      'b.txt:content',
    ]);
  });

  it('records an absent file as absent after a change that did not create it', () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'wield-capture-'));
    const snapshots = createFileSnapshots({ cwd, resolveTool: (name) => tools.get(name) });
    const file = path.join(cwd, 'new.txt');
    expect(snapshots(start('w', 'Put', file))).toEqual([{ type: 'file', path: 'new.txt', absent: true }]);
    expect(snapshots(end('w', 'Put'))).toEqual([{ type: 'file', path: 'new.txt', after: true, absent: true }]);
    // Outside cwd: nothing recorded, before or after.
    expect(snapshots(start('o', 'Put', path.join(os.tmpdir(), 'elsewhere.txt')))).toEqual([]);
    expect(snapshots(end('o', 'Put'))).toEqual([]);
  });
});

describe('prompt records', () => {
  it("marks a Stop hook's feedback, so a prompt list can leave it out", () => {
    const message = { role: 'user' as const, content: [{ type: 'text' as const, text: 'go on' }] };
    expect(recordFor({ type: 'user_message', message, origin: 'stop_hook' })).toEqual({ type: 'message', message, origin: 'stop_hook' });
    expect(recordFor({ type: 'user_message', message, origin: 'prompt' })).toEqual({ type: 'message', message });
  });
});
