// Fault runner: each case breaks something on purpose (a model server, a command, a shared file,
// the disk) in its own temp folder, loopback only, and checks that wield holds. One line per case,
// then `N of M held`. Figures: time to recover, time to return, bytes kept, rules kept.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProvider, type ModelStreamEvent, type ProviderName } from '../src/runtime/providers/index.js';
import { SessionLog, loadSessionForResume } from '../src/runtime/agent/session-store.js';
import { createSession } from '../src/runtime/tool/session.js';
import type { ToolContext } from '../src/runtime/tool/types.js';
import { bashTool } from '../src/coding/tools/bash.js';
import { BashJobs } from '../src/coding/tools/bash-jobs.js';
import { persistRule } from '../src/coding/settings/persist.js';
import { atomicWrite } from '../src/coding/tools/fs-util.js';
import { cleanLeftovers } from '../src/coding/tools/write-temp.js';
import { startStandin, type ScriptStep } from '../test/support/standin/index.js';

interface Outcome {
  held: boolean;
  detail: string;
}

const SELF = fileURLToPath(import.meta.url);
const temp = (prefix: string): string => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** One reply through the real SDK against a stand-in that breaks as scripted; the text kept after retries. */
async function reply(dialect: ProviderName, script: ScriptStep[], extra: { firstByteTimeoutMs?: number; idleTimeoutMs?: number } = {}) {
  const standin = await startStandin({ dialect, script });
  const started = performance.now();
  try {
    const provider = await createProvider({ provider: dialect, baseURL: standin.url, apiKey: 'bench', retryBaseMs: 1, env: {}, ...extra });
    let text = '';
    let retries = 0;
    for await (const event of provider.stream(
      { model: 'standin-model', system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] },
      new AbortController().signal,
    ) as AsyncIterable<ModelStreamEvent>) {
      if (event.type === 'retry') {
        retries++;
        text = '';
      } else if (event.type === 'text_delta') text += event.text;
    }
    return { text, retries, ms: performance.now() - started };
  } finally {
    await standin.close();
  }
}

function streamCase(dialect: ProviderName, step: ScriptStep, extra: { firstByteTimeoutMs?: number; idleTimeoutMs?: number } = {}) {
  return async (): Promise<Outcome> => {
    const out = await reply(dialect, [step, { text: 'whole reply' }], extra);
    return { held: out.text === 'whole reply' && out.retries === 1, detail: `${out.retries} retry, answer in ${seconds(out.ms)}` };
  };
}

function bashContext(): ToolContext {
  const dir = temp('wield-faults-bash-');
  fs.mkdirSync(path.join(dir, 'ws'));
  const session = createSession({ cwd: path.join(dir, 'ws'), dir: path.join(dir, 'session') });
  return { signal: new AbortController().signal, session, toolUseId: 'fault', onProgress: () => undefined };
}

async function bash(command: string, timeout: number, ctx = bashContext()) {
  const tool = bashTool();
  const started = performance.now();
  const output = await tool.call({ command, timeout }, ctx);
  const text = tool
    .toModel(output, { maxChars: tool.maxResultChars })
    .content.map((b) => (b.type === 'text' ? b.text : ''))
    .join('');
  return { text, ms: performance.now() - started, ctx };
}

function writerProcess(mode: 'writer' | 'unlocked', cwd: string, tag: string, count: number): Promise<number | null> {
  return new Promise((resolve) => {
    spawn(process.execPath, [SELF, mode, cwd, tag, String(count)], { stdio: 'inherit' }).on('exit', resolve);
  });
}

