// Tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28): a tools/call from a client
// that declared the extension and that has not finished within `afterMs` is answered with a task
// handle; the call goes on in the background and its result is kept in the shared store, where
// `tasks/get` on any replica finds it. The replica running a task renews its lease and watches
// for a cancel asked on any replica. Spec: modelcontextprotocol ext-tasks, 2026-07-28/tasks.md.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { GatewayStore, TaskRecord } from './gateway-store.js';
import { messageOf } from '../util/message.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export interface TaskSettings {
  /** A call still running after this long becomes a task (default 2 s). */
  afterMs: number;
  /** How long a task and its result are kept (default 1 h). */
  ttlMs: number;
  /** The polling interval suggested to clients, and how often a runner checks for a cancel. */
  pollIntervalMs: number;
  /** A runner renews its lease this often; a lease lasts LEASE_BEATS times as long. */
  heartbeatMs: number;
}

/**
 * Beats a lease outlives: a replica starved of CPU renews late (200 tasks in one process on a
 * loaded 2-core machine: with 3 beats, 137 of 337 live tasks read as lost and were run again).
 */
export const LEASE_BEATS = 6;

export const DEFAULT_TASK_SETTINGS: TaskSettings = { afterMs: 2_000, ttlMs: 3_600_000, pollIntervalMs: 1_000, heartbeatMs: 5_000 };

/**
 * What `tasks/get` answers for a record: the Task shape with its status's payload. Pure.
 * `runningHere`: the answering replica runs the task itself, so it is alive whatever its lease says.
 */
export function detailedTask(record: TaskRecord, now: number, pollIntervalMs: number, runningHere = false): Record<string, unknown> {
  const lost = !runningHere && record.status === 'working' && record.leaseUntil < now;
  const status = lost ? 'failed' : record.status;
  const base: Record<string, unknown> = {
    taskId: record.taskId,
    status,
    createdAt: record.createdAt,
    lastUpdatedAt: lost ? new Date(record.leaseUntil).toISOString() : record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs,
  };
  if (lost) {
    const message = 'the gateway replica running this task stopped before it finished; call the tool again';
    return { ...base, statusMessage: message, error: { code: -32603, message } };
  }
  if (record.statusMessage !== undefined) base.statusMessage = record.statusMessage;
  if (status === 'completed') base.result = record.result ?? { content: [] };
  if (status === 'failed') base.error = record.error ?? { code: -32603, message: 'the task failed' };
  return base;
}

/** True when a client declared the extension in this request's capabilities. Pure. */
export function declaresTasks(capabilities: unknown): boolean {
  if (typeof capabilities !== 'object' || capabilities === null) return false;
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

export type Settled<T> = { kind: 'done'; value: T } | { kind: 'task'; handle: Record<string, unknown> };

export class TaskRunner {
  /** Tasks this replica runs: alive here whatever their lease in the store says. */
  private readonly running = new Set<string>();

  constructor(
    readonly store: GatewayStore,
    readonly settings: TaskSettings = DEFAULT_TASK_SETTINGS,
  ) {}

  /**
   * Runs `work`; if it has not finished within afterMs, records a task (durably, before the
   * handle is returned, as the spec requires) and lets the work go on detached from the request.
   * A request aborted before then aborts the work.
   */
  async run<T>(
    owner: string,
    requestSignal: AbortSignal,
    work: (signal: AbortSignal) => Promise<T>,
    toResult: (value: T) => Record<string, unknown>,
  ): Promise<Settled<T>> {
    const abort = new AbortController();
    const onRequestAbort = () => abort.abort(requestSignal.reason);
    requestSignal.addEventListener('abort', onRequestAbort, { once: true });
    const running = work(abort.signal);
    const timer = new AbortController();
    const first = await Promise.race([
      running.then((value) => ({ kind: 'done' as const, value })),
      delay(this.settings.afterMs, { kind: 'late' as const }, { signal: timer.signal }).catch(() => ({ kind: 'late' as const })),
    ]).finally(() => timer.abort());
    if (first.kind === 'done') {
      requestSignal.removeEventListener('abort', onRequestAbort);
      return first;
    }
    const now = Date.now();
    const record: TaskRecord = {
      taskId: randomUUID(),
      owner,
      status: 'working',
      createdAt: new Date(now).toISOString(),
      lastUpdatedAt: new Date(now).toISOString(),
      ttlMs: this.settings.ttlMs,
      leaseUntil: now + LEASE_BEATS * this.settings.heartbeatMs,
    };
    await this.store.putTask(record);
    requestSignal.removeEventListener('abort', onRequestAbort);
    this.running.add(record.taskId);
    void this.follow(record, running, abort, toResult).finally(() => this.running.delete(record.taskId));
    return { kind: 'task', handle: { resultType: 'task', ...detailedTask(record, now, this.settings.pollIntervalMs) } };
  }

  isRunningHere(taskId: string): boolean {
    return this.running.has(taskId);
  }

  /** Renews the lease, watches for a cancel, and writes the terminal state. */
  private async follow<T>(
    record: TaskRecord,
    running: Promise<T>,
    abort: AbortController,
    toResult: (value: T) => Record<string, unknown>,
  ): Promise<void> {
    let cancelled = false;
    let lastBeat = Date.now();
    const watch = setInterval(() => {
      void (async () => {
        if (!cancelled && (await this.store.cancelRequested(record.taskId))) {
          cancelled = true;
          abort.abort(new Error('cancelled by tasks/cancel'));
        }
        if (Date.now() - lastBeat >= this.settings.heartbeatMs) {
          lastBeat = Date.now();
          await this.store.putTask({ ...record, leaseUntil: lastBeat + LEASE_BEATS * this.settings.heartbeatMs });
        }
      })().catch(() => undefined);
    }, this.settings.pollIntervalMs);
    watch.unref();
    const stamp = () => new Date().toISOString();
    let final: TaskRecord;
    try {
      const value = await running;
      final = cancelled
        ? { ...record, status: 'cancelled', statusMessage: 'cancelled by the client', lastUpdatedAt: stamp() }
        : { ...record, status: 'completed', result: toResult(value), lastUpdatedAt: stamp() };
    } catch (error) {
      final = cancelled
        ? { ...record, status: 'cancelled', statusMessage: 'cancelled by the client', lastUpdatedAt: stamp() }
        : {
            ...record,
            status: 'failed',
            statusMessage: messageOf(error),
            error: { code: -32603, message: messageOf(error) },
            lastUpdatedAt: stamp(),
          };
    } finally {
      clearInterval(watch);
    }
    await this.store.putTask(final).catch(() => undefined);
  }
}
