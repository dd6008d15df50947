// What gateway replicas share so that any of them can answer any 2026-07-28 request: the key
// that signs `requestState`, the used requestState nonces (each answers one retry), and Tasks.
// One process keeps them in memory (the default); replicas behind a load balancer share Redis
// (gateway-redis.ts). A task record has one writer, the replica running it, which writes it
// when the task starts, asks or is answered, and ends; a cancel and a client's answers are keys
// of their own, written by whichever replica the request reached. Whether the replica running a
// task is still alive is a key of its own too, kept fresh off its main event loop.
import { randomBytes, randomUUID } from 'node:crypto';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface TaskRecord {
  taskId: string;
  /** Digest of the credential that created it: another client's tasks read as unknown. */
  owner: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  /** While input_required: the questions waiting for the client (MCP inputRequests, by key). */
  inputRequests?: Record<string, unknown>;
  /** The replica running it: a working task whose replica stopped is lost. */
  replica: string;
}

export interface GatewayStore {
  readonly kind: 'memory' | 'redis';
  /** This replica's name in the tasks it runs. */
  readonly replica: string;
  /** The HMAC key for requestState, the same on every replica (made once, at first use). */
  secret(): Promise<string>;
  /** True the first time a key is claimed within ttlMs, false on every later claim. */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  putTask(task: TaskRecord): Promise<void>;
  getTask(taskId: string): Promise<TaskRecord | undefined>;
  requestCancel(taskId: string, ttlMs: number): Promise<void>;
  cancelRequested(taskId: string): Promise<boolean>;
  /** Keeps the client's answer to a task's question (tasks/update, on any replica); only the first answer counts. */
  putInput(taskId: string, key: string, response: unknown, ttlMs: number): Promise<void>;
  /** The answer to a task's question, once given. */
  getInput(taskId: string, key: string): Promise<unknown>;
  /** False once a replica stopped: killed, shut down, or hung (gateway-heartbeat.ts). */
  replicaAlive(replica: string): Promise<boolean>;
  close(): Promise<void>;
}

/** 32 bytes, the least createRequestStateCodec accepts. */
export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

export class MemoryGatewayStore implements GatewayStore {
  readonly kind = 'memory';
  readonly replica = randomUUID();
  private readonly key = newSecret();
  private readonly entries = new Map<string, { value: string; expires: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async secret(): Promise<string> {
    return this.key;
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    if (this.read(`claim:${key}`) !== undefined) return false;
    this.write(`claim:${key}`, '1', ttlMs);
    return true;
  }

  async putTask(task: TaskRecord): Promise<void> {
    this.write(`task:${task.taskId}`, JSON.stringify(task), task.ttlMs);
  }

  async getTask(taskId: string): Promise<TaskRecord | undefined> {
    const text = this.read(`task:${taskId}`);
    return text === undefined ? undefined : (JSON.parse(text) as TaskRecord);
  }

  async requestCancel(taskId: string, ttlMs: number): Promise<void> {
    this.write(`cancel:${taskId}`, '1', ttlMs);
  }

  async cancelRequested(taskId: string): Promise<boolean> {
    return this.read(`cancel:${taskId}`) !== undefined;
  }

  async putInput(taskId: string, key: string, response: unknown, ttlMs: number): Promise<void> {
    if (this.read(`input:${taskId}:${key}`) === undefined) this.write(`input:${taskId}:${key}`, JSON.stringify(response), ttlMs);
  }

  async getInput(taskId: string, key: string): Promise<unknown> {
    const text = this.read(`input:${taskId}:${key}`);
    return text === undefined ? undefined : JSON.parse(text);
  }

  /** The only replica is this process: its tasks live exactly as long as this store. */
  async replicaAlive(replica: string): Promise<boolean> {
    return replica === this.replica;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  private read(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expires <= this.now()) this.entries.delete(key);
    return entry && entry.expires > this.now() ? entry.value : undefined;
  }

  private write(key: string, value: string, ttlMs: number): void {
    this.entries.set(key, { value, expires: this.now() + ttlMs });
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }
}