/** The baseline: the same read-modify-write with an atomic rename but no lock. */
function unlockedAdd(cwd: string, rule: string): void {
  const file = path.join(cwd, '.wield', 'settings.local.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const data = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { permissions?: { allow?: string[] } }) : {};
  const allow = [...(data.permissions?.allow ?? []), rule];
  const tmp = `${file}.${process.pid}.${Math.random()}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ permissions: { allow } }));
  fs.renameSync(tmp, file);
}

async function rulesKept(mode: 'writer' | 'unlocked'): Promise<{ kept: number; codes: (number | null)[] }> {
  const cwd = temp('wield-faults-rules-');
  const codes = await Promise.all(Array.from({ length: 8 }, (_, n) => writerProcess(mode, cwd, `w${n}`, 4)));
  const saved = JSON.parse(fs.readFileSync(path.join(cwd, '.wield', 'settings.local.json'), 'utf8')) as {
    permissions: { allow: string[] };
  };
  return { kept: saved.permissions.allow.length, codes };
}

/** A writer rewriting a 32 MiB file is killed -9 as soon as its temp file appears; the next start cleans. */
async function killedWrite(): Promise<Outcome> {
  const dir = temp('wield-faults-write-');
  const pending = path.join(dir, 'pending');
  const file = path.join(dir, 'big.txt');
  const isTemp = (name: string) => name.startsWith('.big.txt.wield-');
  fs.writeFileSync(path.join(dir, '.big.txt.0123456789ab.tmp'), 'a file of the user, named alike');
  let left: string[] = [];
  for (let attempt = 0; attempt < 10 && left.length === 0; attempt++) {
    const watcher = fs.watch(dir);
    const child = spawn(process.execPath, [SELF, 'big-write', file, pending], { stdio: 'ignore' });
    await new Promise<void>((resolve) => watcher.on('change', (_event, name) => isTemp(String(name)) && resolve()));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    watcher.close();
    left = fs.readdirSync(dir).filter(isTemp);
  }
  const started = performance.now();
  const removed = await cleanLeftovers(pending);
  const ms = performance.now() - started;
  const after = fs.readdirSync(dir);
  const userKept = after.includes('.big.txt.0123456789ab.tmp');
  return {
    held: left.length === 1 && removed.length === 1 && !after.some(isTemp) && userKept,
    detail: `${left.length} temp file left by the kill, removed at the next start in ${ms.toFixed(1)} ms; the user's look-alike kept`,
  };
}

/** What recording a temp file costs a small Write: medians of 300 writes each way, interleaved. */
async function recordCost(): Promise<Outcome> {
  const dir = temp('wield-faults-record-');
  const pending = path.join(dir, 'pending');
  const plain: number[] = [];
  const recorded: number[] = [];
  for (let i = 0; i < 300; i++) {
    for (const [times, pendingWrites] of [
      [plain, undefined],
      [recorded, pending],
    ] as const) {
      const started = performance.now();
      await atomicWrite(path.join(dir, 'small.txt'), `line ${i}\n`, { pendingWrites });
      times.push(performance.now() - started);
    }
  }
  const median = (times: number[]): string => times.sort((a, b) => a - b)[times.length >> 1].toFixed(2);
  return {
    held: fs.readdirSync(pending).length === 0,
    detail: `median small Write (fsync included) ${median(recorded)} ms recorded vs ${median(plain)} ms not; nothing left recorded`,
  };
}

