// Temp files of killed writes: the decision (pure), and a real writer killed -9 mid-write whose
// temp file the next start removes, while files of the user's with similar names stay.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleCrashWriter } from './crash-writer-bundle.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCodingRuntime } from '../../../src/coding/agent/runtime.js';
import { atomicWrite } from '../../../src/coding/tools/fs-util.js';
import { leftoverAction, STALE_RECORD_MS, tempFileFor } from '../../../src/coding/tools/write-temp.js';

describe('leftoverAction', () => {
  const record = '4242-0123456789ab';
  const target = '.big.txt.wield-4242-0123456789ab.tmp';
  it('removes the temp file of a writer that is gone', () => {
    expect(leftoverAction({ record, target, writerAlive: false, ageMs: 0 })).toBe('remove-temp');
  });
  it('keeps a write in progress, unless its record is old enough that the pid was reused', () => {
    expect(leftoverAction({ record, target, writerAlive: true, ageMs: 1_000 })).toBe('keep');
    expect(leftoverAction({ record, target, writerAlive: true, ageMs: STALE_RECORD_MS })).toBe('remove-temp');
  });
  it('never removes a file that is not the temp file its record names', () => {
    for (const other of [
      'big.txt',
      '.big.txt.0123456789ab.tmp',
      '.big.txt.wield-4242-0123456789ac.tmp',
      '.big.txt.wield-4243-0123456789ab.tmp',
    ]) {
      expect(leftoverAction({ record, target: other, writerAlive: false, ageMs: 0 })).toBe('remove-record');
    }
    expect(leftoverAction({ record: 'notes', target, writerAlive: false, ageMs: 0 })).toBe('keep');
  });
  it('names temp files by the pattern the cleaner checks', () => {
    const temp = tempFileFor('/w/big.txt', 4242);
    expect(path.dirname(temp.path)).toBe('/w');
    expect(path.basename(temp.path)).toBe(`.big.txt.wield-${temp.id}.tmp`);
    expect(leftoverAction({ record: temp.id, target: path.basename(temp.path), writerAlive: false, ageMs: 0 })).toBe('remove-temp');
  });
});

describe('temp files of killed writes', () => {
  let base: string;
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-write-temp-')));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('records nothing once a write is done', async () => {
    const pending = path.join(base, 'pending');
    await atomicWrite(path.join(base, 'a.txt'), 'x', { pendingWrites: pending });
    expect(fs.readdirSync(pending)).toEqual([]);
    expect(fs.readdirSync(base).sort()).toEqual(['a.txt', 'pending']);
  });

  it('are removed by the next start; files of the user with similar names stay', async () => {
    const home = path.join(base, 'home');
    const ws = path.join(base, 'ws');
    fs.mkdirSync(home);
    fs.mkdirSync(ws);
    const pending = path.join(home, '.wield', 'pending-writes');
    const script = await bundleCrashWriter(path.join(base, 'crash-writer.mjs'));
    const file = path.join(ws, 'big.txt');
    fs.writeFileSync(file, 'before');
    const isTemp = (name: string) => /^\.big\.txt\.wield-\d+-[0-9a-f]{12}\.tmp$/.test(name);
    let left: string[] = [];
    let writerPid = 0;
    // Killed as soon as a temp file appears; when the rename beat the kill, try again.
    for (let attempt = 0; attempt < 10 && left.length === 0; attempt++) {
      const watcher = fs.watch(ws);
      const child = spawn(process.execPath, [script, file, String(32 * 2 ** 20), pending], { stdio: 'ignore' });
      writerPid = child.pid ?? 0;
      await new Promise<void>((resolve) =>
        watcher.on('change', (_event, name) => {
          if (isTemp(String(name))) resolve();
        }),
      );
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      watcher.close();
      left = fs.readdirSync(ws).filter(isTemp);
    }
    expect(left).toHaveLength(1);
    expect(fs.readdirSync(pending)).toHaveLength(1);
    // Files of the user's: an older naming, and wield's pattern that no record of wield's names.
    const userFiles = ['.big.txt.0123456789ab.tmp', `.big.txt.wield-${writerPid}-aaaaaaaaaaaa.tmp`, '.notes.tmp'];
    for (const name of userFiles) fs.writeFileSync(path.join(ws, name), 'mine');

    const runtime = await createCodingRuntime({ cwd: ws, home, env: { ...process.env, WIELD_HOME: home } });
    await runtime.close();
    expect(await runtime.leftoversCleaned).toEqual([path.join(ws, left[0])]);
    expect(fs.readdirSync(ws).sort()).toEqual([...userFiles, 'big.txt'].sort());
    expect(fs.readdirSync(pending)).toEqual([]);
  });
});
