// Overhead of the Bash sandbox per command: the wrap (planning: stat the protected paths, scan
// for .env files, kept while the workspace's folders are still) plus bubblewrap's namespace
// setup, against the same command run directly in the same run. Goal: median added time <= 20 ms for `true`, `ls`, `git status`.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Duplex, Readable } from 'node:stream';
import { createSandboxWrap, sandboxStatus, type CommandBridge } from '../src/coding/sandbox/index.js';
import { createSession } from '../src/runtime/tool/session.js';
import type { InheritedFile } from '../src/coding/sandbox/argv.js';
import { stdioWith } from '../src/coding/sandbox/inherit.js';
import type { AllowBasis, ToolContext } from '../src/runtime/tool/types.js';

const ROUNDS = 41;
const GOAL_MS = 20;

function runOnce(file: string, args: string[], cwd: string, bridge?: CommandBridge, inherit?: InheritedFile): Promise<void> {
  return new Promise((resolve, reject) => {
    const stdio = stdioWith(['ignore', 'pipe', 'pipe', 'pipe', ...(bridge ? ['pipe' as const] : [])], inherit);
    const child = spawn(file, args, { cwd, detached: true, stdio: stdio.stdio });
    stdio.close();
    if (bridge) bridge.serve(child.stdio[bridge.fd] as Duplex);
    for (const fd of [1, 2, 3]) (child.stdio[fd] as Readable).resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const round = (x: number): number => Math.round(x * 100) / 100;

function makeRepo(dir: string, files: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, `d${i % 50}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, `f${i}.txt`), `line ${i}\n`);
  }
  writeFileSync(path.join(dir, '.env'), 'TOKEN=x\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.invalid', ...args], { cwd: dir });
  git('init', '-q', '.');
  git('add', '.');
  git('commit', '-qm', 'init');
}

async function main(): Promise<void> {
  const status = await sandboxStatus();
  if (!status.available) {
    console.log(JSON.stringify({ available: false, reason: status.reason }));
    return;
  }
  const base = mkdtempSync(path.join(os.tmpdir(), 'wield-sandbox-bench-'));
  try {
    const small = path.join(base, 'small');
    const large = path.join(base, 'large');
    makeRepo(small, 20);
    makeRepo(large, 5_000);
    const figures: Record<string, unknown> = { bwrap: status.version, rounds: ROUNDS, goalMs: GOAL_MS };

    for (const [label, ws] of [
      ['small', small],
      ['large', large],
    ] as const) {
      const session = createSession({ cwd: ws, dir: path.join(base, `session-${label}`) });
      const ctx: ToolContext = { signal: new AbortController().signal, session, toolUseId: 'bench', onProgress: () => {} };
      const wrap = createSandboxWrap({ enabled: true }, session);
      const commands = label === 'small' ? ['true', 'ls', 'git status'] : ['git status'];
      for (const command of commands) {
        const argv = ['bash', '-c', command];
        await runOnce('bash', argv.slice(1), ws); // warm the page cache and git's index
        // The first sandboxed run leaves the .wield mount point behind; the plan keeps its walk of
        // the workspace only once folders have been still for 2 s (see src/coding/sandbox/scan.ts).
        const first = await wrap(argv, ctx, { command });
        await runOnce(first.file, first.args, ws, undefined, first.inherit);
        await new Promise((resolve) => setTimeout(resolve, 2_100));
        const direct: number[] = [];
        const sandboxed: number[] = [];
        const planning: number[] = [];
        const added: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          const t0 = performance.now();
          await runOnce('bash', argv.slice(1), ws);
          const t1 = performance.now();
          const wrapped = await wrap(argv, ctx, { command });
          const t2 = performance.now();
          await runOnce(wrapped.file, wrapped.args, ws, undefined, wrapped.inherit);
          const t3 = performance.now();
          direct.push(t1 - t0);
          planning.push(t2 - t1);
          sandboxed.push(t3 - t1);
          added.push(t3 - t1 - (t1 - t0));
        }
        const key = label === 'small' ? command : `${command} (5000 files)`;
        figures[key] = {
          directMedianMs: round(median(direct)),
          sandboxedMedianMs: round(median(sandboxed)),
          planMedianMs: round(median(planning)),
          addedMedianMs: round(median(added)),
          withinGoal: median(added) <= GOAL_MS,
        };
      }
    }
    figures['plan right after a file was created (the walk is redone), 5000 files'] = await planAfterChange(large, base);
    figures['the same, contained (the view also tests every name against the secret list)'] = await planAfterChange(large, base, 'verdict');
    figures['profiles (small workspace), added over the same command run directly'] = await profileOverhead(small, base);
    figures['true, with sandbox.network.allowedHosts (the network bridge starts node inside)'] = await bridgeOverhead(small, base);
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** The plan when a folder changed since the last command: the whole walk, as before it was kept. */
async function planAfterChange(ws: string, base: string, allowedBy?: AllowBasis): Promise<Record<string, number>> {
  const session = createSession({ cwd: ws, dir: path.join(base, `session-changed-${allowedBy ?? 'sandboxed'}`) });
  const ctx: ToolContext = { signal: new AbortController().signal, session, toolUseId: 'bench', onProgress: () => {}, allowedBy };
  const wrap = createSandboxWrap({ enabled: true }, session);
  const argv = ['bash', '-c', 'true'];
  const plans: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    writeFileSync(path.join(ws, `d${i % 50}`, `new-${allowedBy ?? 's'}-${i}.txt`), 'x\n');
    const t0 = performance.now();
    await wrap(argv, ctx, {});
    plans.push(performance.now() - t0);
  }
  return { planMedianMs: round(median(plans)) };
}

/**
 * Added time of each profile over the same command run directly, paired in the same rounds, for
 * `true` and `git status`: the view (contained: read-only verdict; confined: a mode's allow), the
 * whole machine read-only (a rule's allow; what a command nobody approved got before the view)
 * and guarded (containment off). Plan time of the view is reported on its own.
 */
async function profileOverhead(ws: string, base: string): Promise<Record<string, Record<string, number>>> {
  const session = createSession({ cwd: ws, dir: path.join(base, 'session-profiles') });
  const ctx: ToolContext = { signal: new AbortController().signal, session, toolUseId: 'bench', onProgress: () => {} };
  const wrap = createSandboxWrap({}, session);
  const uncontained = createSandboxWrap({ contain: false }, session);
  const profiles = [
    ['contained (view, read-only)', wrap, 'verdict'],
    ['confined (view, writable)', wrap, 'mode'],
    ['whole machine read-only (rule)', wrap, 'rule'],
    ['guarded (contain: false)', uncontained, 'mode'],
  ] as const;
  const out: Record<string, Record<string, number>> = {};
  for (const command of ['true', 'git status']) {
    const argv = ['bash', '-c', command];
    const added: Record<string, number[]> = Object.fromEntries(profiles.map(([name]) => [name, []]));
    const plans: Record<string, number[]> = { verdict: [], rule: [] };
    const direct: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, w, allowedBy] of profiles) {
        const t0 = performance.now();
        await runOnce('bash', argv.slice(1), ws);
        const t1 = performance.now();
        const wrapped = await w(argv, { ...ctx, allowedBy }, { command });
        const t2 = performance.now();
        await runOnce(wrapped.file, wrapped.args, ws, undefined, wrapped.inherit);
        added[name].push(performance.now() - t1 - (t1 - t0));
        direct.push(t1 - t0);
        if (w === wrap && (allowedBy === 'verdict' || allowedBy === 'rule')) plans[allowedBy].push(t2 - t1);
      }
    }
    out[command] = {
      directMedianMs: round(median(direct)),
      ...Object.fromEntries(profiles.map(([name]) => [`${name} addedMedianMs`, round(median(added[name]))])),
      viewPlanMedianMs: round(median(plans.verdict)),
      wholeMachinePlanMedianMs: round(median(plans.rule)),
    };
  }
  return out;
}

/** `true` sandboxed with and without allowed hosts: what the network bridge adds per command. */
async function bridgeOverhead(ws: string, base: string): Promise<Record<string, number>> {
  const session = createSession({ cwd: ws, dir: path.join(base, 'session-network') });
  const ctx: ToolContext = { signal: new AbortController().signal, session, toolUseId: 'bench', onProgress: () => {} };
  const plain = createSandboxWrap({ enabled: true }, session);
  const bridged = createSandboxWrap({ enabled: true, network: { allowedHosts: ['example.com'] } }, session);
  const argv = ['bash', '-c', 'true'];
  const without: number[] = [];
  const withBridge: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    const a = await plain(argv, ctx, {});
    await runOnce(a.file, a.args, ws, undefined, a.inherit);
    const t1 = performance.now();
    const b = await bridged(argv, ctx, {});
    await runOnce(b.file, b.args, ws, b.bridge, b.inherit);
    without.push(t1 - t0);
    withBridge.push(performance.now() - t1);
  }
  return {
    sandboxedMedianMs: round(median(without)),
    withBridgeMedianMs: round(median(withBridge)),
    addedMedianMs: round(median(withBridge) - median(without)),
  };
}

await main();