const CASES: [string, () => Promise<Outcome>][] = [
  [
    'anthropic stream reset after text and a tool call',
    streamCase('anthropic', { text: 'half a reply', toolCalls: [{ name: 'Read', arguments: { file_path: 'a' } }], cutAfterChunks: 7 }),
  ],
  [
    'anthropic 529 overloaded as an SSE error event',
    streamCase('anthropic', { text: 'half a reply', breakAfter: { chunks: 4, kind: 'error_event' } }),
  ],
  ['anthropic stream without message_stop', streamCase('anthropic', { text: 'half a reply', breakAfter: { chunks: 4, kind: 'end' } })],
  ['openai chat stream reset mid-reply', streamCase('openai', { text: 'half a reply', cutAfterChunks: 3 })],
  [
    'openai responses error event mid-reply',
    streamCase('openai-responses', { text: 'half a reply', breakAfter: { chunks: 4, kind: 'error_event' } }),
  ],
  ['server accepts and never answers (first-byte 1 s)', streamCase('anthropic', { silent: true }, { firstByteTimeoutMs: 1000 })],
  [
    'stream stalls mid-reply (idle 1 s)',
    streamCase('openai', { text: 'stalls here', breakAfter: { chunks: 2, kind: 'stall' } }, { idleTimeoutMs: 1000 }),
  ],
  [
    'Bash timeout 2 s on a command that never ends',
    async () => {
      const out = await bash('sleep 60', 2000);
      return { held: out.ms < 5000 && /timed out/.test(out.text), detail: `ended ${seconds(out.ms)} after start` };
    },
  ],
  [
    'Bash timeout 2 s on a command that ignores SIGTERM',
    async () => {
      const out = await bash("trap '' TERM; sleep 60", 2000);
      return { held: out.ms < 7000 && /timed out/.test(out.text), detail: `ended ${seconds(out.ms)} after start` };
    },
  ],
  [
    'Bash starts a daemon (setsid sleep &), limit 20 s',
    async () => {
      const out = await bash('setsid sleep 30 >/dev/null 2>&1 & echo started', 20_000);
      return { held: out.ms < 3000, detail: `returned after ${seconds(out.ms)}` };
    },
  ],
  [
    'Bash prints 1 GB',
    async () => {
      const out = await bash('head -c 1000000000 /dev/zero', 120_000);
      const spill = /is in (\S+): read more/.exec(out.text)?.[1];
      const size = spill ? fs.statSync(spill).size : Number.NaN;
      return { held: size <= 64 * 2 ** 20 + 200, detail: `spill file ${(size / 2 ** 20).toFixed(1)} MiB for 953.7 MiB printed` };
    },
  ],
  [
    '8 processes answer "always" at once (4 rules each)',
    async () => {
      const locked = await rulesKept('writer');
      const baseline = await rulesKept('unlocked');
      return {
        held: locked.kept === 32 && locked.codes.every((code) => code === 0),
        detail: `${locked.kept} of 32 rules kept (baseline without the lock, same run: ${baseline.kept} of 32)`,
      };
    },
  ],
  [
    'session log on a full disk (/dev/full)',
    async () => {
      const heard: string[] = [];
      const log = new SessionLog('/dev/full', { onFailure: (message) => heard.push(message) });
      for (let i = 0; i < 3; i++) log.append({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'x' }] } });
      return { held: heard.length === 1, detail: `no throw, told ${heard.length} time` };
    },
  ],
  [
    'resume a session with {"type":"message","message":null}',
    async () => {
      const file = path.join(temp('wield-faults-session-'), 's.jsonl');
      const lines = [
        { type: 'session', version: 1, id: 's', cwd: '/', createdAt: 'now' },
        { type: 'message', message: null },
        { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'kept' }] } },
      ];
      fs.writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
      const resumed = loadSessionForResume(file);
      return {
        held: resumed.messages.length === 1 && resumed.notice !== undefined,
        detail: `${resumed.messages.length} message resumed, 1 line skipped and named`,
      };
    },
  ],
  [
    'Bash run_in_background (sleep 60), read, then KillShell',
    async () => {
      const jobs = new BashJobs();
      const ctx = bashContext();
      const started = performance.now();
      const out = await bashTool({ jobs }).call({ command: 'echo up; sleep 60', run_in_background: true }, ctx);
      const startMs = performance.now() - started;
      const id = 'jobId' in out ? out.jobId : '';
      await jobs.changed(id);
      const read = jobs.read(id);
      const killStarted = performance.now();
      const killed = await jobs.kill(id);
      const killMs = performance.now() - killStarted;
      return {
        held: read.output === 'up\n' && read.state === 'running' && killed.state === 'killed',
        detail: `returned after ${seconds(startMs)}, stopped ${seconds(killMs)} after KillShell`,
      };
    },
  ],
  ['killed -9 mid-Write of 32 MiB, then the next start', killedWrite],
  ['cost of recording temp files', recordCost],
];

async function main(): Promise<void> {
  const [mode, cwd, tag, count] = process.argv.slice(2);
  if (mode === 'big-write') {
    const contents = [Buffer.alloc(32 * 2 ** 20, 'A'), Buffer.alloc(32 * 2 ** 20, 'B')];
    for (let i = 0; ; i++) await atomicWrite(cwd, contents[i % 2], { pendingWrites: tag });
  }
  if (mode === 'writer' || mode === 'unlocked') {
    for (let i = 0; i < Number(count); i++) {
      const rule = `Bash(echo ${tag}-${i} *)`;
      if (mode === 'writer') await persistRule(cwd, rule);
      else unlockedAdd(cwd, rule);
    }
    return;
  }
  console.log(
    `load average: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  let held = 0;
  for (const [name, run] of CASES) {
    let outcome: Outcome;
    try {
      outcome = await run();
    } catch (error) {
      outcome = { held: false, detail: `threw: ${(error as Error).message}` };
    }
    if (outcome.held) held++;
    console.log(`${outcome.held ? 'held  ' : 'FAILED'} ${name}: ${outcome.detail}`);
  }
  console.log(`${held} of ${CASES.length} held`);
}

await main();
