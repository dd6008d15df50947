// Tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28): a tools/call from a client
// that declared the extension and that has not finished within `afterMs` is answered with a task
// handle; the call goes on in the background and its result is kept in the shared store, where
// `tasks/get` on any replica finds it. Only the replica running a task writes its record: when it
// starts, when it asks the client a question (input_required, answered by tasks/update on any
// replica) and is answered, and when it ends; it watches for a cancel asked on any replica. An
// unfinished task whose replica stopped is reported lost. Spec: ext-tasks, 2026-07-28/tasks.md.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { GatewayStore, TaskRecord, TaskStatus } from './gateway-store.js';
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
 * `lostAt`: when the reader found the replica running this unfinished task stopped (undefined: alive).
 */
export function detailedTask(record: TaskRecord, pollIntervalMs: number, lostAt?: number): Record<string, unknown> {
  const lost = lostAt !== undefined && !isTerminal(record.status);
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
  if (status === 'input_required') base.inputRequests = record.inputRequests ?? {};
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

/** True for a status that will not change again. Pure. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * Asks the client through the task: the task reads input_required with `requests` among its
 * inputRequests until tasks/update calls (on any replica) have answered every one; resolves with
 * the answers under the same keys. An answered question leaves inputRequests at once.
 */
export type AskThroughTask = (
  requests: Record<string, unknown>,
  statusMessage: string,
  signal: AbortSignal,
) => Promise<Record<string, unknown>>;

/** A task this replica runs: its record as last written, and its questions still unanswered. */
interface RunningTask {
  record: TaskRecord;
  questions: Record<string, unknown>;
}

export class TaskRunner {
  /** Tasks this replica runs: alive, without asking the store. */
  private readonly running = new Map<string, RunningTask>();

  constructor(
    readonly store: GatewayStore,
    readonly settings: TaskSettings = DEFAULT_TASK_SETTINGS,
  ) {}

  /**
   * Runs `work`; if it has not finished within afterMs, records a task (durably, before the
   * handle is returned, as the spec requires) and lets the work go on detached from the request.
   * A request aborted before then aborts the work. `asTask` gives the work a way to ask the
   * client once the call has become a task, and undefined before.
   */
  async run<T>(
    owner: string,
    requestSignal: AbortSignal,
    work: (signal: AbortSignal, asTask: () => AskThroughTask | undefined) => Promise<T>,
    toResult: (value: T) => Record<string, unknown>,
  ): Promise<Settled<T>> {
    const abort = new AbortController();
    const onRequestAbort = () => abort.abort(requestSignal.reason);
    requestSignal.addEventListener('abort', onRequestAbort, { once: true });
    let late = false;
    const recorded = { resolve: (_task: RunningTask): void => undefined, reject: (_error: unknown): void => undefined };
    const whenRecorded = new Promise<RunningTask>((resolve, reject) => Object.assign(recorded, { resolve, reject }));
    // Nobody may ask before the record exists; if it cannot be written, the work is aborted.
    whenRecorded.catch(() => undefined);
    const ask: AskThroughTask = async (requests, statusMessage, signal) => this.ask(await whenRecorded, requests, statusMessage, signal);
    const running = work(abort.signal, () => (late ? ask : undefined));
    const timer = new AbortController();
    const first = await Promise.race([
      running.then((value) => ({ kind: 'done' as const, value })),
      delay(this.settings.afterMs, undefined, { signal: timer.signal }).then(
        () => {
          late = true;
          return { kind: 'late' as const };
        },
        () => ({ kind: 'late' as const }),
      ),
    ]).finally(() => timer.abort());
    if (first.kind === 'done') {
      requestSignal.removeEventListener('abort', onRequestAbort);
      return first;
    }
    const now = new Date().toISOString();
    const task: RunningTask = {
      record: {
        taskId: randomUUID(),
        owner,
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: this.settings.ttlMs,
        replica: this.store.replica,
      },
      questions: {},
    };
    try {
      await this.store.putTask(task.record);
    } catch (error) {
      abort.abort(error);
      recorded.reject(error);
      throw error;
    } finally {
      requestSignal.removeEventListener('abort', onRequestAbort);
    }
    const { taskId } = task.record;
    this.running.set(taskId, task);
    recorded.resolve(task);
    void this.follow(task, running, abort, toResult).finally(() => this.running.delete(taskId));
    return { kind: 'task', handle: { resultType: 'task', ...detailedTask(task.record, this.settings.pollIntervalMs) } };
  }

  /** The Task a record reads as: an unfinished one whose replica stopped is lost. */
  async describe(record: TaskRecord): Promise<Record<string, unknown>> {
    const { store, settings } = this;
    if (isTerminal(record.status) || this.running.has(record.taskId) || (await store.replicaAlive(record.replica)))
      return detailedTask(await this.unanswered(record), settings.pollIntervalMs);
    // It may have ended just before its replica stopped: the record read first was older.
    const latest = (await store.getTask(record.taskId)) ?? record;
    return detailedTask(latest, settings.pollIntervalMs, Date.now());
  }

  /**
   * The record without the questions tasks/update already answered: the runner rewrites it at its
   * next poll, a client reading before then is not shown them again.
   */
  private async unanswered(record: TaskRecord): Promise<TaskRecord> {
    if (record.status !== 'input_required' || !record.inputRequests) return record;
    const waiting: Record<string, unknown> = {};
    for (const [id, request] of Object.entries(record.inputRequests))
      if ((await this.store.getInput(record.taskId, id).catch(() => undefined)) === undefined) waiting[id] = request;
    if (Object.keys(waiting).length > 0) return { ...record, inputRequests: waiting };
    return { ...record, status: 'working', statusMessage: undefined, inputRequests: undefined };
  }

  /** Puts questions among the task's inputRequests and waits for every answer (or the task's end). */
  private async ask(
    task: RunningTask,
    requests: Record<string, unknown>,
    statusMessage: string,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    // Unique over the task's life, as the extension asks: an answer never meets another question.
    const minted = new Map(Object.keys(requests).map((key) => [`${key}-${randomUUID().slice(0, 8)}`, key]));
    for (const [id, key] of minted) task.questions[id] = requests[key];
    await this.rewrite(task, statusMessage);
    const answers: Record<string, unknown> = {};
    try {
      while (Object.keys(answers).length < minted.size) {
        await delay(this.settings.pollIntervalMs, undefined, { signal });
        for (const [id, key] of minted) {
          if (key in answers) continue;
          // A store briefly away is asked again on the next round.
          const response = await this.store.getInput(task.record.taskId, id).catch(() => undefined);
          if (response === undefined) continue;
          answers[key] = response;
          delete task.questions[id];
        }
      }
      return answers;
    } finally {
      for (const id of minted.keys()) delete task.questions[id];
      // Stopped (cancelled, or the request gone): the task's end is written by follow().
      if (!signal.aborted) await this.rewrite(task);
    }
  }

  /** Writes the record again: input_required while any question waits, working otherwise. */
  private async rewrite(task: RunningTask, statusMessage?: string): Promise<void> {
    const waiting = Object.keys(task.questions).length > 0;
    task.record = {
      ...task.record,
      status: waiting ? 'input_required' : 'working',
      statusMessage: waiting ? (statusMessage ?? task.record.statusMessage) : undefined,
      inputRequests: waiting ? { ...task.questions } : undefined,
      lastUpdatedAt: new Date().toISOString(),
    };
    await this.store.putTask(task.record);
  }

  /** Watches for a cancel and writes the terminal state, the record's last write. */
  private async follow<T>(
    task: RunningTask,
    running: Promise<T>,
    abort: AbortController,
    toResult: (value: T) => Record<string, unknown>,
  ): Promise<void> {
    const { taskId } = task.record;
    let cancelled = false;
    // Reads only: a check still in flight when the task ends cannot overwrite its final state.
    const watch = setInterval(() => {
      void (async () => {
        if (!cancelled && (await this.store.cancelRequested(taskId))) {
          cancelled = true;
          abort.abort(new Error('cancelled by tasks/cancel'));
        }
      })().catch(() => undefined);
    }, this.settings.pollIntervalMs);
    watch.unref();
    let outcome: Partial<TaskRecord>;
    try {
      const value = await running;
      outcome = cancelled ? CANCELLED : { status: 'completed', result: toResult(value) };
    } catch (error) {
      outcome = cancelled
        ? CANCELLED
        : { status: 'failed', statusMessage: messageOf(error), error: { code: -32603, message: messageOf(error) } };
    } finally {
      clearInterval(watch);
    }
    const final: TaskRecord = {
      ...task.record,
      statusMessage: undefined,
      inputRequests: undefined,
      ...outcome,
      lastUpdatedAt: new Date().toISOString(),
    };
    await this.store.putTask(final).catch(() => undefined);
  }
}

const CANCELLED: Partial<TaskRecord> = { status: 'cancelled', statusMessage: 'cancelled by the client' };
