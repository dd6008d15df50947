// Several wield processes answering "always" at once: every rule and trust entry is kept (each
// read-modify-write runs under the file's lock, on what the file holds now). Real processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleOptions } from '../../../scripts/esbuild-options.mjs';
import { isStaleLock, STALE_LOCK_MS, withFileLock } from '../../../src/coding/settings/file-lock.js';

let writer: string;
let outdir: string;
beforeAll(async () => {
  outdir = path.join(process.cwd(), 'node_modules', '.cache', `wield-settings-writer-${process.pid}-${Date.now()}`);
  await build({ entryPoints: { writer: 'test/support/settings-writer.ts' }, ...bundleOptions, outdir });
  writer = path.join(outdir, 'writer.js');
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

function run(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [writer, ...args], { stdio: 'inherit' });
    child.on('exit', (code) => resolve(code));
  });
}

const WRITERS = 8;
const EACH = 4;

describe('shared settings files under concurrent writers', () => {
  it(`keeps all ${WRITERS * EACH} rules, ${WRITERS * EACH} project rules and ${WRITERS} trust entries from ${WRITERS} processes`, async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'wield-lock-home-'));
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'wield-lock-cwd-'));
    const tags = Array.from({ length: WRITERS }, (_, n) => `w${n}`);
    for (const tag of tags) mkdirSync(path.join(cwd, tag));
    const codes = await Promise.all(tags.map((tag) => run([cwd, home, tag, String(EACH)])));
    expect(codes).toEqual(tags.map(() => 0));
    const local = JSON.parse(readFileSync(path.join(cwd, '.wield', 'settings.local.json'), 'utf8'));
    expect(local.permissions.allow).toHaveLength(WRITERS * EACH);
    const projects = JSON.parse(readFileSync(path.join(home, '.wield', 'projects.json'), 'utf8'));
    expect(Object.values(projects.projects as Record<string, { allow: string[] }>)[0].allow).toHaveLength(WRITERS * EACH);
    const user = JSON.parse(readFileSync(path.join(home, '.wield', 'settings.json'), 'utf8'));
    expect(user.trustedProjects).toHaveLength(WRITERS);
    // No lock or temporary file is left behind.
    expect(readdirSync(path.join(home, '.wield')).filter((name) => /\.(lock|tmp|stale)$/.test(name))).toEqual([]);
  });

  it('clears a lock left by a process that is gone, and waits for a live one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-lock-stale-'));
    const file = path.join(dir, 'settings.json');
    writeFileSync(`${file}.lock`, '2147483646\n');
    expect(await withFileLock(file, async () => 'ran')).toBe('ran');
    const order: string[] = [];
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = withFileLock(file, async () => {
      order.push('first in');
      entered();
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('first out');
    });
    await inside;
    const second = withFileLock(file, async () => {
      order.push('second');
    });
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second']);
  });

  it('judges staleness by the holder and the age (pure)', () => {
    expect(isStaleLock(42, 10, () => true)).toBe(false);
    expect(isStaleLock(42, 10, () => false)).toBe(true);
    expect(isStaleLock(undefined, 10, () => true)).toBe(false);
    expect(isStaleLock(42, STALE_LOCK_MS + 1, () => true)).toBe(true);
  });
});
