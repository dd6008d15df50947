// Timeouts and aborts kill the process group, as the Bash tool does; inside bubblewrap that must
// still take down everything the command started, background children included.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxWrap, sandboxStatus } from '../../../src/coding/sandbox/index.js';
import { bash, makeFixture, runWrapped, type Fixture } from './helpers.js';

const status = await sandboxStatus();
const title = status.available ? 'killing sandboxed commands' : `killing sandboxed commands (skipped: ${status.reason})`;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Host pids whose command line contains `token`. */
function processesWith(token: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(token)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

async function waitFor(check: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await sleep(25);
  }
  return check();
}

describe.skipIf(!status.available)(title, () => {
  let f: Fixture;
  beforeAll(() => {
    f = makeFixture();
  });
  afterAll(() => rmSync(f.base, { recursive: true, force: true }));

  const cases: { name: string; kill: (pid: number) => void }[] = [
    { name: 'timeout: SIGKILL to the process group', kill: (pid) => process.kill(-pid, 'SIGKILL') },
    { name: 'abort: SIGTERM to the process group', kill: (pid) => process.kill(-pid, 'SIGTERM') },
    { name: 'parent gone: SIGKILL to bwrap alone', kill: (pid) => process.kill(pid, 'SIGKILL') },
  ];

  it.each(cases.map((c, i) => ({ ...c, i })))('$name kills the command and its background child', async ({ kill, i }) => {
    const token = `31.${process.pid}${i}7`;
    const ticks = path.join(f.ws, `ticks-${i}`);
    const wrap = createSandboxWrap({ enabled: true }, f.session, { home: f.home });
    const cmd = await wrap(bash(`(while :; do echo t >> ${ticks}; sleep 0.02; done) & sleep ${token}`), f.ctx, {});
    expect(cmd.sandboxed).toBe(true);
    let pid = -1;
    const done = runWrapped(cmd, f.ws, (p) => (pid = p));
    expect(await waitFor(() => processesWith(token).length > 0 && statSync(ticks, { throwIfNoEntry: false }) !== undefined)).toBe(true);
    kill(pid);
    await done;
    expect(await waitFor(() => processesWith(token).length === 0)).toBe(true);
    const size = statSync(ticks).size;
    await sleep(150);
    expect(statSync(ticks).size).toBe(size);
  });

  it('a background child does not outlive the command (the PID namespace ends with it)', async () => {
    const token = `32.${process.pid}1`;
    const wrap = createSandboxWrap({ enabled: true }, f.session, { home: f.home });
    const r = await runWrapped(await wrap(bash(`(sleep ${token} &) ; echo started`), f.ctx, {}), f.ws);
    expect(r.stdout).toBe('started\n');
    expect(await waitFor(() => processesWith(token).length === 0)).toBe(true);
  });
});
