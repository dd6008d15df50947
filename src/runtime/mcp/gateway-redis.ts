// The gateway's shared state on Redis, for replicas behind a load balancer. The client library
// is loaded only when a Redis URL is given, so a one-process gateway never loads it. Each
// replica keeps a liveness key fresh from a worker thread (gateway-heartbeat.ts).
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { HeartbeatConfig, HeartbeatReport } from './gateway-heartbeat.js';
import { newSecret, type GatewayStore, type TaskRecord } from './gateway-store.js';
import { messageOf } from '../util/message.js';
import { MARK_OWNER } from '../util/process-mark.js';
import { findShippedFile } from '../util/shipped-file.js';

const PREFIX = 'wield:gateway:';

/** The name the build gives the heartbeat worker's entry, beside the bundles. */
export const HEARTBEAT_WORKER_FILE = 'gateway-heartbeat.js';

/** The heartbeat worker renews a replica's liveness key this often by default. */
export const DEFAULT_BEAT_MS = 1_000;

/** Renewals a liveness key outlives: a killed replica's tasks read as lost within this many beats. */
export const LIVENESS_BEATS = 5;

/**
 * A replica whose main thread has not turned its event loop for this long is hung, and its
 * heartbeat worker ends it (gateway-heartbeat.ts). Far above any synchronous step wield takes:
 * at a load average of 9 on 2 cores the loop still turned within ~1 s (mcp-scale bench).
 */
export const DEFAULT_STALL_LIMIT_MS = 30_000;

export interface RedisStoreOptions {
  /** How often the liveness key is renewed (default 1 s); it lives LIVENESS_BEATS beats. */
  beatMs?: number;
  /** A main thread silent this long ends the process (default 30 s; 0 never). */
  stallLimitMs?: number;
}

interface RedisLike {
  connect(): Promise<unknown>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { condition?: 'NX'; expiration?: { type: 'PX'; value: number } }): Promise<string | null>;
  del(key: string): Promise<number>;
  close(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export class RedisGatewayStore implements GatewayStore {
  readonly kind = 'redis';
  private key?: Promise<string>;

  private constructor(
    private readonly client: RedisLike,
    readonly replica: string,
    private readonly heartbeat: Worker,
    private readonly ticker: NodeJS.Timeout,
  ) {}

  /** Connects and starts the heartbeat and watchdog; a wrong URL fails here, before serving. */
  static async connect(url: string, options: RedisStoreOptions = {}): Promise<RedisGatewayStore> {
    const { beatMs = DEFAULT_BEAT_MS, stallLimitMs = DEFAULT_STALL_LIMIT_MS } = options;
    const loaded: typeof import('@redis/client') & { default?: typeof import('@redis/client') } = await import('@redis/client');
    // Bundled into a split chunk, the CommonJS package's exports arrive as `default` only.
    const { createClient } = loaded.default ?? loaded;
    // A replica keeps serving its own requests while Redis is briefly away; errors surface per call.
    const client = createClient({ url, socket: { connectTimeout: 5_000 } }) as unknown as RedisLike;
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.get(`${PREFIX}ping`);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new Error(`Cannot reach Redis at ${url}: ${messageOf(error)} (start redis-server, or check --redis)`);
    }
    const replica = randomUUID();
    try {
      const heartbeat = await startHeartbeat({
        url,
        key: replicaKey(replica),
        beatMs,
        ttlMs: LIVENESS_BEATS * beatMs,
        stallLimitMs,
        markOwner: MARK_OWNER,
      });
      // The watchdog's proof of life: a turn of this thread's event loop.
      const ticker = setInterval(() => heartbeat.postMessage(0), beatMs).unref();
      return new RedisGatewayStore(client, replica, heartbeat, ticker);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  secret(): Promise<string> {
    // The first replica to start sets it; the others read the same value.
    this.key ??= (async () => {
      await this.client.set(`${PREFIX}secret`, newSecret(), { condition: 'NX' });
      const key = await this.client.get(`${PREFIX}secret`);
      if (!key) throw new Error('Redis lost the gateway secret right after setting it');
      return key;
    })();
    return this.key;
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    const reply = await this.client.set(`${PREFIX}claim:${key}`, '1', { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
    return reply === 'OK';
  }

  async putTask(task: TaskRecord): Promise<void> {
    await this.client.set(`${PREFIX}task:${task.taskId}`, JSON.stringify(task), { expiration: { type: 'PX', value: task.ttlMs } });
  }

  async getTask(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.client.get(`${PREFIX}task:${taskId}`);
    return text === null ? undefined : (JSON.parse(text) as TaskRecord);
  }

  async requestCancel(taskId: string, ttlMs: number): Promise<void> {
    await this.client.set(`${PREFIX}cancel:${taskId}`, '1', { expiration: { type: 'PX', value: ttlMs } });
  }

  async cancelRequested(taskId: string): Promise<boolean> {
    return (await this.client.get(`${PREFIX}cancel:${taskId}`)) !== null;
  }

  async putInput(taskId: string, key: string, response: unknown, ttlMs: number): Promise<void> {
    await this.client.set(`${PREFIX}input:${taskId}:${key}`, JSON.stringify(response), {
      condition: 'NX',
      expiration: { type: 'PX', value: ttlMs },
    });
  }

  async getInput(taskId: string, key: string): Promise<unknown> {
    const text = await this.client.get(`${PREFIX}input:${taskId}:${key}`);
    return text === null ? undefined : JSON.parse(text);
  }

  async replicaAlive(replica: string): Promise<boolean> {
    return (await this.client.get(replicaKey(replica))) !== null;
  }

  /** Stops the heartbeat and withdraws the liveness key: tasks still running here read as lost at once. */
  async close(): Promise<void> {
    clearInterval(this.ticker);
    await this.heartbeat.terminate();
    await this.client.del(replicaKey(this.replica)).catch(() => undefined);
    await this.client.close().catch(() => undefined);
  }
}

function replicaKey(replica: string): string {
  return `${PREFIX}replica:${replica}`;
}

/** Starts the worker and waits for its first renewal, so no task of this replica ever reads as lost. */
async function startHeartbeat(config: HeartbeatConfig): Promise<Worker> {
  const file = findShippedFile(HEARTBEAT_WORKER_FILE);
  if (file === undefined)
    throw new Error(
      `The Redis gateway store needs its heartbeat worker (${HEARTBEAT_WORKER_FILE}) beside wield's bundle; run wield from its build (npm run build)`,
    );
  const worker = new Worker(file, { workerData: config });
  // A crashed worker stops renewing: this replica's tasks then read as lost, as for a dead replica.
  worker.on('error', () => undefined);
  const report = await new Promise<HeartbeatReport>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', (error) => resolve({ kind: 'failed', message: messageOf(error) }));
    worker.once('exit', (code) => resolve({ kind: 'failed', message: `the heartbeat worker exited (${code})` }));
  });
  if (report.kind === 'failed') {
    await worker.terminate();
    throw new Error(`Cannot keep this replica's liveness in Redis at ${config.url}: ${report.message}`);
  }
  worker.unref();
  return worker;
}
