// wield's tool pool as an MCP server. Every call runs through the same pipeline as the agent's
// own calls (validation, hooks, permissions, budgets). Each connected client has its own state
// (gateway-session.ts). An `ask` becomes an elicitation sent on the stream of the call that
// caused it; a client without elicitation gets an immediate denial naming what would allow it.
import { randomUUID } from 'node:crypto';
import { Server, WebStandardStreamableHTTPServerTransport, type ServerContext } from '@modelcontextprotocol/server';
import { runToolCall } from '../pipeline/run.js';
import type { AskPermission, PermissionPolicy, RuntimeContext, ToolEvent } from '../pipeline/types.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { DeferralOptions } from '../search/defer.js';
import { TOOL_SEARCH_NAME } from '../search/result-text.js';
import type { AnyTool, ToolContext } from '../tool/types.js';
import type { McpCallOutput } from './adapt.js';
import { toCallToolResult, toMcpTool } from './gateway-content.js';
import { GatewayClientState } from './gateway-session.js';
import {
  modernToolCall,
  PERMISSION_SCHEMA,
  permissionFromElicitation,
  preview,
  registerTaskHandlers,
  type ModernGateway,
} from './gateway-modern.js';
import { TASKS_EXTENSION } from './gateway-tasks.js';
import { combinedInstructions, registerUpstreamHandlers, type GatewayUpstream } from './gateway-upstream.js';
import { messageOf } from '../util/message.js';

export { toCallToolResult, toMcpTool } from './gateway-content.js';

export interface GatewayOptions {
  registry: ToolRegistry;
  /** The session's runtime (policy, hooks, session); session and askPermission are per client. */
  rt: RuntimeContext;
  /** Deferred loading as for a model: core tools + ToolSearch when the pool is large; false lists all. */
  deferral?: DeferralOptions | false;
  serverInfo?: { name: string; version: string };
  /** The MCP servers behind the gateway: their resources, prompts, completions and logs. */
  upstream?: GatewayUpstream;
  /** Set for an instance serving one 2026-07-28 request: shared state, Tasks, the caller's identity. */
  modern?: ModernGateway;
}

/** Asks the client's user through elicitation, on the stream of the call that caused it. */
function elicitPermission(server: Server, ctx: ServerContext): AskPermission {
  return async ({ tool, input, decision }, signal) => {
    try {
      const answer = await server.elicitInput(
        { message: `Allow ${tool.name}? ${decision.reason}\nInput: ${preview(input)}`, requestedSchema: PERMISSION_SCHEMA },
        { signal, relatedRequestId: ctx.mcpReq.id },
      );
      return permissionFromElicitation(answer.action, answer.content);
    } catch (error) {
      // Not a refusal: the question never reached anyone. The pipeline reports a failed prompt.
      throw new Error(`the MCP client could not be asked: ${messageOf(error)}`);
    }
  };
}

/**
 * For clients that cannot be asked: an `ask` is refused at once (the pipeline's no-one-to-ask
 * path, no wait), its reason saying so and naming the rule and flag that would allow the call.
 */
export function withoutAsking(policy: PermissionPolicy): PermissionPolicy {
  return {
    async decide(request) {
      const decision = await policy.decide(request);
      if (decision.behavior !== 'ask') return decision;
      const rule = decision.suggestions?.[0] ?? request.tool.name;
      return {
        ...decision,
        reason:
          `${decision.reason}; this MCP client cannot answer permission questions (it declared no elicitation capability), ` +
          `so the call is refused; start the gateway with --allow "${rule}" to allow such calls`,
        suggestions: decision.suggestions?.length ? decision.suggestions : [rule],
      };
    },
  };
}

function canElicit(server: Server): boolean {
  const elicitation = server.getClientCapabilities()?.elicitation;
  // A bare `elicitation: {}` (2025-06-18) means form support.
  return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0);
}

type ProgressToken = string | number;

/**
 * Forwards a call's progress events as MCP progress notifications. `flushed()` resolves once
 * every notification sent so far is written: a client drops progress that arrives after the
 * call's result, so the result waits for them.
 */
