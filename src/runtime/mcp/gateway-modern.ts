// The gateway's 2026-07-28 side. No session and no server-to-client request: a permission
// question is answered `input_required` with an elicitation and a signed, single-use
// `requestState`; the client retries the call with the answer, on any replica. A client that
// declared the Tasks extension gets a task handle for a call that runs long (gateway-tasks.ts);
// a question that comes up after that waits in the task (input_required) for a tasks/update.
import { createHash, randomUUID } from 'node:crypto';
import {
  type CallToolRequest,
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  inputRequired,
  inputResponse,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { AskPermission, PermissionAnswer } from '../pipeline/types.js';
import { type AskThroughTask, declaresTasks, isTerminal, TASKS_EXTENSION, type TaskRunner } from './gateway-tasks.js';
import { type GatewayState, isRelayState } from './gateway-relay.js';

export interface ModernGateway {
  runner: TaskRunner;
  codec: RequestStateCodec<GatewayState>;
  /** Digest of the request's credential: tasks are found only with the one that made them. */
  owner: string;
}

/** How long an unanswered permission question (its requestState) stays valid. */
export const REQUEST_STATE_TTL_MS = 600_000;

export const PERMISSION_SCHEMA = {
  type: 'object' as const,
  properties: { allow: { type: 'boolean' as const, title: 'Allow this call', default: false } },
  required: ['allow'],
};

/** A permission question's elicitation answer, either revision: only a ticked "allow" allows. */
export function permissionFromElicitation(
  action: 'accept' | 'decline' | 'cancel',
  content: { allow?: unknown } | undefined,
): PermissionAnswer {
  if (action === 'accept' && content?.allow === true) return { behavior: 'allow' };
  // The pipeline words it ("the user declined: …"); this says how, without a closing period.
  return {
    behavior: 'deny',
    message:
      action === 'accept'
        ? 'left "allow" unticked in the MCP client'
        : `${action === 'decline' ? 'declined' : 'dismissed'} the request in the MCP client`,
  };
}

export function preview(input: Record<string, unknown>): string {
  const text = JSON.stringify(input);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

export function callDigest(name: string, args: Record<string, unknown>): string {
  return createHash('sha256')
    .update(JSON.stringify([name, args]))
    .digest('base64url');
}

/** The client capabilities this request declared (2026-07-28 sends them with every request). */
export function capabilitiesOf(ctx: ServerContext): { elicitation?: unknown; extensions?: unknown } | undefined {
  const envelope: Record<string, unknown> | undefined = ctx.mcpReq.envelope;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return typeof capabilities === 'object' && capabilities !== null ? capabilities : undefined;
}

/** The permission answer under `key` in an inputResponses map (a retried call's or a tasks/update's). */
function permissionFromResponses(responses: Record<string, unknown> | undefined, key: string): PermissionAnswer {
  const view = inputResponse(responses, key);
  if (view.kind === 'elicit') return permissionFromElicitation(view.action, view.content);
  return { behavior: 'deny', message: `sent no answer under "${key}" in inputResponses` };
}

/** The answer a retried call carries, checked against the call and claimed once; else undefined. */
async function answerOf(ctx: ServerContext, digest: string, gateway: ModernGateway): Promise<PermissionAnswer | undefined> {
  const state = ctx.mcpReq.requestState<GatewayState>();
  // A relayed server's questions are the relay's to check (gateway-relay.ts).
  if (state === undefined || (typeof state === 'object' && isRelayState(state))) return undefined;
  if (typeof state !== 'object' || state.d !== digest)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'requestState belongs to another call: retry with the same tool name and arguments, or call again without requestState to be asked',
    );
  if (!(await gateway.runner.store.claimOnce(`state:${state.n}`, REQUEST_STATE_TTL_MS)))
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'requestState was already used: an answer allows one retry; call the tool again without requestState to be asked again',
    );
  return permissionFromResponses(ctx.mcpReq.inputResponses, state.k);
}

type Outcome = { kind: 'result'; result: CallToolResult } | { kind: 'ask'; message: string };

/**
 * Runs one tools/call of the 2026-07-28 revision; `execute` runs it through the pipeline.
 * `allowed`: a retry of relayed questions whose call wield's rules already allowed after asking.
 */
