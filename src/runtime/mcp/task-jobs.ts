// MCP Tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28) as background jobs. A
// call the server answers with a task handle returns to the model at once with a job id; wield
// polls `tasks/get` until the task ends (through reconnects: a dropped connection is resumed by
// polling again), tells the person when it does, and keeps the result for McpTaskResult. The
// model waits or polls with McpTaskResult; McpTaskCancel and shutting down send `tasks/cancel`.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { defineTool } from '../tool/define.js';
import { type AnyTool, ToolError } from '../tool/types.js';
import { messageOf } from '../util/message.js';
import { type McpCallOutput, mapCallResult } from './adapt.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The SDK has no client runtime for task handles (it rejects `resultType: "task"`); the transport
 * hands the handle over as an error result carrying it under this `_meta` key (connection.ts).
 */
export const TASK_HANDLE_META = 'wield/taskHandle';

const handleSchema = z.looseObject({
  taskId: z.string().min(1),
  status: z.string(),
  statusMessage: z.string().optional(),
  pollIntervalMs: z.number().optional(),
});
export type TaskHandle = z.infer<typeof handleSchema>;

/** The handle a call result carries, if it became a task. Pure. */
export function taskHandleOf(result: { _meta?: unknown }): TaskHandle | undefined {
  const meta = result._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const parsed = handleSchema.safeParse((meta as Record<string, unknown>)[TASK_HANDLE_META]);
  return parsed.success ? parsed.data : undefined;
}

/** A 2026-07-28 response carrying a task handle, as a result the SDK accepts. Pure. */
export function wrapTaskHandle(message: unknown): unknown {
  if (typeof message !== 'object' || message === null) return message;
  const result = (message as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null || (result as { resultType?: unknown }).resultType !== 'task') return message;
  const handle = { ...(result as Record<string, unknown>) };
  delete handle.resultType;
  return {
    ...message,
    result: { resultType: 'complete', content: [], isError: true, _meta: { [TASK_HANDLE_META]: handle } },
  };
}

/** A server-to-client request a task waits on (MCP inputRequests: an elicitation, mostly). */
const inputRequestSchema = z.looseObject({ method: z.string(), params: z.record(z.string(), z.unknown()).optional() });
export type InputRequest = z.infer<typeof inputRequestSchema>;

export const taskStateSchema = z.looseObject({
  taskId: z.string(),
  status: z.string(),
  statusMessage: z.string().optional(),
  pollIntervalMs: z.number().optional(),
  inputRequests: z.record(z.string(), inputRequestSchema).optional(),
  result: z.looseObject({ content: z.array(z.unknown()).optional(), isError: z.boolean().optional() }).optional(),
  error: z.looseObject({ code: z.number().optional(), message: z.string() }).optional(),
});
export type TaskState = z.infer<typeof taskStateSchema>;

/** What a job asks of the server that runs the task (its connection reconnects as needed). */
export interface TaskChannel {
  get(taskId: string, signal: AbortSignal): Promise<TaskState>;
  cancel(taskId: string): Promise<void>;
  /**
   * 2026-07-28: the answer to one of a task's questions (an elicitation reaches the person), and
   * tasks/update to send answers. A 2025-11-25 task asks on its tasks/result stream instead.
   */
  answer?(request: InputRequest, signal: AbortSignal): Promise<Record<string, unknown>>;
  update?(taskId: string, inputResponses: Record<string, unknown>, signal: AbortSignal): Promise<void>;
}

export type JobOutcome =
  | { kind: 'running'; statusMessage?: string }
  | { kind: 'completed'; result: McpCallOutput }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled'; message: string };

interface Job {
  id: string;
  server: string;
  tool: string;
  taskId: string;
  channel: TaskChannel;
  outcome: JobOutcome;
  done: Promise<void>;
  stop: AbortController;
  /** Answers given to the task's questions, by key: each is asked once, and sent again until taken. */
  answers: Map<string, Record<string, unknown>>;
}

const MIN_POLL_MS = 100;
const MAX_POLL_MS = 5_000;
/** Polls that may fail in a row (server down, reconnecting) before the job is given up. */
export const MAX_POLL_FAILURES = 30;

export interface TaskJobsOptions {
  /** Tells the person (a notice in the terminal) that a job started, progressed or ended. */
  notify?: (message: string) => void;
}

export class McpTaskJobs {
  private readonly jobs = new Map<string, Job>();
  private next = 1;

  constructor(private readonly options: TaskJobsOptions = {}) {}

