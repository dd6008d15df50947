// The gateway's task rules (pure) and its in-memory store, without processes or sockets.
import { describe, expect, it } from 'vitest';
import { MemoryGatewayStore, type TaskRecord } from '../../../src/runtime/mcp/gateway-store.js';
import { declaresTasks, detailedTask, TASKS_EXTENSION } from '../../../src/runtime/mcp/gateway-tasks.js';

const record: TaskRecord = {
  taskId: 't1',
  owner: 'o',
  status: 'working',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUpdatedAt: '2026-01-01T00:00:00.000Z',
  ttlMs: 60_000,
  leaseUntil: 1_000,
};

describe('task rules', () => {
  it('a working task whose lease ran out reads as failed, telling the client to call again', () => {
    expect(detailedTask(record, 999, 500)).toMatchObject({ status: 'working', pollIntervalMs: 500 });
    const lost = detailedTask(record, 1_001, 500);
    expect(lost).toMatchObject({ status: 'failed', error: { code: -32603 }, lastUpdatedAt: new Date(1_000).toISOString() });
    expect(String(lost.statusMessage)).toContain('call the tool again');
    // The replica running it knows it is alive: a renewal it made late (CPU-starved) loses nothing.
    expect(detailedTask(record, 1_001, 500, true)).toMatchObject({ status: 'working' });
  });

  it('a completed task carries its result, a failed one its error, a cancelled one neither', () => {
    const result = { content: [{ type: 'text', text: 'done' }] };
    expect(detailedTask({ ...record, status: 'completed', result }, 5_000, 1)).toMatchObject({ status: 'completed', result });
    expect(detailedTask({ ...record, status: 'failed', error: { code: -32603, message: 'x' } }, 5_000, 1).error).toEqual({
      code: -32603,
      message: 'x',
    });
    const cancelled = detailedTask({ ...record, status: 'cancelled' }, 5_000, 1);
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