export async function modernToolCall(
  request: CallToolRequest,
  ctx: ServerContext,
  gateway: ModernGateway,
  execute: (
    askPermission: AskPermission | undefined,
    signal: AbortSignal,
    asTask: () => AskThroughTask | undefined,
  ) => Promise<CallToolResult>,
  allowed = false,
): Promise<CallToolResult> {
  const args = request.params.arguments ?? {};
  const digest = callDigest(request.params.name, args);
  const answer: PermissionAnswer | undefined = allowed ? { behavior: 'allow' } : await answerOf(ctx, digest, gateway);
  const capabilities = capabilitiesOf(ctx);
  let question: string | undefined;
  const canAsk = capabilities?.elicitation !== undefined;
  const work = async (signal: AbortSignal, asTask: () => AskThroughTask | undefined = () => undefined): Promise<Outcome> => {
    const ask: AskPermission = async ({ tool, input, decision }, askSignal) => {
      if (answer) return answer;
      const message = `Allow ${tool.name}? ${decision.reason}\nInput: ${preview(input)}`;
      // Once the call is a task, the question waits in it (input_required) for a tasks/update.
      const throughTask = asTask();
      if (throughTask) {
        const request = inputRequired.elicit({ message, requestedSchema: PERMISSION_SCHEMA });
        const replies = await throughTask({ permission: request }, `waiting for permission: Allow ${tool.name}?`, askSignal);
        return permissionFromResponses(replies, 'permission');
      }
      question = message;
      // Ends this run; the client is asked in the result and retries with the answer.
      throw new Error('asked the MCP client with input_required');
    };
    const result = await execute(canAsk ? ask : undefined, signal, asTask);
    return question === undefined ? { kind: 'result', result } : { kind: 'ask', message: question };
  };
  const settled = declaresTasks(capabilities)
    ? await gateway.runner.run(gateway.owner, ctx.mcpReq.signal, work, taskResult)
    : { kind: 'done' as const, value: await work(ctx.mcpReq.signal) };
  if (settled.kind === 'task') return settled.handle as CallToolResult;
  if (settled.value.kind === 'result') return settled.value.result;
  const nonce = randomUUID();
  const key = `permission-${nonce.slice(0, 8)}`;
  return inputRequired({
    inputRequests: { [key]: inputRequired.elicit({ message: settled.value.message, requestedSchema: PERMISSION_SCHEMA }) },
    requestState: await gateway.codec.mint({ n: nonce, d: digest, k: key }),
  }) as unknown as CallToolResult;
}

/** A question asked in the instant the call became a task ended its run: the client calls again. */
function taskResult(outcome: Outcome): Record<string, unknown> {
  if (outcome.kind === 'result') return outcome.result;
  return {
    content: [
      {
        type: 'text',
        text: `Not run: it needs permission (${outcome.message.split('\n')[0]}), asked just as the call became a task; call the tool again to be asked`,
      },
    ],
    isError: true,
  };
}

const TaskParams = z.object({ taskId: z.string().min(1, 'taskId must name a task') }).passthrough();

function requireTasks(ctx: ServerContext): void {
  if (!declaresTasks(capabilitiesOf(ctx)))
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      `Missing required client capability: declare "${TASKS_EXTENSION}" in clientCapabilities.extensions to use tasks`,
    );
}

/** tasks/get, tasks/update and tasks/cancel, answered from the shared store on any replica. */
export function registerTaskHandlers(server: Server, gateway: ModernGateway): void {
  const { runner } = gateway;
  const find = async (taskId: string) => {
    const record = await runner.store.getTask(taskId);
    // Another client's task reads as unknown: its existence is not revealed.
    if (!record || record.owner !== gateway.owner)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Failed to retrieve task: task ${JSON.stringify(taskId)} not found (unknown, expired, or made with another credential)`,
      );
    return record;
  };
  server.setRequestHandler('tasks/get', { params: TaskParams }, async (params, ctx) => {
    requireTasks(ctx);
    return runner.describe(await find(params.taskId));
  });
  server.setRequestHandler('tasks/update', { params: TaskParams }, async (params, ctx) => {
    requireTasks(ctx);
    const record = await find(params.taskId);
    // Only answers to questions waiting now count; the rest are ignored, as the extension asks.
    const waiting = record.status === 'input_required' ? (record.inputRequests ?? {}) : {};
    for (const [key, response] of Object.entries(ctx.mcpReq.inputResponses ?? {}))
      if (key in waiting) await runner.store.putInput(record.taskId, key, response, record.ttlMs);
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: TaskParams }, async (params, ctx) => {
    requireTasks(ctx);
    const record = await find(params.taskId);
    if (!isTerminal(record.status)) await runner.store.requestCancel(record.taskId, record.ttlMs);
    return {};
  });
}