  /** Follows a task in the background; returns the job id the model uses. */
  start(server: string, tool: string, handle: TaskHandle, channel: TaskChannel): string {
    const id = `mcp-task-${this.next++}`;
    const stop = new AbortController();
    const job: Job = {
      id,
      server,
      tool,
      taskId: handle.taskId,
      channel,
      outcome: { kind: 'running', statusMessage: handle.statusMessage },
      stop,
      done: Promise.resolve(),
      answers: new Map(),
    };
    job.done = this.follow(job, handle.pollIntervalMs);
    this.jobs.set(id, job);
    this.options.notify?.(`MCP server "${server}": "${tool}" runs as background task ${id}`);
    return id;
  }

  /** The job's outcome, once it ends or after waitMs (0: at once). */
  async wait(id: string, waitMs: number, signal: AbortSignal): Promise<JobOutcome> {
    const job = this.find(id);
    if (job.outcome.kind === 'running' && waitMs > 0) {
      const timer = new AbortController();
      const stop = AbortSignal.any([signal, timer.signal]);
      await Promise.race([job.done, sleep(waitMs, undefined, { signal: stop }).catch(() => undefined)]);
      timer.abort();
    }
    return job.outcome;
  }

  async cancel(id: string): Promise<JobOutcome> {
    const job = this.find(id);
    if (job.outcome.kind !== 'running') return job.outcome;
    await job.channel.cancel(job.taskId);
    // The server confirms through tasks/get; the poller sees it (a task may finish first).
    return job.outcome;
  }

  /** Jobs still running. */
  running(): number {
    return [...this.jobs.values()].filter((job) => job.outcome.kind === 'running').length;
  }

  /** The person interrupted: every running task is cancelled on its server (the pollers see it end). */
  async cancelRunning(): Promise<void> {
    const running = [...this.jobs.values()].filter((job) => job.outcome.kind === 'running');
    await Promise.allSettled(running.map((job) => job.channel.cancel(job.taskId)));
  }

  /** Shutting down: running tasks are cancelled on their servers and no longer followed. */
  async close(): Promise<void> {
    await this.cancelRunning();
    for (const job of this.jobs.values()) {
      job.stop.abort();
      if (job.outcome.kind === 'running') job.outcome = { kind: 'cancelled', message: 'wield shut down' };
    }
  }

  private find(id: string): Job {
    const job = this.jobs.get(id);
    if (!job) {
      const known = [...this.jobs.keys()];
      throw new ToolError(
        `No MCP background task "${id}"${known.length ? ` (known: ${known.join(', ')})` : ' (none were started in this session)'}.`,
      );
    }
    return job;
  }

  private async follow(job: Job, firstInterval?: number): Promise<void> {
    let interval = clampPoll(firstInterval);
    let failures = 0;
    let lastMessage = job.outcome.kind === 'running' ? job.outcome.statusMessage : undefined;
    while (job.outcome.kind === 'running' && !job.stop.signal.aborted) {
      try {
        await sleep(interval, undefined, { signal: job.stop.signal });
      } catch {
        break;
      }
      let state: TaskState;
      try {
        state = await job.channel.get(job.taskId, job.stop.signal);
        failures = 0;
      } catch (error) {
        // A dropped connection: the next poll reconnects. Only a long run of failures ends the job.
        if (++failures < MAX_POLL_FAILURES) continue;
        job.outcome = { kind: 'failed', message: `lost track of the task (${failures} polls failed; last: ${messageOf(error)})` };
        break;
      }
      interval = clampPoll(state.pollIntervalMs);
      job.outcome = outcomeOf(state);
      if (state.status === 'input_required' && state.inputRequests) {
        try {
          await this.answer(job, state.inputRequests);
        } catch (error) {
          if (job.stop.signal.aborted) break;
          // Nobody can answer it: the task would wait in vain, so it is cancelled.
          job.outcome = { kind: 'failed', message: `could not answer the server's question: ${messageOf(error)}` };
          await job.channel.cancel(job.taskId).catch(() => undefined);
          break;
        }
        try {
          await this.sendAnswers(job, Object.keys(state.inputRequests));
        } catch (error) {
          // Like a failed poll: the answers are sent again on the next one.
          if (++failures < MAX_POLL_FAILURES) continue;
          job.outcome = { kind: 'failed', message: `could not send answers to the server (${failures} tries; last: ${messageOf(error)})` };
          break;
        }
      }
      if (job.outcome.kind === 'running' && state.statusMessage && state.statusMessage !== lastMessage) {
        lastMessage = state.statusMessage;
        this.options.notify?.(`MCP task ${job.id} ("${job.tool}"): ${state.statusMessage}`);
      }
    }
    if (job.outcome.kind !== 'running') this.options.notify?.(`MCP task ${job.id} ("${job.tool}") ${job.outcome.kind}`);
  }

