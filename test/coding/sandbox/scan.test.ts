// The workspace walk the sandbox plan keeps between commands: whatever is created, removed or
// renamed between two plans is seen by the second, and a walk made while folders were still
// changing is not kept.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as tinyglobby from 'tinyglobby';
import { scanRoot } from '../../../src/coding/sandbox/scan.js';

vi.mock('tinyglobby', async (original) => {
  const real = await original<typeof import('tinyglobby')>();
  return { ...real, globSync: vi.fn(real.globSync) };
});

const PATTERNS = ['**/.env', '**/.env.*'];
const EXEMPT = ['**/.env.example'];
let root: string;
const scan = () => scanRoot(root, PATTERNS, EXEMPT);
const walks = () => vi.mocked(tinyglobby.globSync).mock.calls.length;

/** Plans made as if the tree had been still for a while: the clock a minute ahead of the files' times. */
let settled = false;
function settle(): void {
  if (settled) return;
  settled = true;
  const now = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => now() + 60_000);
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-scan-')));
  for (const d of ['a/b', 'c']) mkdirSync(path.join(root, d), { recursive: true });
  writeFileSync(path.join(root, 'a', 'b', 'notes.txt'), 'x\n');
  writeFileSync(path.join(root, '.env.example'), 'T=\n');
  vi.mocked(tinyglobby.globSync).mockClear();
});
afterEach(() => {
  vi.restoreAllMocks();
  settled = false;
  rmSync(root, { recursive: true, force: true });
});

describe('scanRoot between two commands', () => {
  it('reuses the walk of a tree that has not changed', () => {
    settle();
    expect(scan().secrets).toEqual([]);
    const after = walks();
    expect(scan().secrets).toEqual([]);
    expect(walks()).toBe(after);
  });

  it('sees a .env created in a nested folder, a renamed one, a new folder holding one, and a new repository', () => {
    settle();
    scan();
    writeFileSync(path.join(root, 'a', 'b', '.env'), 'T=1\n');
    expect(scan().secrets).toEqual([path.join(root, 'a', 'b', '.env')]);
    settle();
    scan();
    renameSync(path.join(root, 'a', 'b', 'notes.txt'), path.join(root, 'a', 'b', '.env.local'));
    expect(scan().secrets.sort()).toEqual([path.join(root, 'a', 'b', '.env'), path.join(root, 'a', 'b', '.env.local')]);
    settle();
    scan();
    mkdirSync(path.join(root, 'c', 'd'));
    writeFileSync(path.join(root, 'c', 'd', '.env.prod'), 'T=2\n');
    expect(scan().secrets).toContain(path.join(root, 'c', 'd', '.env.prod'));
    settle();
    scan();
    execFileSync('git', ['init', '-q', path.join(root, 'c', 'd')]);
    expect(scan().repositories).toEqual([path.join(root, 'c', 'd')]);
  });

  it('sees a change made with the folder times set back afterwards (the change time moves anyway)', () => {
    settle();
    const before = new Date(Date.now() - 120_000);
    utimesSync(path.join(root, 'c'), before, before);
    scan();
    writeFileSync(path.join(root, 'c', '.env'), 'T=1\n');
    utimesSync(path.join(root, 'c'), before, before);
    expect(scan().secrets).toEqual([path.join(root, 'c', '.env')]);
  });

  it('does not keep a walk made while a folder had just changed (a coarse clock could hide a second change)', () => {
    // Folders fresh from beforeEach: within the slack, so every plan walks again.
    scan();
    const after = walks();
    scan();
    expect(walks()).toBeGreaterThan(after);
  });
});

describe('scanRoot with a hide predicate (the view)', () => {
  const hide = (_abs: string, rel: string): boolean => /(^|\/)(keys|[^/]*\.key)$/.test(rel);

  it('finds what the predicate names, not below a hidden folder and not links', () => {
    mkdirSync(path.join(root, 'c', 'keys'));
    writeFileSync(path.join(root, 'c', 'keys', 'inner.key'), 'k\n');
    writeFileSync(path.join(root, 'a', 'server.key'), 'k\n');
    symlinkSync(path.join(root, 'a', 'server.key'), path.join(root, 'link.key'));
    const found = scanRoot(root, PATTERNS, EXEMPT, hide).secrets.sort();
    expect(found).toEqual([path.join(root, 'a', 'server.key'), path.join(root, 'c', 'keys')]);
  });

  it('keeps one walk per predicate and patterns, so contained, sandboxed and guarded commands in turn walk once each', () => {
    settle();
    const guarded = (): unknown => scanRoot(root, [], []);
    scan();
    scanRoot(root, PATTERNS, EXEMPT, hide);
    guarded();
    const after = walks();
    scan();
    scanRoot(root, PATTERNS, EXEMPT, hide);
    guarded();
    expect(walks()).toBe(after);
  });
});
