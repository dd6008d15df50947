// The gateway's shared state on Redis, for replicas behind a load balancer. The client library
// is loaded only when a Redis URL is given, so a one-process gateway never loads it.
import { newSecret, type GatewayStore, type TaskRecord } from './gateway-store.js';
import { messageOf } from '../util/message.js';

const PREFIX = 'wield:gateway:';

interface RedisLike {
  connect(): Promise<unknown>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { condition?: 'NX'; expiration?: { type: 'PX'; value: number } }): Promise<string | null>;
  close(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export class RedisGatewayStore implements GatewayStore {
  readonly kind = 'redis';
  private key?: Promise<string>;

  private constructor(private readonly client: RedisLike) {}

  /** Connects (the first command waits for it); a wrong URL fails here, before serving. */
  static async connect(url: string): Promise<RedisGatewayStore> {
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
    return new RedisGatewayStore(client);
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

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}
