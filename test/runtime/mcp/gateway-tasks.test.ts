// The gateway's task rules (pure), its task runner and its in-memory store, without processes or
// sockets (replicas on a real Redis: gateway-redis.test.ts, gateway-liveness.test.ts).
import { describe, expect, it } from 'vitest';
import { MemoryGatewayStore, type TaskRecord, type TaskStatus } from '../../../src/runtime/mcp/gateway-store.js';
import { DEFAULT_TASK_SETTINGS, declaresTasks, detailedTask, TaskRunner, TASKS_EXTENSION } from '../../../src/runtime/mcp/gateway-tasks.js';

const record: TaskRecord = {
  taskId: 't1',
  owner: 'o',
  status: 'working',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUpdatedAt: '2026-01-01T00:00:00.000Z',
  ttlMs: 60_000,
  replica: 'r1',
};

describe('task rules', () => {
  it('a working task whose replica stopped reads as failed, telling the client to call again', () => {
    expect(detailedTask(record, 500)).toMatchObject({ status: 'working', pollIntervalMs: 500 });
    const lost = detailedTask(record, 500, 1_000);
    expect(lost).toMatchObject({ status: 'failed', error: { code: -32603 }, lastUpdatedAt: new Date(1_000).toISOString() });
    expect(String(lost.statusMessage)).toContain('call the tool again');
    // A task that ended before its replica stopped keeps its outcome.
    expect(detailedTask({ ...record, status: 'completed' }, 500, 1_000)).toMatchObject({ status: 'completed' });
  });

  it('a task waiting for input carries its questions; it is lost too if its replica stopped', () => {
    const inputRequests = { 'question-1': { method: 'elicitation/create', params: { message: 'Allow Write?' } } };
    const waiting: TaskRecord = { ...record, status: 'input_required', inputRequests };
    expect(detailedTask(waiting, 500)).toMatchObject({ status: 'input_required', inputRequests });
    expect(detailedTask(waiting, 500, 1_000)).toMatchObject({ status: 'failed' });
    expect(detailedTask(waiting, 500, 1_000)).not.toHaveProperty('inputRequests');
  });

  it('a completed task carries its result, a failed one its error, a cancelled one neither', () => {
    const result = { content: [{ type: 'text', text: 'done' }] };
    expect(detailedTask({ ...record, status: 'completed', result }, 1)).toMatchObject({ status: 'completed', result });
    expect(detailedTask({ ...record, status: 'failed', error: { code: -32603, message: 'x' } }, 1).error).toEqual({
      code: -32603,
      message: 'x',
    });
    const cancelled = detailedTask({ ...record, status: 'cancelled' }, 1);
    expect(cancelled).not.toHaveProperty('result');
    expect(cancelled).not.toHaveProperty('error');
  });

  it('only a client that declared the extension gets tasks', () => {
    expect(declaresTasks({ extensions: { [TASKS_EXTENSION]: {} } })).toBe(true);
    for (const capabilities of [undefined, null, 'tasks', {}, { extensions: null }, { extensions: { other: {} } }])
      expect(declaresTasks(capabilities)).toBe(false);
  });
});

describe('the in-memory store', () => {
  it('claims a key once until it expires, and forgets tasks past their ttl', async () => {
    let now = 0;
    const store = new MemoryGatewayStore(() => now);
    try {
      expect(await store.claimOnce('state:a', 100)).toBe(true);
      expect(await store.claimOnce('state:a', 100)).toBe(false);
      await store.putTask(record);
      expect(await store.getTask('t1')).toEqual(record);
      now = 60_001;
      expect(await store.getTask('t1')).toBeUndefined();
      expect(await store.claimOnce('state:a', 100)).toBe(true);
    } finally {
      await store.close();
    }
  });
});

/** The in-memory store, counting task writes; its cancel checks wait until `answerChecks` is called. */
class WatchedStore extends MemoryGatewayStore {
  readonly written: TaskStatus[] = [];
  checks = 0;
  answered = 0;
  private answers: (() => void)[] = [];

  override async putTask(task: TaskRecord): Promise<void> {
    this.written.push(task.status);
    await super.putTask(task);
  }

  override async cancelRequested(taskId: string): Promise<boolean> {
    this.checks++;
    await new Promise<void>((resolve) => this.answers.push(resolve));
    this.answered++;
    return super.cancelRequested(taskId);
  }

  answerChecks(): void {
    for (const answer of this.answers.splice(0)) answer();
  }
}

describe('the task runner', () => {
  const settings = { ...DEFAULT_TASK_SETTINGS, afterMs: 0, pollIntervalMs: 5 };

  it('writes a task twice, working then its outcome: a cancel check in flight at the end changes nothing', async () => {
    const store = new WatchedStore();
    const runner = new TaskRunner(store, settings);
    let finish = (): void => undefined;
    const work = new Promise<string>((resolve) => (finish = () => resolve('done')));
    try {
      const settled = await runner.run(
        'o',
        new AbortController().signal,
        () => work,
        (text) => ({ content: [{ type: 'text', text }] }),
      );
      if (settled.kind !== 'task') throw new Error('expected a task');
      const taskId = settled.handle.taskId as string;
      await expect.poll(() => store.checks).toBeGreaterThan(2);
      finish();
      await expect.poll(async () => (await store.getTask(taskId))?.status).toBe('completed');
      const started = store.checks;
      store.answerChecks();
      await expect.poll(() => store.answered).toBe(started);
      await new Promise((resolve) => setImmediate(resolve));
      expect(store.written).toEqual(['working', 'completed']);
      expect(await runner.describe((await store.getTask(taskId)) as TaskRecord)).toMatchObject({ status: 'completed' });
    } finally {
      finish();
      store.answerChecks();
      await store.close();
    }
  });

  it('reports a working task of a stopped replica lost, unless it ended meanwhile', async () => {
    const store = new MemoryGatewayStore();
    const runner = new TaskRunner(store, settings);
    try {
      const elsewhere: TaskRecord = { ...record, replica: 'stopped-replica' };
      expect(await runner.describe(elsewhere)).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('stopped') });
      // Read as working just before its replica wrote the outcome and stopped: the outcome wins.
      await store.putTask({ ...elsewhere, status: 'completed', result: { content: [] } });
      expect(await runner.describe(elsewhere)).toMatchObject({ status: 'completed' });
      // This process's own tasks are alive.
      expect(await runner.describe({ ...record, taskId: 't2', replica: store.replica })).toMatchObject({ status: 'working' });
    } finally {
      await store.close();
    }
  });
});
