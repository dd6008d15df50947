// Start-up: time from spawning `wield -p` to the first model request arriving at a local
// stand-in server (median of 10 per provider), with a bare `node` start as the baseline.
// Goal: ≤ 300 ms. And interactive `wield` in a pseudo-terminal (util-linux `script`): spawn to
// the editor's first frame, and to the session taking prompts (the keys line `Enter sends`, or the
// readline prompt `› ` of builds before the terminal UI). WIELD_BENCH_CLI=bundle.js measures another build (e.g. an
// older commit's) instead of bundling this tree.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startStandin, type StandinDialect } from '../test/support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from '../test/cli/helpers.js';

const RUNS = 10;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function exited(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve) => child.on('close', () => resolve()));
}

async function timeToFirstRequest(cli: string, dialect: StandinDialect): Promise<number[]> {
  const standin = await startStandin({ dialect, script: Array.from({ length: RUNS }, () => ({ text: 'ok' })) });
  const cwd = tempDir('wield-bench-cwd-');
  const env = cleanEnv(tempDir('wield-bench-home-'), providerEnv(dialect, standin.url));
  const times: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const before = standin.requests.length;
      const started = performance.now();
      const child = spawn(process.execPath, [cli, ...providerArgs(dialect), '-p', 'hi'], { cwd, env, stdio: 'ignore' });
      const done = exited(child);
      // The stand-in records a request when its body has arrived; poll at 1 ms resolution.
      while (standin.requests.length === before) await sleep(1);
      times.push(performance.now() - started);
      await done;
    }
  } finally {
    await standin.close();
  }
  return times;
}

/** Spawn → the editor drawn (`frame`, its border) and → the session ready for prompts; then Ctrl-D ends it. */
async function timeToFirstPrompt(cli: string): Promise<{ frame: number[]; ready: number[] }> {
  const cwd = tempDir('wield-bench-tty-cwd-');
  // No request is made: the prompt comes before any; the address only has to be well-formed.
  const env = cleanEnv(tempDir('wield-bench-tty-home-'), { ...providerEnv('anthropic', 'http://127.0.0.1:9'), TERM: 'xterm' });
  const command = [process.execPath, cli, ...providerArgs('anthropic')].join(' ');
  const times = { frame: [] as number[], ready: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    let frame: number | undefined;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    const done = exited(child);
    let screen = '';
    const ms = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no prompt after 20 s; screen: ${screen}`)), 20_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        // Colour codes go: the editor's border is coloured character by character.
        screen += chunk.toString().replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
        if (frame === undefined && screen.includes('────')) frame = performance.now() - started;
        if (!screen.includes('Enter sends') && !screen.includes('› ')) return;
        clearTimeout(timer);
        resolve(performance.now() - started);
      });
    });
    times.ready.push(ms);
    times.frame.push(frame ?? ms);
    child.stdin?.write('\x04');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await done;
    clearTimeout(killer);
  }
  return times;
}

async function bareNode(): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await exited(spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }));
    times.push(performance.now() - started);
  }
  return times;
}

const given = process.env.WIELD_BENCH_CLI;
const { cli, cleanup } = given ? { cli: given, cleanup: () => undefined } : await buildCli();
try {
  const figures: Record<string, unknown> = { runs: RUNS, goalMs: 300 };
  const prompt = await timeToFirstPrompt(cli);
  figures.interactive_firstFrameMedianMs = Math.round(median(prompt.frame));
  figures.interactive_firstPromptMedianMs = Math.round(median(prompt.ready));
  figures.interactive_firstPromptRunsMs = prompt.ready.map(Math.round);
  for (const dialect of ['anthropic', 'openai', 'openai-responses'] as const) {
    const times = await timeToFirstRequest(cli, dialect);
    figures[`${dialect}_medianMs`] = Math.round(median(times));
    figures[`${dialect}_runsMs`] = times.map(Math.round);
  }
  figures.bareNodeMedianMs = Math.round(median(await bareNode()));
  console.log(JSON.stringify(figures, null, 2));
} finally {
  cleanup();
}
