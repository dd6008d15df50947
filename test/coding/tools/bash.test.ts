import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { bashTool, formatBashResult } from '../../../src/coding/tools/bash.js';
import type { BashOutput } from '../../../src/coding/tools/bash.js';
import { OutputCapture, SPILL_HEAD_BYTES, SPILL_TAIL_BYTES } from '../../../src/coding/tools/bash-output.js';
import { run, workspace } from './helpers.js';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import type { Workspace } from './helpers.js';

const tool = bashTool({ graceMs: 300 });
let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.cleanup());

/** Running (a zombie waiting for its reaper counts as dead: it has already exited). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    // No procfs: ask the kernel directly.
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

describe('Bash', () => {
  it('captures stdout and stderr together with the exit code', async () => {
    const out = await run(tool, { command: 'echo out; echo err >&2; exit 3' }, ws.ctx());
    expect(out.isError).toBe(true);
    expect(out.text).toContain('out\nerr');
    expect(out.text).toContain('[exit code 3]');
    const ok = await run(tool, { command: 'printf "héllo ✓"' }, ws.ctx());
    expect(ok.isError).toBe(false);
    expect(ok.text).toBe('héllo ✓\n[exit code 0]');
  });

  it('keeps the working directory across calls, without polluting output', async () => {
    fs.mkdirSync(path.join(ws.root, 'sub dir'));
    const cd = await run(tool, { command: 'cd "sub dir" && echo moved' }, ws.ctx());
    expect(cd.text.startsWith('moved\n')).toBe(true);
    expect(ws.session.cwd).toBe(path.join(ws.root, 'sub dir'));
    expect((await run(tool, { command: 'pwd' }, ws.ctx())).text).toContain(path.join(ws.root, 'sub dir'));
    const out = await run(tool, { command: 'cd /' }, ws.ctx());
    expect(out.text).toContain('outside the workspace');
    expect(ws.session.cwd).toBe(path.join(ws.root, 'sub dir'));
  });

  it('kills the whole group on timeout, including a child that ignores SIGTERM', async () => {
    const pidFile = path.join(ws.root, 'pid');
    const started = Date.now();
    const out = await run(
      tool,
      { command: `bash -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 0.05; done'`, timeout: 400 },
      ws.ctx(),
    );
    expect(out.isError).toBe(true);
    expect(out.text).toContain('timed out after 400 ms');
    expect(Date.now() - started).toBeLessThan(5000);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(await waitUntil(() => !alive(pid))).toBe(true);
  });

  it('kills a background child with the group when the command ends', async () => {
    const pidFile = path.join(ws.root, 'bg');
    const out = await run(tool, { command: `sleep 30 & echo $! > ${pidFile}; echo started` }, ws.ctx());
    expect(out.text).toContain('started');
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(await waitUntil(() => !alive(pid))).toBe(true);
  });

  it('returns when the shell exits though a daemon (setsid, nohup) holds its output, and ends and reports it', async () => {
    const pidFile = path.join(ws.root, 'daemon');
    const started = Date.now();
    const out = await run(
      tool,
      { command: `setsid sleep 31 & echo $! > ${pidFile}; nohup sleep 32 & echo started`, timeout: 20_000 },
      ws.ctx(),
    );
    expect(out.text).toContain('started');
    // Names as seen at that moment: a child may not have exec'd its command yet.
    expect(out.text).toMatch(/left 2 processes running \([^)]+\); ended when the command finished/);
    // Well before the 20 s timeout the call would otherwise wait for.
    expect(Date.now() - started).toBeLessThan(10_000);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(await waitUntil(() => !alive(pid))).toBe(true);
  });

  it('ends a setsid child that ignores SIGTERM at the timeout (SIGKILL after the grace)', async () => {
    const pidFile = path.join(ws.root, 'stubborn');
    const out = await run(
      tool,
      { command: `setsid bash -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 0.05; done' & wait`, timeout: 400 },
      ws.ctx(),
    );
    expect(out.text).toContain('timed out after 400 ms');
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(await waitUntil(() => !alive(pid))).toBe(true);
  });

  it('stops on abort and says it was interrupted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const out = await run(tool, { command: 'sleep 20' }, ws.ctx({ signal: controller.signal }));
    expect(out.isError).toBe(true);
    expect(out.text).toContain('interrupted');
  });

  it('keeps memory bounded for 100 MB of output: head + tail inline, a spill file capped at its start and end', async () => {
    const out = await run(
      tool,
      { command: 'echo FIRST; head -c 100000000 /dev/zero | tr "\\0" "x" | fold -w 99; echo; echo LAST-ERROR' },
      ws.ctx(),
    );
    expect(out.text.startsWith('FIRST\n')).toBe(true);
    expect(out.text).toContain('LAST-ERROR');
    expect(out.text.length).toBeLessThanOrEqual(tool.maxResultChars);
    const spill = /is in (\S+): read more/.exec(out.text)?.[1] as string;
    expect(spill.startsWith(ws.session.dir)).toBe(true);
    expect(fs.statSync(spill).size).toBeLessThanOrEqual(SPILL_HEAD_BYTES + SPILL_TAIL_BYTES + 200);
    const saved = fs.readFileSync(spill, 'utf8');
    expect(saved.startsWith('FIRST\n')).toBe(true);
    expect(saved.endsWith('LAST-ERROR\n')).toBe(true);
    expect(saved).toMatch(/\[… [\d,]+ bytes dropped here: the saved output keeps its start and its end …\]/);
    expect(out.text).toMatch(/bytes from the middle were dropped, to spare the disk\) is in /);
    expect(out.text).toMatch(/"offset": \d+/);
    expect(ws.progress.length).toBeGreaterThan(0);
  });

  it('caps the spill file at its head and tail, saying how much was dropped', async () => {
    const file = path.join(ws.session.dir, 'capped.log');
    fs.mkdirSync(ws.session.dir, { recursive: true });
    const capture = new OutputCapture({ headBytes: 4, tailBytes: 4, spillPath: () => file, spillHeadBytes: 10, spillTailBytes: 6 });
    for (const piece of ['0123456789', 'abcdefghij', 'KLMNOPQRST']) capture.push(Buffer.from(piece));
    const captured = await capture.finish();
    expect(captured).toMatchObject({ totalBytes: 30, spillDroppedBytes: 14, head: '0123', tail: 'QRST' });
    expect(fs.readFileSync(file, 'utf8')).toBe(
      '0123456789\n[… 14 bytes dropped here: the saved output keeps its start and its end …]\nOPQRST',
    );
  });

  it('validates the timeout range and knows read-only commands', async () => {
    const out = await run(tool, { command: 'ls', timeout: 700_000 }, ws.ctx());
    expect(out.isError).toBe(true);
    expect(out.text).toContain('timeout must be between 1 and 600000');
    await tool.validateInput?.({ command: 'ls' }, ws.ctx());
    expect(tool.isReadOnly({ command: 'ls' })).toBe(true);
    expect(tool.isReadOnly({ command: 'rm x' })).toBe(false);
    expect(tool.isConcurrencySafe({ command: 'rm x' })).toBe(false);
    expect(tool.interruptBehavior()).toBe('cancel');
  });

  it('runs through a sandbox wrapper when one is given', async () => {
    const wrapped = bashTool({ wrap: async (argv) => ({ file: 'env', args: ['WRAPPED=1', ...argv], sandboxed: true }) });
    const out = await run(wrapped, { command: 'echo $WRAPPED' }, ws.ctx());
    expect(out.text).toContain('1\n[exit code 0]');
    // Leaving the sandbox is the engine's to decide: it asks in every mode (unsandboxed.test.ts).
    const input = { command: 'ls', sandbox: false };
    const ctx = ws.ctx();
    const toolCheck = await wrapped.checkPermissions(input, ctx);
    const policy = createPolicy({ settings: emptySettings(), mode: 'bypassPermissions', cwd: ctx.session.cwd, roots: ctx.session.roots });
    expect(policy.decide({ tool: wrapped, input, toolCheck, session: ctx.session })).toMatchObject({ behavior: 'ask' });
  });
});

describe('formatBashResult (pure)', () => {
  const base: BashOutput = {
    head: 'h',
    tail: '',
    omittedBytes: 0,
    totalBytes: 1,
    exitCode: 0,
    signal: null,
    timedOut: false,
    interrupted: false,
    sideChannel: '',
    command: 'x',
    timeoutMs: 1000,
    sandboxed: false,
    headLines: 0,
    leftRunning: [],
  };
  it('marks failures as errors and names the spill file', () => {
    expect(formatBashResult(base).isError).toBe(false);
    expect(formatBashResult({ ...base, exitCode: 1 }).isError).toBe(true);
    const big = formatBashResult({ ...base, tail: 't', omittedBytes: 500, totalBytes: 502, spillFile: '/s/f.log', headLines: 9 });
    expect(big.text).toContain('[… 500 bytes omitted …]');
    expect(big.text).toContain('"offset": 10');
  });
});
