// Background jobs for MCP tasks, over a channel that stands in for a server whose connection
// drops: polling goes on through failed polls and picks the task up again.
import { describe, expect, it } from 'vitest';
import { answerInputRequest } from '../../../src/runtime/mcp/client-features.js';
import type { McpElicitation } from '../../../src/runtime/mcp/elicit.js';
import { MAX_POLL_FAILURES, McpTaskJobs, type TaskChannel, type TaskState, wrapTaskHandle } from '../../../src/runtime/mcp/task-jobs.js';

/** Answers tasks/get from a script: an Error is a failed poll (the connection dropped). */
function channel(script: (TaskState | Error)[]): TaskChannel & { cancelled: string[] } {
  const cancelled: string[] = [];
  let n = 0;
  return {
    cancelled,
    get: async () => {
      const step = script[Math.min(n++, script.length - 1)];
      if (step instanceof Error) throw step;
      return step;
    },
    cancel: async (taskId) => {
      cancelled.push(taskId);
    },
  };
}

const working: TaskState = { taskId: 't', status: 'working', pollIntervalMs: 100 };
const signal = new AbortController().signal;

describe('MCP task jobs', () => {
  it('a job survives dropped connections: failed polls are retried and the result still arrives', async () => {
    const notices: string[] = [];
    const jobs = new McpTaskJobs({ notify: (message) => notices.push(message) });
    const lost = new Error('fetch failed');
    const done: TaskState = { taskId: 't', status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } };
    const id = jobs.start('s', 'slow', { taskId: 't', status: 'working', pollIntervalMs: 100 }, channel([working, lost, lost, lost, done]));
    expect(await jobs.wait(id, 20_000, signal)).toEqual({ kind: 'completed', result: done.result });
    expect(notices).toEqual([`MCP server "s": "slow" runs as background task ${id}`, `MCP task ${id} ("slow") completed`]);
  });

  it(`gives a job up after ${MAX_POLL_FAILURES} failed polls in a row, saying why`, async () => {
    const jobs = new McpTaskJobs();
    const id = jobs.start('s', 'slow', { taskId: 't', status: 'working', pollIntervalMs: 1 }, channel([new Error('ECONNREFUSED')]));
    const outcome = await jobs.wait(id, 20_000, signal);
    expect(outcome).toMatchObject({ kind: 'failed', message: expect.stringContaining('ECONNREFUSED') });
  });

  it('cancelRunning sends tasks/cancel for running jobs only; close stops following them', async () => {
    const jobs = new McpTaskJobs();
    const server = channel([working]);
    const a = jobs.start('s', 'a', { taskId: 'ta', status: 'working' }, server);
    expect(jobs.running()).toBe(1);
    await jobs.cancelRunning();
    expect(server.cancelled).toEqual(['ta']);
    await jobs.close();
    expect(await jobs.wait(a, 0, signal)).toMatchObject({ kind: 'cancelled' });
    expect(jobs.running()).toBe(0);
  });

  it("asks each of a task's questions once across polls, and sends the answer again until the server takes it", async () => {
    const question = { method: 'elicitation/create', params: { message: 'Allow Write?' } };
    const waiting: TaskState = { taskId: 't', status: 'input_required', pollIntervalMs: 1, inputRequests: { q1: question } };
    const done: TaskState = { taskId: 't', status: 'completed', result: { content: [{ type: 'text', text: 'written' }] } };
    const server = channel([working, waiting, waiting, waiting, done]);
    const asked: unknown[] = [];
    const updates: Record<string, unknown>[] = [];
    let refuseUpdate = true;
    const jobs = new McpTaskJobs();
    const id = jobs.start(
      's',
      'Write',
      { taskId: 't', status: 'working', pollIntervalMs: 1 },
      {
        ...server,
        answer: async (request) => {
          asked.push(request);
          return { action: 'accept', content: { allow: true } };
        },
        update: async (_taskId, responses) => {
          updates.push(responses);
          if (refuseUpdate) {
            refuseUpdate = false;
            throw new Error('fetch failed');
          }
        },
      },
    );
    expect(await jobs.wait(id, 20_000, signal)).toMatchObject({ kind: 'completed' });
    expect(asked).toEqual([question]);
    expect(updates).toEqual([1, 2, 3].map(() => ({ q1: { action: 'accept', content: { allow: true } } })));
  });

  it('a question nobody can answer ends the job, saying why, and cancels the task', async () => {
    const sampling: TaskState = {
      taskId: 't',
      status: 'input_required',
      inputRequests: { q1: { method: 'sampling/createMessage', params: {} } },
    };
    const server = channel([sampling]);
    const jobs = new McpTaskJobs();
    const id = jobs.start(
      's',
      'Think',
      { taskId: 't', status: 'working', pollIntervalMs: 1 },
      {
        ...server,
        answer: async (request) => {
          throw new Error(`it asked for ${request.method}, which wield does not offer`);
        },
      },
    );
    const outcome = await jobs.wait(id, 20_000, signal);
    expect(outcome).toMatchObject({ kind: 'failed', message: expect.stringContaining('sampling/createMessage') });
    expect(server.cancelled).toEqual(['t']);
  });

  it('turns a task handle into a result the SDK accepts, and leaves other results alone', () => {
    const handle = { jsonrpc: '2.0', id: 3, result: { resultType: 'task', taskId: 'x', status: 'working' } };
    expect(wrapTaskHandle(handle)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { resultType: 'complete', content: [], isError: true, _meta: { 'wield/taskHandle': { taskId: 'x', status: 'working' } } },
    });
    const plain = { jsonrpc: '2.0', id: 4, result: { resultType: 'complete', content: [] } };
    expect(wrapTaskHandle(plain)).toBe(plain);
  });
});

describe("answering a 2026-07-28 task's questions", () => {
  it('an elicitation reaches the handler as one sent on its own; roots list the workspace; sampling is refused', async () => {
    const seen: McpElicitation[] = [];
    const features = {
      elicit: async (request: McpElicitation) => {
        seen.push(request);
        return { action: 'accept' as const, content: { allow: true } };
      },
      roots: () => ['/work/project'],
    };
    const form = { method: 'elicitation/create', params: { mode: 'form', message: 'Allow Write?', requestedSchema: { type: 'object' } } };
    expect(await answerInputRequest(features, 'gw', form, signal)).toEqual({ action: 'accept', content: { allow: true } });
    expect(seen).toEqual([{ server: 'gw', mode: 'form', message: 'Allow Write?', requestedSchema: { type: 'object' } }]);
    expect(await answerInputRequest(features, 'gw', { method: 'roots/list' }, signal)).toEqual({
      roots: [{ uri: 'file:///work/project', name: 'project' }],
    });
    await expect(answerInputRequest(features, 'gw', { method: 'sampling/createMessage' }, signal)).rejects.toThrow('wield does not offer');
    await expect(answerInputRequest(features, 'gw', { method: 'elicitation/create', params: {} }, signal)).rejects.toThrow('no message');
    // Nobody to ask (no elicitation offered): declined.
    expect(await answerInputRequest({}, 'gw', form, signal)).toEqual({ action: 'decline' });
  });
});
