// wield's tool pool as an MCP server. Every call runs through the same pipeline as the agent's
// own calls (validation, hooks, permissions, budgets); an `ask` decision becomes an MCP
// elicitation when the client supports it, and a denial with the reason otherwise.
import { randomUUID } from 'node:crypto';
import { Server, type CallToolResult, type ServerContext, type Tool as McpTool } from '@modelcontextprotocol/server';
import { runToolCall } from '../pipeline/run.js';
import type { AskPermission, RuntimeContext, ToolEvent } from '../pipeline/types.js';
import type { ToolRegistry } from '../registry/registry.js';
import { selectToolsForRequest, type DeferralOptions } from '../search/defer.js';
import type { AnyTool, ToolCallResult } from '../tool/types.js';

export interface GatewayOptions {
  registry: ToolRegistry;
  /** The session's runtime (policy, hooks, session); askPermission is replaced per connection. */
  rt: RuntimeContext;
  /** Deferred loading as for a model: core tools + ToolSearch when the pool is large; false lists all. */
  deferral?: DeferralOptions | false;
  serverInfo?: { name: string; version: string };
}

/** A flag evaluated for "any input"; a tool whose flag throws on `{}` gets the cautious answer. */
function flag(check: (input: Record<string, unknown>) => boolean, fallback: boolean): boolean {
  try {
    return check({});
  } catch {
    return fallback;
  }
}

export function toMcpTool(tool: AnyTool, cwd: string): McpTool {
  const readOnly = flag(tool.isReadOnly, false);
  const schema = tool.inputJSONSchema;
  return {
    name: tool.name,
    description: tool.description({ cwd }),
    // MCP requires an object schema at the top (ToolSchema.inputSchema.type === "object").
    inputSchema: { ...schema, type: 'object' },
    annotations: {
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && flag(tool.isDestructive, true),
      openWorldHint: tool.source === 'mcp' || tool.name === 'WebFetch',
    },
  };
}

/** The pipeline's result → tools/call result (text and image blocks, error flag kept). */
export function toCallToolResult(result: ToolCallResult): CallToolResult {
  const content = result.content.map((block) =>
    block.type === 'text'
      ? { type: 'text' as const, text: block.text }
      : { type: 'image' as const, data: block.data, mimeType: block.mediaType },
  );
  const structured = result.structured;
  const isObject = typeof structured === 'object' && structured !== null && !Array.isArray(structured);
  return { content, isError: result.isError, ...(isObject ? { structuredContent: structured as Record<string, unknown> } : {}) };
}

export function visibleTools(options: GatewayOptions): AnyTool[] {
  const pool = options.registry.pool();
  if (options.deferral === false) return pool;
  return selectToolsForRequest(pool, [], { cwd: options.rt.session.cwd, ...options.deferral }).tools;
}

const PERMISSION_SCHEMA = {
  type: 'object' as const,
  properties: { allow: { type: 'boolean' as const, title: 'Allow this call', default: false } },
  required: ['allow'],
};

function preview(input: Record<string, unknown>): string {
  const text = JSON.stringify(input);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** Asks the connected client's user through elicitation (MCP spec, client/elicitation). */
function elicitPermission(ctx: ServerContext): AskPermission {
  return async ({ tool, input, decision }, signal) => {
    try {
      const answer = await ctx.mcpReq.elicitInput(
        { message: `Allow ${tool.name}? ${decision.reason}\nInput: ${preview(input)}`, requestedSchema: PERMISSION_SCHEMA },
        { signal },
      );
      if (answer.action === 'accept' && answer.content?.allow === true) return { allow: true };
      // The pipeline words it ("the user declined: …"); this says how, without a closing period.
      return {
        allow: false,
        message:
          answer.action === 'accept'
            ? 'left "allow" unticked in the MCP client'
            : `${answer.action === 'decline' ? 'declined' : 'dismissed'} the request in the MCP client`,
      };
    } catch (error) {
      // Not a refusal: the question never reached anyone. The pipeline reports a failed prompt.
      throw new Error(`the MCP client could not be asked: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
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

/** One MCP server instance (one per stdio connection or HTTP session). */
export function createGatewayServer(options: GatewayOptions): Server {
  const server = new Server(options.serverInfo ?? { name: 'wield', version: '0.1.0' }, { capabilities: { tools: { listChanged: true } } });

  server.setRequestHandler('tools/list', async () => ({
    tools: visibleTools(options).map((tool) => toMcpTool(tool, options.rt.session.cwd)),
  }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const toolUseId = `mcp_${randomUUID()}`;
    const token = request.params._meta?.progressToken;
    const canElicit = server.getClientCapabilities()?.elicitation !== undefined;
    const progress = progressForwarder(ctx, toolUseId, token, options.rt.emit);
    const rt: RuntimeContext = {
      ...options.rt,
      askPermission: canElicit ? elicitPermission(ctx) : undefined,
      emit: progress.forward,
    };
    const result = await runToolCall(
      { id: toolUseId, name: request.params.name, input: request.params.arguments ?? {} },
      rt,
      ctx.mcpReq.signal,
    );
    await progress.flushed();
    return toCallToolResult(result);
  });

  // The pool changes when MCP servers behind the gateway connect or change their tools.
  let timer: NodeJS.Timeout | undefined;
  const unsubscribe = options.registry.onChange(() => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (server.transport) void server.sendToolListChanged().catch(() => undefined);
    }, 50);
  });
  const previous = server.onclose;
  server.onclose = () => {
    clearTimeout(timer);
    unsubscribe();
    previous?.();
  };
  return server;
}