  /** Asks the questions not asked yet, one at a time like every prompt to the person. */
  private async answer(job: Job, requests: Record<string, InputRequest>): Promise<void> {
    const { answer } = job.channel;
    for (const [key, request] of Object.entries(requests)) {
      if (job.answers.has(key)) continue;
      if (!answer) throw new Error(`this connection cannot answer ${request.method}`);
      job.answers.set(key, await answer(request, job.stop.signal));
    }
  }

  private async sendAnswers(job: Job, keys: readonly string[]): Promise<void> {
    const responses = Object.fromEntries(keys.flatMap((key) => (job.answers.has(key) ? [[key, job.answers.get(key)] as const] : [])));
    if (Object.keys(responses).length > 0) await job.channel.update?.(job.taskId, responses, job.stop.signal);
  }
}

function clampPoll(ms: number | undefined): number {
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, ms ?? 1_000));
}

/** tasks/get's answer as a job outcome. Pure. */
export function outcomeOf(state: TaskState): JobOutcome {
  switch (state.status) {
    case 'completed':
      return { kind: 'completed', result: state.result ?? { content: [] } };
    case 'failed':
      return { kind: 'failed', message: state.error?.message ?? state.statusMessage ?? 'the task failed' };
    case 'cancelled':
      return { kind: 'cancelled', message: state.statusMessage ?? 'cancelled' };
    default:
      return { kind: 'running', statusMessage: state.statusMessage };
  }
}

/** Text the model gets when a call became a task. Pure. */
export function startedText(server: string, tool: string, id: string): string {
  return (
    `MCP server "${server}" runs "${tool}" as background task ${id}; this turn goes on. ` +
    `Get its result with McpTaskResult {"task_id": "${id}", "wait_seconds": N} (waits up to N seconds; 0 just looks), ` +
    `or stop it with McpTaskCancel {"task_id": "${id}"}.`
  );
}

/** Upper bound of one McpTaskResult wait: the model can call again. */
export const MAX_WAIT_SECONDS = 600;

/** McpTaskResult and McpTaskCancel: the model's handle on background MCP tasks. */
export function createTaskTools(jobs: McpTaskJobs): AnyTool[] {
  const result = defineTool({
    name: 'McpTaskResult',
    source: 'builtin',
    searchHint: 'mcp background task result wait poll job',
    description:
      'The result of a background MCP task (a tool call the server runs as a task returns its id, mcp-task-N). ' +
      `wait_seconds (0-${MAX_WAIT_SECONDS}, default 0) waits for it to finish; while it runs you are told its status and can call again.`,
    inputSchema: z.object({
      task_id: z.string().min(1).describe('The id a tool call returned, e.g. mcp-task-1'),
      wait_seconds: z.number().min(0).max(MAX_WAIT_SECONDS).optional().describe('How long to wait for it to finish'),
    }),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    isDestructive: () => false,
    interruptBehavior: () => 'cancel',
    call: async ({ task_id, wait_seconds }, ctx) => ({
      id: task_id,
      outcome: await jobs.wait(task_id, (wait_seconds ?? 0) * 1000, ctx.signal),
    }),
    toModel: ({ id, outcome }) => resultContent(id, outcome),
  });
  const cancel = defineTool({
    name: 'McpTaskCancel',
    source: 'builtin',
    searchHint: 'mcp background task cancel stop job',
    description: 'Cancels a background MCP task (tasks/cancel on its server).',
    inputSchema: z.object({ task_id: z.string().min(1).describe('The id a tool call returned, e.g. mcp-task-1') }),
    isReadOnly: () => false,
    isConcurrencySafe: () => true,
    isDestructive: () => false,
    interruptBehavior: () => 'cancel',
    call: async ({ task_id }) => ({ id: task_id, outcome: await jobs.cancel(task_id) }),
    toModel: ({ id, outcome }) => ({
      content: [
        {
          type: 'text',
          text:
            outcome.kind === 'running'
              ? `Asked the server to cancel task ${id}; McpTaskResult shows when it has stopped.`
              : `Task ${id} had already ended (${outcome.kind}).`,
        },
      ],
    }),
  });
  return [result, cancel];
}

function resultContent(id: string, outcome: JobOutcome): ReturnType<typeof mapCallResult> {
  switch (outcome.kind) {
    case 'completed':
      return mapCallResult(outcome.result);
    case 'running':
      return {
        content: [
          {
            type: 'text',
            text: `Task ${id} is still running${outcome.statusMessage ? ` (${outcome.statusMessage})` : ''}; call again to wait.`,
          },
        ],
      };
    case 'failed':
      return { content: [{ type: 'text', text: `Task ${id} failed: ${outcome.message}` }], isError: true };
    case 'cancelled':
      return { content: [{ type: 'text', text: `Task ${id} was cancelled: ${outcome.message}` }], isError: true };
  }
}
