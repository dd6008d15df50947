// A replica's liveness key in Redis, renewed by a worker thread on its own event loop and its own
// connection (started by gateway-redis.ts; the build ships it as its own file). A main loop
// starved of CPU or blocked by a long synchronous step therefore still reads as alive, while a
// killed process stops renewing at once and its key expires within one ttl.
//
// It is also the replica's watchdog: the main thread ticks every beat, and a main thread silent
// for `stallLimitMs` is taken as hung for good. Renewing on would keep its tasks "working"
// forever; withdrawing the key alone would let a thread that wakes later complete tasks the
// other replicas already reported lost (clients called again: a duplicated result). So the
// worker withdraws the key, ends the commands the replica started (their processes carry its
// mark, see process-mark.ts) and then the process, as a crash would; the supervisor restarts it.
import { writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { createClient } from '@redis/client';
import { messageOf } from '../util/message.js';
import { killMarkedBy } from '../util/process-mark.js';

export interface HeartbeatConfig {
  url: string;
  key: string;
  beatMs: number;
  ttlMs: number;
  /** A main thread silent this long is hung: the process ends. 0 never ends it. */
  stallLimitMs: number;
  /** The main thread's process mark owner: what its commands carry. */
  markOwner: string;
}

/** From the worker: the first renewal succeeded, or it could not. */
export type HeartbeatReport = { kind: 'ready' } | { kind: 'failed'; message: string };

const port = parentPort;
if (!port) throw new Error('gateway-heartbeat.js runs as a worker thread started by the Redis gateway store');
const config = workerData as HeartbeatConfig;
const client = createClient({ url: config.url, socket: { connectTimeout: 5_000 } });
// The client reconnects by itself; a renewal missed meanwhile is made up by the next one.
client.on('error', () => undefined);
let lastTick = Date.now();
port.on('message', () => (lastTick = Date.now()));

const renew = async (): Promise<void> => {
  await client.set(config.key, String(Date.now()), { expiration: { type: 'PX', value: config.ttlMs } });
};

async function endHungReplica(silentMs: number): Promise<never> {
  // process.stderr goes through the main thread, which is the one that is stuck: write the fd.
  writeSync(
    2,
    `wield: this gateway replica's main thread has not answered for ${Math.round(silentMs / 1000)} s; it stops so its tasks read as lost (restart it)\n`,
  );
  await client.del(config.key).catch(() => undefined);
  // Its exit cleanup runs on the stuck thread, so it would never run: commands must not outlive it.
  killMarkedBy(config.markOwner);
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is not delivered synchronously; nothing after this may run.
  return new Promise<never>(() => undefined);
}

const beat = (): void => {
  const silentMs = Date.now() - lastTick;
  if (config.stallLimitMs > 0 && silentMs > config.stallLimitMs) {
    clearInterval(timer);
    void endHungReplica(silentMs);
    return;
  }
  void renew().catch(() => undefined);
};

let timer: NodeJS.Timeout | undefined;
try {
  await client.connect();
  await renew();
  port.postMessage({ kind: 'ready' } satisfies HeartbeatReport);
  lastTick = Date.now();
  timer = setInterval(beat, config.beatMs);
} catch (error) {
  port.postMessage({ kind: 'failed', message: messageOf(error) } satisfies HeartbeatReport);
  await client.close().catch(() => undefined);
  port.close();
}
