// End to end through the CLI: (1) a model reply with 4 × `sleep 1` read-only Bash calls —
// time from that reply to the next model request (goal ≤ 1.05 s; sequential would be ≥ 4 s);
// (2) peak RSS of `wield call Bash` when the command prints 40 MB (goal ≤ 120 MB).
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startStandin } from '../test/support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runProcess, tempDir } from '../test/cli/helpers.js';

async function batchOfSleeps(cli: string): Promise<Record<string, unknown>> {
  const sleeps = Array.from({ length: 4 }, () => ({ name: 'Bash', arguments: { command: 'sleep 1' } }));
  const standin = await startStandin({ dialect: 'anthropic', script: [{ toolCalls: sleeps }, { text: 'done' }] });
  const cwd = tempDir('wield-bench-cwd-');
  const env = cleanEnv(tempDir('wield-bench-home-'), providerEnv('anthropic', standin.url));
  try {
    const child = spawn(process.execPath, [cli, ...providerArgs('anthropic'), '-p', 'sleep four times'], { cwd, env, stdio: 'ignore' });
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    while (standin.requests.length < 1) await sleep(1);
    // The reply is sent at once on the first request, so its arrival marks the reply.
    const replied = performance.now();
    while (standin.requests.length < 2) await sleep(1);
    const nextRequestMs = performance.now() - replied;
    const code = await done;
    const results = JSON.stringify(standin.requests[1]);
    return {
      replyToNextRequestMs: Math.round(nextRequestMs),
      goalMs: 1050,
      sequentialWouldBeMs: 4000,
      exitCode: code,
      // Without the analyser treating `sleep` as read-only the calls ask, and -p denies them.
      sleepTreatedAsReadOnly: !results.includes('Permission denied'),
    };
  } finally {
    await standin.close();
  }
}

async function peakRss(cli: string): Promise<Record<string, unknown>> {
  const cwd = tempDir('wield-bench-cwd-');
  const home = tempDir('wield-bench-home-');
  const command = 'yes 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ | head -c 40000000';
  // GNU time reports the peak resident set size of the process it runs, in KiB.
  const run = await runProcess(
    '/usr/bin/time',
    ['-f', 'peak-rss-kib=%M', process.execPath, cli, 'call', 'Bash', JSON.stringify({ command }), '--allow', 'Bash'],
    { cwd, env: cleanEnv(home), timeoutMs: 60_000 },
  );
  const kib = Number(/peak-rss-kib=(\d+)/.exec(run.stderr)?.[1] ?? NaN);
  return { peakRssMB: Math.round(kib / 1024), goalMB: 120, outputToModelChars: run.stdout.length, exitCode: run.code };
}

const { cli, cleanup } = await buildCli();
try {
  const batch = await batchOfSleeps(cli);
  const rss = await peakRss(cli);
  console.log(JSON.stringify({ batch, rss }, null, 2));
} finally {
  cleanup();
}
