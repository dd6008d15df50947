// The session's context, end to end through the CLI against a stand-in Anthropic server:
// (1) billed input of sessions of small reads, priced by Anthropic's published caching rules
//     (test/support/cache-simulator.ts), against the same session with caching off;
// (2) 8 parallel Reads of 1 MB files: what the turn's results take, with and without the turn budget;
// (3) 40 Reads of ~25k-token files against a server that refuses prompts over 200,000 tokens:
//     reads done, exit code, refusals, total billed input and what compaction requests cost.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type ScriptStep, type Standin, type StandinOptions } from '../test/support/standin/index.js';
import { AnthropicCacheSimulator } from '../test/support/cache-simulator.js';
import { billingBreakdown, billSession } from './context-billing.js';
import { toolLoading } from './context-tool-loading.js';
import { CLEARED_PREFIX } from '../src/runtime/context/clearing.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from '../test/cli/helpers.js';

interface SessionRun {
  code: number | null;
  standin: Standin;
  summary: Record<string, unknown> | undefined;
  stderr: string;
}

async function session(
  cli: string,
  script: (cwd: string) => ScriptStep[],
  files: (cwd: string) => void,
  options: { settings?: unknown; args?: string[]; standin?: Partial<StandinOptions> } = {},
): Promise<SessionRun> {
  const cwd = tempDir('wield-bench-cwd-');
  const home = tempDir('wield-bench-home-');
  files(cwd);
  if (options.settings !== undefined) {
    const dir = path.join(home, '.wield');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(options.settings));
  }
  const standin = await startStandin({ dialect: 'anthropic', script: script(cwd), countTokens: true, ...options.standin });
  const run = await runCli(
    cli,
    [...providerArgs('anthropic'), '-p', 'Read the files.', '--output-format', 'json', ...(options.args ?? [])],
    {
      cwd,
      env: cleanEnv(home, providerEnv('anthropic', standin.url)),
      timeoutMs: 300_000,
    },
  );
  let summary: Record<string, unknown> | undefined;
  try {
    summary = JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    summary = undefined;
  }
  return { code: run.code, standin, summary, stderr: run.stderr };
}

function readSteps(cwd: string, count: number, name: (i: number) => string): ScriptStep[] {
  return [
    ...Array.from({ length: count }, (_, i) => ({ toolCalls: [{ name: 'Read', arguments: { file_path: path.join(cwd, name(i)) } }] })),
    { text: 'All read.' },
  ];
}

function smallFiles(count: number) {
  return (cwd: string) => {
    for (let i = 0; i < count; i++) writeFileSync(path.join(cwd, `small${i}.ts`), `export const value${i} = ${i};\n`.repeat(40));
  };
}

async function smallReads(cli: string, requests: number): Promise<Record<string, unknown>> {
  const reads = requests - 1;
  const script = (cwd: string) => readSteps(cwd, reads, (i) => `small${i}.ts`);
  const cached = await session(cli, script, smallFiles(reads));
  const uncached = await session(cli, script, smallFiles(reads), { settings: { context: { cache: false } } });
  if (process.env.CONTEXT_BENCH_DUMP)
    writeFileSync(`${process.env.CONTEXT_BENCH_DUMP}-${requests}.json`, JSON.stringify(cached.standin.requests));
  const withCache = billSession(cached.standin.requests);
  const without = billSession(uncached.standin.requests);
  await cached.standin.close();
  await uncached.standin.close();
  return {
    requests,
    exitCode: cached.code,
    billedOverUncached: withCache.ratio,
    baselineCachingOff: without.ratio,
    billedTokens: withCache.billedTokens,
    uncachedTokens: withCache.uncachedTokens,
    goal: requests <= 13 ? 0.27 : 0.16,
    // Claude Code's ratio on the 12-request script, per the issue.
    whereTheCostIs: billingBreakdown(cached.standin.requests as Record<string, unknown>[], 0.23),
  };
}

