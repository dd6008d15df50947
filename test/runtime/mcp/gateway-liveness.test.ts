// Replica liveness on a real redis-server: a replica whose main thread is blocked for longer than
// its liveness key lives keeps its tasks (the key is renewed by a worker thread), while the tasks
// of a killed replica read as lost on the others, so that clients call the tool again. A replica
// whose main thread stays blocked past its stall limit is ended by its own watchdog.
import { type ChildProcessByStdio, execFileSync, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVENESS_BEATS } from '../../../src/runtime/mcp/gateway-redis.js';
import { modernRequest, resultText } from '../../support/mcp-servers/modern-http.js';
import { type Service, startRedis, which } from '../../support/scale-out.js';
import { buildEntry, tempDir } from './helpers.js';

const missing = which('redis-server') === undefined;
if (missing) console.warn('gateway-liveness tests skipped: redis-server not installed (apt-get install redis-server)');

const BEAT_MS = 200;
const TTL_MS = LIVENESS_BEATS * BEAT_MS;
/** Far above the 4 s freeze the first test survives. */
const LONG_STALL_LIMIT_MS = 30_000;
const SHORT_STALL_LIMIT_MS = 2 * TTL_MS;

interface Replica {
  url: string;
  child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Lines it printed so far. */
  lines: string[];
  stderr(): string;
  printed(line: string): Promise<void>;
  stop(): Promise<void>;
}

function startReplica(entry: string, redisUrl: string, cwd: string, stallLimitMs: number): Promise<Replica> {
  const child = spawn(process.execPath, [entry, redisUrl, String(BEAT_MS), String(stallLimitMs)], {
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  let buffered = '';
  const waiting = new Map<string, () => void>();
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      waiting.get(line)?.();
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const printed = (line: string) => (lines.includes(line) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(line, resolve)));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      const url = lines.map((line) => /^listening on (\S+)/.exec(line)?.[1]).find(Boolean);
      if (url)
        resolve({
          url,
          child,
          lines,
          stderr: () => stderr,
          printed,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
    });
    child.once('exit', (code) => reject(new Error(`the replica exited (${code}) before listening:\n${stderr}`)));
  });
}

let redis: Service | undefined;
let replicas: Replica[] = [];
let project: string;

beforeAll(async () => {
  if (missing) return;
  const entry = await buildEntry('redis-replica');
  project = tempDir('liveness');
  redis = await startRedis(tempDir('liveness-redis'));
  const url = redis.url;
  const limits = [LONG_STALL_LIMIT_MS, LONG_STALL_LIMIT_MS, LONG_STALL_LIMIT_MS, SHORT_STALL_LIMIT_MS];
  replicas = await Promise.all(limits.map((limit) => startReplica(entry, url, project, limit)));
}, 90_000);

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.stop()));
  await redis?.stop();
});

/** A task on `url` that runs until something is written to its named pipe. */
async function heldTask(url: string, name: string): Promise<{ taskId: string; fifo: string }> {
  const fifo = path.join(project, name);
  execFileSync('mkfifo', [fifo]);
  const reply = await modernRequest(url, 'tools/call', { name: 'ReadFifo', arguments: { path: fifo } });
  expect(reply.body.result).toMatchObject({ resultType: 'task', status: 'working' });
  return { taskId: reply.body.result?.taskId as string, fifo };
}

const taskOn = async (url: string, taskId: string) => (await modernRequest(url, 'tasks/get', { taskId })).body.result ?? {};

describe.skipIf(missing)('replica liveness on Redis', () => {
  it('a replica whose main thread is blocked for several liveness ttls keeps its tasks, which then complete', async () => {
    const [blocked, other] = replicas;
    const { taskId, fifo } = await heldTask(blocked.url, 'blocked.fifo');
    expect((await taskOn(other.url, taskId)).status).toBe('working');
    blocked.child.stdin.write(`freeze ${4 * TTL_MS}\n`);
    await blocked.printed('frozen');
    const frozenAt = Date.now();
    const seen: { status: unknown; afterMs: number }[] = [];
    while (!blocked.lines.includes('thawed')) {
      seen.push({ status: (await taskOn(other.url, taskId)).status, afterMs: Date.now() - frozenAt });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Read on another replica well after the key would have run out, had the main thread renewed it.
    expect(Math.max(...seen.map((read) => read.afterMs))).toBeGreaterThan(2 * TTL_MS);
    expect(seen.filter((read) => read.status !== 'working')).toEqual([]);
    writeFileSync(fifo, 'after the freeze\n');
    await expect.poll(async () => (await taskOn(other.url, taskId)).status, { timeout: 30_000 }).toBe('completed');
    expect(resultText((await taskOn(other.url, taskId)).result as Record<string, unknown>)).toContain('after the freeze');
  }, 60_000);

  it('the tasks of a killed replica read as lost on the others, telling the client to call again', async () => {
    const [, other, doomed] = replicas;
    const { taskId } = await heldTask(doomed.url, 'killed.fifo');
    expect((await taskOn(other.url, taskId)).status).toBe('working');
    doomed.child.kill('SIGKILL');
    await expect.poll(async () => (await taskOn(other.url, taskId)).status, { timeout: 30_000, interval: 100 }).toBe('failed');
    expect(await taskOn(other.url, taskId)).toMatchObject({
      statusMessage: expect.stringContaining('replica running this task stopped'),
      error: { code: -32603, message: expect.stringContaining('call the tool again') },
    });
  }, 60_000);

  it('a replica whose main thread stays blocked past its stall limit ends itself and its commands, and its tasks read as lost', async () => {
    const [, other, , hung] = replicas;
    const { taskId } = await heldTask(hung.url, 'hung.fifo');
    // A command of the hung replica: its exit cleanup would run on the stuck thread, never.
    const command = 'sleep 3171';
    const running = (await modernRequest(hung.url, 'tools/call', { name: 'Bash', arguments: { command } })).body.result;
    expect(running).toMatchObject({ resultType: 'task' });
    const alive = () => spawnSync('pgrep', ['-f', command]).status === 0;
    await expect.poll(alive, { timeout: 10_000 }).toBe(true);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => hung.child.once('exit', (_code, signal) => resolve(signal)));
    // Blocked far longer than the test waits: only the watchdog can end it.
    hung.child.stdin.write('freeze 600000\n');
    await hung.printed('frozen');
    expect(await exited).toBe('SIGKILL');
    expect(hung.stderr()).toMatch(/main thread has not answered for \d+ s; it stops so its tasks read as lost/);
    expect(alive()).toBe(false);
    // The worker withdrew the key before ending the process: lost at once, not a ttl later.
    expect(await taskOn(other.url, taskId)).toMatchObject({
      status: 'failed',
      error: { message: expect.stringContaining('call the tool again') },
    });
  }, 60_000);
});
