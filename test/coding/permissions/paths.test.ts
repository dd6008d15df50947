import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { guardPath, isWithin, syntaxProblem } from '../../../src/coding/permissions/paths.js';
import { readJsonl } from '../../support/data.js';
import { withWorkspaceLayout } from './fixture.js';

interface Row {
  path: string;
  expected: 'inside' | 'outside';
  posix_literal?: string;
  tags: string[];
}
interface SymlinkRow {
  id: string;
  setup: string;
  path: string;
  expected: 'inside' | 'outside';
}

const readRows = <T>(file: string): T[] => readJsonl<T>('path-guard', file);

let tmp: string;
let ws: string;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-')));
  ws = path.join(tmp, 'WORKSPACE');
  fs.mkdirSync(ws);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('path guard: string corpus', () => {
  // Rows with posix_literal: we take the conservative `expected` answer (refuse `~`, `$HOME`,
  // backslashes and drive letters, NUL, empty input, file://, fullwidth / two-dot-leader
  // look-alikes after NFKC), not the purely lexical POSIX reading.
  const rows = readRows<Row>('cases-dev.jsonl');
  it.each(rows.map((row) => [JSON.stringify(row.path).slice(0, 80), row] as const))('%s', (_label, row) => {
    const input = row.path.replaceAll('{WS}', ws);
    const verdict = guardPath(input, { cwd: ws, roots: [ws] });
    expect(verdict.inside, verdict.reason).toBe(row.expected === 'inside');
    expect(verdict.reason.length).toBeGreaterThan(5);
  });
});

describe('path guard: symlink corpus (built on disk)', () => {
  const rows = readRows<SymlinkRow>('symlink-cases.jsonl');
  it.each(rows.map((row) => [row.id, row] as const))('%s', (_id, row) => {
    withWorkspaceLayout(row.id, (t, root) => {
      execFileSync('sh', ['-c', row.setup], { cwd: t });
      const input = row.path.replaceAll('{ALIAS}', path.join(t, 'ws-alias')).replace(/^T\//, `${t}/`);
      const verdict = guardPath(input, { cwd: root, roots: [root] });
      expect(verdict.inside, `${row.id}: ${verdict.reason} (${verdict.resolved})`).toBe(row.expected === 'inside');
      if (row.id === 'S16') expect(verdict.resolved).toBe(path.join(root, '.env')); // deny rules see the real target
    });
  });
});

describe('path guard: general rules', () => {
  it('refuses a sibling that shares the root as a string prefix', () => {
    fs.mkdirSync(`${ws}-evil`, { recursive: true });
    expect(guardPath(`${ws}-evil/a`, { cwd: ws, roots: [ws] }).inside).toBe(false);
    expect(isWithin('/ws-evil/a', '/ws')).toBe(false);
    expect(isWithin('/ws/a', '/ws')).toBe(true);
    expect(isWithin('/a', '/')).toBe(true);
  });

  it('accepts extra roots and resolves relative to cwd', () => {
    const extra = path.join(tmp, 'extra');
    fs.mkdirSync(extra, { recursive: true });
    expect(guardPath('../extra/f.txt', { cwd: ws, roots: [ws, extra] }).inside).toBe(true);
    expect(guardPath('../extra/f.txt', { cwd: ws, roots: [ws] }).inside).toBe(false);
    const verdict = guardPath('sub/../f.txt', { cwd: ws, roots: [ws] });
    expect(verdict.resolved).toBe(path.join(ws, 'f.txt'));
  });

  it('re-checks a missing parent climbed back over an escaping link', () => {
    fs.symlinkSync('/etc', path.join(ws, 'etc-link'));
    expect(guardPath('missing/../etc-link/passwd', { cwd: ws, roots: [ws] }).inside).toBe(false);
  });

  it('never lets a generated path containing ".." segments or absolute parts escape (property)', () => {
    const segment = fc.constantFrom('a', 'b', '..', '.', '', 'c.txt', 'x y');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 12 }), fc.boolean(), (segments, absolute) => {
        const input = (absolute ? '/' : '') + segments.join('/');
        if (input === '') return;
        const verdict = guardPath(input, { cwd: ws, roots: [ws] });
        const lexical = path.resolve(ws, input);
        // No links in these names, so the lexical answer is the right one.
        expect(verdict.inside).toBe(isWithin(lexical, ws));
      }),
    );
  });

  it('refuses any input with a NUL, a leading ~ or a shell variable (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.constantFrom('\0', '~', '$HOME/', '${X}', '$(pwd)/'), (a, b, bad) => {
        const input = bad === '\0' ? a + bad + b : bad + a;
        expect(syntaxProblem(input)).toBeDefined();
        expect(guardPath(input, { cwd: ws, roots: [ws] }).inside).toBe(false);
      }),
    );
  });
});
