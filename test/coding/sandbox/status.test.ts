// Without a usable bubblewrap the sandbox says why and the wrap falls back to running directly.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxWrap, sandboxStatus } from '../../../src/coding/sandbox/index.js';
import { bash, makeFixture, type Fixture } from './helpers.js';

describe('sandbox status on this machine', () => {
  it('is available, or its unavailability is explained by a missing piece (so tests never skip by mistake)', async () => {
    const s = await sandboxStatus();
    if (s.available) {
      expect(s.features).toMatchObject({ readOnlyRoot: true, unshareNet: true, unsharePid: true, capDrop: true, maskPaths: true });
      return;
    }
    const { networkAllowList: _n, unixSocketsBlocked: _u, ...required } = s.features;
    expect(Object.values(required).some((ok) => !ok)).toBe(true);
    expect(s.reason).toMatch(/permission rules alone/);
  });
});

describe('sandbox status without a usable bubblewrap', () => {
  let f: Fixture;
  let bin: string;

  /** A stand-in bwrap: answers --version, then fails with `message` when an argument matches. */
  const fakeBwrap = (name: string, failOn: string, message: string): string => {
    const file = path.join(bin, name);
    writeFileSync(
      file,
      `#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 0.0-fake"; exit 0; }\n` +
        `for a in "$@"; do case "$a" in ${failOn}) echo "bwrap: ${message}" >&2; exit 1;; esac; done\nexit 0\n`,
    );
    chmodSync(file, 0o755);
    return file;
  };

  beforeAll(() => {
    f = makeFixture();
    bin = mkdtempSync(path.join(os.tmpdir(), 'wield-fake-bwrap-'));
  });
  afterAll(() => {
    rmSync(f.base, { recursive: true, force: true });
    rmSync(bin, { recursive: true, force: true });
  });

  it('a configured path that does not exist: unavailable, with how to fix it, and no features claimed', async () => {
    const s = await sandboxStatus({ bwrapPath: path.join(bin, 'missing-bwrap') });
    expect(s.available).toBe(false);
    expect(s.reason).toMatch(/not an executable file/);
    expect(s.reason).toMatch(/apt-get install bubblewrap/);
    expect(s.reason).toMatch(/permission rules alone/);
    expect(Object.values(s.features).every((v) => v === false)).toBe(true);
  });

  it('no bwrap on PATH: unavailable, and the wrap runs the command directly', async () => {
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      const s = await sandboxStatus();
      expect(s.available).toBe(false);
      expect(s.reason).toMatch(/not on PATH/);
      const wrap = createSandboxWrap({ enabled: true }, f.session);
      const cmd = await wrap(bash('echo hi'), f.ctx, { command: 'echo hi' });
      expect(cmd).toMatchObject({ file: 'bash', args: ['-c', 'echo hi'], sandboxed: false });
      expect(cmd.reason).toMatch(/unavailable.*not on PATH/);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('bwrap that cannot create namespaces: unavailable, quoting bwrap', async () => {
    const file = fakeBwrap('bwrap-nons', '*', 'No permissions to creating new namespace');
    const s = await sandboxStatus({ bwrapPath: file });
    expect(s.available).toBe(false);
    expect(s.version).toBe('bubblewrap 0.0-fake');
    expect(s.reason).toMatch(/cannot create a namespace/);
    expect(s.reason).toMatch(/No permissions to creating new namespace/);
    expect(s.features.readOnlyRoot).toBe(false);
  });

  it('bwrap that cannot cut the network: unavailable, naming the missing feature', async () => {
    const file = fakeBwrap('bwrap-nonet', '--unshare-net', 'loopback: Failed RTM_NEWADDR: Operation not permitted');
    const s = await sandboxStatus({ bwrapPath: file });
    expect(s.available).toBe(false);
    expect(s.features).toMatchObject({ readOnlyRoot: true, unshareNet: false, unsharePid: true, capDrop: true });
    expect(s.reason).toMatch(/cannot provide: unshareNet/);
    const wrap = createSandboxWrap({ enabled: true, bwrapPath: file }, f.session);
    expect((await wrap(bash('true'), f.ctx, {})).sandboxed).toBe(false);
  });
});
