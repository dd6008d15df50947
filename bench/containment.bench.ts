// What containment adds to a command nobody approved: `true` run directly against `true`
// contained (the view: plan + bubblewrap), paired round by round in one run, so a loaded shared
// machine inflates both alike and the ratio stays readable. The contained run is then taken
// apart (same bwrap arguments each time, one piece changed) to show where the time goes, and run
// the way it was spawned before (a /bin/sh launcher opening the seccomp filter, then exec'ing bwrap).
// Goal (issue 23): containment adds <= 15 ms per command.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { SECCOMP_FD, type InheritedFile } from '../src/coding/sandbox/argv.js';
import { createSandboxWrap, sandboxStatus } from '../src/coding/sandbox/index.js';
import { stdioWith } from '../src/coding/sandbox/inherit.js';
import { createSession } from '../src/runtime/tool/session.js';
import type { ToolContext } from '../src/runtime/tool/types.js';

const ROUNDS = Number(process.env.ROUNDS ?? 61);
const GOAL_MS = 15;

/** Spawns as the Bash tool does (own process group, pipes on 1-3, the inherited file at its fd). */
function runOnce(file: string, args: readonly string[], cwd: string, inherit?: InheritedFile): Promise<void> {
  return new Promise((resolve, reject) => {
    const stdio = stdioWith(['ignore', 'pipe', 'pipe', 'pipe'], inherit);
    const child = spawn(file, args, { cwd, detached: true, stdio: stdio.stdio });
    stdio.close();
    for (const fd of [1, 2, 3]) (child.stdio[fd] as Readable).resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number): number => Math.round(x * 100) / 100;

async function main(): Promise<void> {
  const status = await sandboxStatus();
  if (!status.available || status.bwrapPath === undefined) {
    console.log(JSON.stringify({ available: false, reason: status.reason }));
    return;
  }
  const bwrap = status.bwrapPath;
  const base = mkdtempSync(path.join(os.tmpdir(), 'wield-containment-bench-'));
  try {
    const ws = path.join(base, 'ws');
    mkdirSync(path.join(ws, 'src'), { recursive: true });
    writeFileSync(path.join(ws, 'src', 'a.ts'), 'export {};\n');
    execFileSync('git', ['init', '-q', '.'], { cwd: ws });
    const session = createSession({ cwd: ws, dir: path.join(base, 'session') });
    const ctx: ToolContext = {
      signal: new AbortController().signal,
      session,
      toolUseId: 'bench',
      onProgress: () => {},
      allowedBy: 'verdict',
    };
    const wrap = createSandboxWrap({}, session);
    const argv = ['bash', '-c', 'true'];
    const shipped = await wrap(argv, ctx, { command: 'true' });
    const bwrapArgs = shipped.args;
    const filter = shipped.inherit;
    const tail = bwrapArgs.slice(bwrapArgs.indexOf('--unshare-net'));
    // The view as a normal user gets it: no masks over /etc files only root can open (etcMasks).
    const withoutEtcMasks: string[] = [];
    for (let i = 0; i < bwrapArgs.length; i++) {
      const a = bwrapArgs[i];
      if (a === '--ro-bind' && bwrapArgs[i + 2]?.startsWith('/etc/')) i += 2;
      else if (a === '--perms' && bwrapArgs[i + 3]?.startsWith('/etc/')) i += 5;
      else withoutEtcMasks.push(a);
    }
    // How the filter reached bwrap before: a shell opened it on fd 9, then exec'd bwrap.
    const launcher = (args: readonly string[], file: string): string[] => [
      '-c',
      `exec ${SECCOMP_FD}<"$1" || exit 125; shift; exec "$@"`,
      'wield-sandbox',
      file,
      bwrap,
      ...args,
    ];
    // The workspace walk is kept once folders have been still for 2 s (scan.ts).
    await new Promise((resolve) => setTimeout(resolve, 2_100));

    const pieces: Record<string, () => Promise<void>> = {
      direct: () => runOnce('bash', argv.slice(1), ws),
      'contained before (plan, then a /bin/sh launcher that execs bwrap)': async () => {
        const w = await wrap(argv, ctx, { command: 'true' });
        await (w.inherit === undefined ? runOnce(w.file, w.args, ws) : runOnce('/bin/sh', launcher(w.args, w.inherit.file), ws));
      },
      'contained now (plan, then bwrap with the filter fd handed over)': async () => {
        const w = await wrap(argv, ctx, { command: 'true' });
        await runOnce(w.file, w.args, ws, w.inherit);
      },
      'bwrap alone, the view without the /etc masks (a normal user: those files are closed to them)': () =>
        runOnce(bwrap, withoutEtcMasks, ws, filter),
      "bwrap alone, '/' read-only instead of the view's mounts": () =>
        runOnce(bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...tail], ws, filter),
      "bwrap's floor: --ro-bind / / only (user and mount namespaces)": () => runOnce(bwrap, ['--ro-bind', '/', '/', '--', ...argv], ws),
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(pieces).map((k) => [k, []]));
    const plan: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, piece] of Object.entries(pieces)) {
        const t0 = performance.now();
        await piece();
        times[name].push(performance.now() - t0);
      }
      const t0 = performance.now();
      await wrap(argv, ctx, { command: 'true' });
      plan.push(performance.now() - t0);
    }
    const direct = median(times.direct);
    const before = median(times['contained before (plan, then a /bin/sh launcher that execs bwrap)']);
    const contained = median(times['contained now (plan, then bwrap with the filter fd handed over)']);
    console.log(
      JSON.stringify(
        {
          rounds: ROUNDS,
          loadAverage: os.loadavg().map(round),
          bwrapArgs: bwrapArgs.length,
          mediansMs: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, round(median(v))])),
          planMedianMs: round(median(plan)),
          addedBeforeMs: round(before - direct),
          addedNowMs: round(contained - direct),
          beforeOverDirect: round(before / direct),
          nowOverDirect: round(contained / direct),
          withinGoal: contained - direct <= GOAL_MS,
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

await main();
