// The project's own adversarial corpus for the path guard (test/data/path-guard/adversarial*.jsonl,
// see SOURCE.md there). Rows with `posix_literal` take the conservative `expected`, as the shared
// corpus does; every other string row must agree with plain lexical POSIX resolution.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { guardPath, isWithin } from '../../../src/coding/permissions/paths.js';
import { readJsonl } from '../../support/data.js';
import { withWorkspaceLayout } from './fixture.js';

type Expected = 'inside' | 'outside';
interface Row {
  path: string;
  expected: Expected;
  posix_literal?: Expected;
  why: string;
}
interface SymlinkRow {
  id: string;
  setup: string;
  path: string;
  expected: Expected;
  why: string;
  /** `root`: the setup mounts, so the row runs only where that is allowed. */
  needs?: 'root';
  teardown?: string;
}

const readRows = <T>(file: string): T[] => readJsonl<T>('path-guard', file);

function label(text: string): string {
  return JSON.stringify(text).slice(0, 70);
}

let tmp: string;
let ws: string;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-adv-')));
  ws = path.join(tmp, 'WORKSPACE');
  fs.mkdirSync(ws);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('path guard: adversarial strings', () => {
  const rows = readRows<Row>('adversarial.jsonl');

  it('has enough rows, and every plain row matches lexical POSIX resolution', () => {
    expect(rows.length).toBeGreaterThanOrEqual(150);
    const root = '/T/WORKSPACE';
    for (const row of rows) {
      const input = row.path.replaceAll('{WS}', root);
      const lexical = isWithin(path.posix.resolve(root, input), root) ? 'inside' : 'outside';
      expect(row.posix_literal ?? row.expected, label(row.path)).toBe(lexical);
      if (row.posix_literal) expect(row.expected, label(row.path)).toBe('outside');
    }
  });

  it.each(rows.map((row) => [label(row.path), row] as const))('%s', (_label, row) => {
    const verdict = guardPath(row.path.replaceAll('{WS}', ws), { cwd: ws, roots: [ws] });
    expect(verdict.inside, `${row.why}: ${verdict.reason}`).toBe(row.expected === 'inside');
    expect(verdict.reason.length).toBeGreaterThan(5);
  });
});

describe('path guard: adversarial links and mounts (built on disk)', () => {
  const rows = readRows<SymlinkRow>('adversarial-symlinks.jsonl');
  it.for(rows.map((row) => [row.id, row] as const))('%s', ([, row], ctx) => {
    if (row.needs === 'root' && process.getuid?.() !== 0) ctx.skip();
    withWorkspaceLayout(row.id, (t, root) => {
      try {
        execFileSync('sh', ['-c', row.setup], { cwd: t, stdio: 'pipe' });
      } catch (error) {
        // Root in a container may still lack the right to mount.
        if (row.needs === 'root') ctx.skip();
        throw error;
      }
      try {
        const input = row.path.replaceAll('{WS}', root).replaceAll('{T}', t);
        const verdict = guardPath(input, { cwd: root, roots: [root] });
        expect(verdict.inside, `${row.id} ${row.why}: ${verdict.reason} (${verdict.resolved})`).toBe(row.expected === 'inside');
      } finally {
        if (row.teardown) execFileSync('sh', ['-c', row.teardown], { cwd: t, stdio: 'pipe' });
      }
    });
  });

  it('refuses a link to /proc/self/cwd even when the process runs in the workspace', () => {
    // Its readlink text is the workspace itself, which is what a text-following resolver trusts.
    const t = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-cwd-')));
    const root = path.join(t, 'WORKSPACE');
    const before = process.cwd();
    try {
      fs.mkdirSync(root);
      fs.symlinkSync('/proc/self/cwd', path.join(root, 'here'));
      process.chdir(root);
      for (const input of ['here/a.txt', 'here', '/proc/self/cwd/a.txt']) {
        expect(guardPath(input, { cwd: root, roots: [root] }).inside, input).toBe(false);
      }
      expect(guardPath('a.txt', { cwd: root, roots: [root] }).inside).toBe(true);
    } finally {
      process.chdir(before);
      fs.rmSync(t, { recursive: true, force: true });
    }
  });

  it('follows links inside a workspace that itself lives under /dev (e.g. /dev/shm)', () => {
    // The pseudo-filesystem rule must not refuse the workspace's own links.
    if (!fs.existsSync('/dev/shm')) return;
    const t = fs.realpathSync(fs.mkdtempSync('/dev/shm/guard-'));
    try {
      fs.mkdirSync(path.join(t, 'src'));
      fs.symlinkSync('src', path.join(t, 'lib'));
      expect(guardPath('lib/a.ts', { cwd: t, roots: [t] }).inside).toBe(true);
      expect(guardPath('/dev/stdin', { cwd: t, roots: [t] }).inside).toBe(false);
    } finally {
      fs.rmSync(t, { recursive: true, force: true });
    }
  });
});
