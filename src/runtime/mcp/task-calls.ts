// The task side of one server's connection: tasks/get, tasks/update (answers to a task's
// questions) and tasks/cancel on whichever client is current, and 2025-11-25's task-augmented
// tools/call (MCP 2025-11-25, tasks).
import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { McpCallOutput } from './adapt.js';
import { type McpTaskJobs, startedText, type TaskChannel, taskStateSchema } from './task-jobs.js';

/** How long a 2025-11-25 server keeps a task wield made (the `ttl` it asks for). */
const LEGACY_TASK_TTL_MS = 3_600_000;

const legacyTaskSchema = z.looseObject({
  taskId: z.string().min(1),
  status: z.string(),
  statusMessage: z.string().optional(),
  pollInterval: z.number().optional(),
});
const callResultSchema = z.looseObject({ content: z.array(z.unknown()).optional(), isError: z.boolean().optional() });

/** The connected client (waiting for a connection in progress, restarting a crashed server). */
export type ReadyClient = (signal: AbortSignal) => Promise<Client>;

/** tasks/get, tasks/update and tasks/cancel for a background job; `answer` answers a task's questions. */
export function taskChannel(ready: ReadyClient, callTimeout: number, answer?: TaskChannel['answer']): TaskChannel {
  return {
    get: async (taskId, signal) =>
      (await ready(signal)).request({ method: 'tasks/get', params: { taskId } }, taskStateSchema, { timeout: callTimeout, signal }),
    answer,
    update: async (taskId, inputResponses, signal) => {
      await (await ready(signal)).request({ method: 'tasks/update', params: { taskId, inputResponses } }, z.looseObject({}), {
        timeout: callTimeout,
        signal,
      });
    },
    cancel: async (taskId) => {
      const signal = AbortSignal.timeout(callTimeout);
      await (await ready(signal)).request({ method: 'tasks/cancel', params: { taskId } }, z.looseObject({}), {
        timeout: callTimeout,
        signal,
      });
    },
  };
}

/** 2025-11-25 tasks: tasks/get for the status, tasks/result for the result once completed. */
export function legacyTaskChannel(ready: ReadyClient, callTimeout: number): TaskChannel {
  return {
    get: async (taskId, signal) => {
      const client = await ready(signal);
      const options = { timeout: callTimeout, signal };
      const task = await client.request({ method: 'tasks/get', params: { taskId } }, legacyTaskSchema, options);
      const state = { taskId, status: task.status, statusMessage: task.statusMessage, pollIntervalMs: task.pollInterval };
      // A task waiting for input sends its question on the tasks/result stream (it reaches the
      // elicitation handler, so the person), and that answer then brings the result.
      if (task.status !== 'completed' && task.status !== 'input_required') return state;
      const result = await client.request({ method: 'tasks/result', params: { taskId } }, callResultSchema, options);
      return { ...state, status: 'completed', result };
    },
    cancel: taskChannel(ready, callTimeout).cancel,
  };
}

/** tools/call as a task (2025-11-25: `params.task`, answered with the task), followed as a job. */
export async function legacyTaskCall(
  call: { client: Client; ready: ReadyClient; jobs: McpTaskJobs; server: string; callTimeout: number },
  toolName: string,
  input: Record<string, unknown>,
  signal: AbortSignal,
): Promise<McpCallOutput> {
  const created = await call.client.request(
    { method: 'tools/call', params: { name: toolName, arguments: input, task: { ttl: LEGACY_TASK_TTL_MS } } },
    z.looseObject({ task: legacyTaskSchema }),
    { signal, timeout: call.callTimeout },
  );
  const { taskId, status, statusMessage, pollInterval } = created.task;
  const channel = legacyTaskChannel(call.ready, call.callTimeout);
  const id = call.jobs.start(call.server, toolName, { taskId, status, statusMessage, pollIntervalMs: pollInterval }, channel);
  return { content: [{ type: 'text', text: startedText(call.server, toolName, id) }] };
}
