// Tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28): a tools/call from a client
// that declared the extension and that has not finished within `afterMs` is answered with a task
// handle; the call goes on in the background and its result is kept in the shared store, where
// `tasks/get` on any replica finds it. The replica running a task writes its record twice (when
// it starts, when it ends) and watches for a cancel asked on any replica; a working task whose
// replica stopped is reported lost. Spec: modelcontextprotocol ext-tasks, 2026-07-28/tasks.md.
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
}

export const DEFAULT_TASK_SETTINGS: TaskSettings = { afterMs: 2_000, ttlMs: 3_600_000, pollIntervalMs: 1_000 };

/**
 * What `tasks/get` answers for a record: the Task shape with its status's payload. Pure.
 * `lostAt`: when the reader found the replica running this working task stopped (undefined: alive).
 */
export function detailedTask(record: TaskRecord, pollIntervalMs: number, lostAt?: number): Record<string, unknown> {
  const lost = lostAt !== undefined && record.status === 'working';
  const status = lost ? 'failed' : record.status;
  const base: Record<string, unknown> = {
    taskId: record.taskId,
    status,
    createdAt: record.createdAt,
    lastUpdatedAt: lost ? new Date(lostAt).toISOString() : record.lastUpdatedAt,
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
  /** Tasks this replica runs: alive, without asking the store. */
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
      replica: this.store.replica,
    };
    await this.store.putTask(record);
    requestSignal.removeEventListener('abort', onRequestAbort);
    this.running.add(record.taskId);
    void this.follow(record, running, abort, toResult).finally(() => this.running.delete(record.taskId));
    return { kind: 'task', handle: { resultType: 'task', ...detailedTask(record, this.settings.pollIntervalMs) } };
  }

  /** The Task a record reads as: a working one whose replica stopped is lost. */
  async describe(record: TaskRecord): Promise<Record<string, unknown>> {
    const { store, settings } = this;
    if (record.status !== 'working' || this.running.has(record.taskId) || (await store.replicaAlive(record.replica)))
      return detailedTask(record, settings.pollIntervalMs);
    // It may have ended just before its replica stopped: the record read first was older.
    const latest = (await store.getTask(record.taskId)) ?? record;
    return detailedTask(latest, settings.pollIntervalMs, Date.now());
  }

  /** Watches for a cancel and writes the terminal state (the record's only other write). */
  private async follow<T>(
    record: TaskRecord,
    running: Promise<T>,
    abort: AbortController,
    toResult: (value: T) => Record<string, unknown>,
  ): Promise<void> {
    let cancelled = false;
    // Reads only: a check still in flight when the task ends cannot overwrite its final state.
    const watch = setInterval(() => {
      void (async () => {
        if (!cancelled && (await this.store.cancelRequested(record.taskId))) {
          cancelled = true;
          abort.abort(new Error('cancelled by tasks/cancel'));
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
