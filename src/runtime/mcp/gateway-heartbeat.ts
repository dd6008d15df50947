// A replica's liveness key in Redis, renewed by a worker thread on its own event loop and its own
// connection (started by gateway-redis.ts; the build ships it as its own file). A main loop
// starved of CPU or blocked by a long synchronous step therefore still reads as alive, while a
// killed process stops renewing at once and its key expires within one ttl.
import { parentPort, workerData } from 'node:worker_threads';
import { createClient } from '@redis/client';
import { messageOf } from '../util/message.js';

export interface HeartbeatConfig {
  url: string;
  key: string;
  beatMs: number;
  ttlMs: number;
}

/** From the worker: the first renewal succeeded, or it could not. */
export type HeartbeatReport = { kind: 'ready' } | { kind: 'failed'; message: string };

const port = parentPort;
if (!port) throw new Error('gateway-heartbeat.js runs as a worker thread started by the Redis gateway store');
const config = workerData as HeartbeatConfig;
const client = createClient({ url: config.url, socket: { connectTimeout: 5_000 } });
// The client reconnects by itself; a renewal missed meanwhile is made up by the next one.
client.on('error', () => undefined);
const renew = async (): Promise<void> => {
  await client.set(config.key, String(Date.now()), { expiration: { type: 'PX', value: config.ttlMs } });
};
try {
  await client.connect();
  await renew();
  port.postMessage({ kind: 'ready' } satisfies HeartbeatReport);
  setInterval(() => void renew().catch(() => undefined), config.beatMs);
} catch (error) {
  port.postMessage({ kind: 'failed', message: messageOf(error) } satisfies HeartbeatReport);
  await client.close().catch(() => undefined);
  port.close();
}