function progressForwarder(ctx: ServerContext, toolUseId: string, token: ProgressToken | undefined, emit?: (event: ToolEvent) => void) {
  let step = 0;
  let sent: Promise<unknown> = Promise.resolve();
  const forward = (event: ToolEvent): void => {
    emit?.(event);
    if (token === undefined || event.type !== 'tool_progress' || event.toolUseId !== toolUseId) return;
    // MCP progress must increase; tools that report only messages get a running count.
    step = Math.max(step + 1, event.progress.progress ?? 0);
    const { total, message } = event.progress;
    const notification = ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: step,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      })
      .catch(() => undefined);
    sent = Promise.all([sent, notification]);
  };
  return { forward, flushed: () => sent };
}

/** Wraps a proxied tool so the call keeps the server's own answer (for pass-through). */
function capturing(tool: AnyTool | undefined, keep: (raw: McpCallOutput) => void): AnyTool | undefined {
  if (tool?.source !== 'mcp') return tool;
  return {
    ...tool,
    call: async (input: Record<string, unknown>, ctx: ToolContext) => {
      const output = (await tool.call(input, ctx)) as McpCallOutput;
      keep(output);
      return output;
    },
  } as AnyTool;
}

/** One MCP server instance (one per stdio connection or HTTP session). */
export function createGatewayServer(options: GatewayOptions): Server {
  const { registry, upstream, modern } = options;
  const client = new GatewayClientState(options.rt.session);
  const server = new Server(options.serverInfo ?? { name: 'wield', version: '0.1.0' }, {
    capabilities: {
      tools: { listChanged: true },
      ...(upstream
        ? { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {}, logging: {} }
        : {}),
      ...(modern ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
    },
    instructions: combinedInstructions(client.deferredSection(registry, options.deferral), upstream),
    // A retried call's requestState is checked (HMAC, expiry) before its handler runs.
    ...(modern ? { requestState: { verify: (state: string, ctx: ServerContext) => modern.codec.verify(state, ctx) } } : {}),
  });
  const visible = () => client.visibleTools(registry, options.deferral);

  // Sorted by name: the 2026-07-28 revision asks for a deterministic order (clients cache lists).
  server.setRequestHandler('tools/list', async () => ({
    tools: visible()
      .map((tool) => toMcpTool(tool, client.session.cwd, upstream?.toolDefinition(tool.name)))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const execute = async (askPermission: AskPermission | undefined, signal: AbortSignal) => {
      const toolUseId = `mcp_${randomUUID()}`;
      const progress = progressForwarder(ctx, toolUseId, request.params._meta?.progressToken, options.rt.emit);
      let raw: McpCallOutput | undefined;
      const rt: RuntimeContext = {
        ...options.rt,
        session: client.session,
        resolveTool: (name) => capturing(options.rt.resolveTool(name), (output) => (raw = output)),
        ...(askPermission ? { askPermission } : { askPermission: undefined, policy: withoutAsking(options.rt.policy) }),
        emit: progress.forward,
      };
      // Only a ToolSearch call can change this client's list: other calls skip the selection.
      const before = options.rt.resolveTool(request.params.name)?.name === TOOL_SEARCH_NAME ? visible() : undefined;
      const result = await runToolCall({ id: toolUseId, name: request.params.name, input: request.params.arguments ?? {} }, rt, signal);
      await progress.flushed();
      // Tools a ToolSearch found join this client's list; it hears so before the result arrives.
      if (before && client.noteResult(result, before)) await server.sendToolListChanged().catch(() => undefined);
      return toCallToolResult(result, raw);
    };
    if (modern) return modernToolCall(request, ctx, modern, execute);
    // A cancelled call gets no answer (MCP spec, cancellation): its stream closes at once.
    ctx.mcpReq.signal.addEventListener('abort', () => closeRequestStream(server, ctx.mcpReq.id), { once: true });
    return execute(canElicit(server) ? elicitPermission(server, ctx) : undefined, ctx.mcpReq.signal);
  });

  if (modern) registerTaskHandlers(server, modern);

  const stopUpstream = upstream ? registerUpstreamHandlers(server, upstream) : () => undefined;

  // The pool changes when MCP servers behind the gateway connect or change their tools.
  let timer: NodeJS.Timeout | undefined;
  const unsubscribe = registry.onChange(() => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (server.transport) void server.sendToolListChanged().catch(() => undefined);
    }, 50);
  });
  const previous = server.onclose;
  server.onclose = () => {
    clearTimeout(timer);
    unsubscribe();
    stopUpstream();
    previous?.();
  };
  return server;
}

function closeRequestStream(server: Server, requestId: string | number): void {
  const transport = server.transport;
  if (transport instanceof WebStandardStreamableHTTPServerTransport) transport.closeSSEStream(requestId);
}