function bigFile(label: string, chars: number): string {
  const lines: string[] = [];
  for (let i = 0, n = 0; n < chars; i++) {
    const line = `${label} ${i} ${'x'.repeat(70)}`;
    lines.push(line);
    n += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

async function parallelReads(cli: string): Promise<Record<string, unknown>> {
  const names = Array.from({ length: 8 }, (_, i) => `mb${i}.txt`);
  const files = (cwd: string) => {
    for (const name of names) writeFileSync(path.join(cwd, name), bigFile(name, 1_000_000));
  };
  const script = (cwd: string): ScriptStep[] => [
    { toolCalls: names.map((n) => ({ name: 'Read', arguments: { file_path: path.join(cwd, n) } })) },
    { text: 'Read.' },
  ];
  const measure = async (settings?: unknown) => {
    const run = await session(cli, script, files, { settings, args: ['--context-window', '200000'] });
    const second = run.standin.requests[1] as { messages: { content: unknown }[] };
    const last = second.messages.at(-1)?.content as { type: string; content?: { type: string; text: string }[] }[];
    const texts = last.filter((b) => b.type === 'tool_result').map((b) => (b.content ?? []).map((c) => c.text).join(''));
    await run.standin.close();
    return {
      exitCode: run.code,
      resultsChars: texts.reduce((sum, t) => sum + t.length, 0),
      eachSaysHowToReadMore: texts.every((t) => /Read more with Read \{"file_path"/.test(t)),
    };
  };
  return { withTurnBudget: await measure(), goalChars: 200_000, baselineNoTurnBudget: await measure({ context: { turnBudget: false } }) };
}

async function longSession(cli: string, settings?: unknown): Promise<Record<string, unknown>> {
  const reads = 40;
  const files = (cwd: string) => {
    for (let i = 0; i < reads; i++) writeFileSync(path.join(cwd, `doc${i}.txt`), bigFile(`doc${i}`, 90_000));
  };
  const run = await session(cli, (cwd) => readSteps(cwd, reads, (i) => `doc${i}.txt`), files, {
    settings,
    args: ['--context-window', '200000', '--max-turns', '60'],
    standin: {
      contextLimit: 200_000,
      replyWithoutTools: { text: 'Summary: the documents read so far hold numbered lines of x; nothing was changed.' },
    },
  });
  const bodies = run.standin.requests as Record<string, unknown>[];
  if (process.env.CONTEXT_BENCH_DUMP) writeFileSync(`${process.env.CONTEXT_BENCH_DUMP}-long.json`, JSON.stringify(bodies));
  const simulator = new AnthropicCacheSimulator();
  let billed = 0;
  let compactionBilled = 0;
  let uncached = 0;
  let compactionRequests = 0;
  // A request with more cleared stubs than the one before it follows a clearing, which rewrote
  // the history from the first newly cleared result on.
  let clearings = 0;
  let stubsBefore = 0;
  for (const body of bodies) {
    const stubs = JSON.stringify(body.messages).split(CLEARED_PREFIX).length - 1;
    if (stubs > stubsBefore) clearings++;
    if (Array.isArray(body.tools) && body.tools.length > 0) stubsBefore = stubs;
    const b = simulator.bill(body);
    // A refused request is not billed.
    if (b.totalTokens > 200_000) continue;
    billed += b.billed;
    uncached += b.totalTokens;
    if (!Array.isArray(body.tools) || body.tools.length === 0) {
      compactionRequests++;
      compactionBilled += b.billed;
    }
  }
  const result = {
    exitCode: run.code,
    readsDone: run.summary?.toolCalls,
    ...(run.code === 0 ? {} : { stopped: String(run.summary?.error ?? run.stderr).slice(0, 200) }),
    refusedForLength: run.standin.refusedForLength(),
    compactions: run.summary?.compactions,
    clearings,
    requests: bodies.length,
    billedInputTokens: Math.round(billed),
    uncachedInputTokens: uncached,
    compactionRequests,
    compactionBilledTokens: Math.round(compactionBilled),
    compactionShareOfBilled: billed > 0 ? Number((compactionBilled / billed).toFixed(3)) : 0,
  };
  await run.standin.close();
  return result;
}

// CONTEXT_BENCH=caching,turnBudget,toolLoading,long,longBaselines runs only those parts (all by default);
// CONTEXT_BENCH_DUMP=prefix writes the cached small-reads and long sessions' request bodies to
// prefix-12.json, prefix-40.json and prefix-long.json, for a closer look with the simulator.
const only = process.env.CONTEXT_BENCH?.split(',');
const wanted = (part: string) => only === undefined || only.includes(part);
const { cli, cleanup } = await buildCli();
try {
  const out: Record<string, unknown> = {};
  if (wanted('caching'))
    out.caching = {
      twelve: await smallReads(cli, 12),
      // 12 Reads and the answer: the 13-request session the issue priced Claude Code (0.23) and pi (0.27) on.
      twelveReads: await smallReads(cli, 13),
      forty: await smallReads(cli, 40),
    };
  if (wanted('turnBudget')) out.turnBudget = await parallelReads(cli);
  if (wanted('toolLoading')) out.toolLoading = await toolLoading();
  if (wanted('long')) out.long = { defaults: await longSession(cli) };
  if (wanted('longBaselines'))
    out.longBaselines = {
      clearingKeepsOnlyTheNewBatch: await longSession(cli, { context: { clearing: { minKeepTurns: 1 } } }),
      clearingWithoutMinimumStep: await longSession(cli, { context: { clearing: { minStep: 0 } } }),
      compactionOnly: await longSession(cli, { context: { clearing: false } }),
      baselineNothing: await longSession(cli, { context: { clearing: false, compaction: false, turnBudget: false } }),
    };
  console.log(JSON.stringify(out, null, 2));
} finally {
  cleanup();
}
