// wield's tool pool as an MCP server. Every call runs through the same pipeline as the agent's
// own calls (validation, hooks, permissions, budgets). Each connected client has its own state
// (gateway-session.ts). An `ask` becomes an elicitation sent on the stream of the call that
// caused it; a client without elicitation gets an immediate denial naming what would allow it.
import { randomUUID } from 'node:crypto';
import {
  type CallToolResult,
  type RequestStateCodec,
  Server,
  WebStandardStreamableHTTPServerTransport,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { runToolCall } from '../pipeline/run.js';
import type { AskPermission, PermissionPolicy, RuntimeContext, ToolEvent } from '../pipeline/types.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { DeferralOptions } from '../search/defer.js';
import { TOOL_SEARCH_NAME } from '../search/result-text.js';
import type { AnyTool, ToolContext, UpstreamRound } from '../tool/types.js';
import type { McpCallOutput } from './adapt.js';
import { isMissingCapability } from './call-errors.js';
import { nextProgress, toCallToolResult, toMcpTool } from './gateway-content.js';
import { GatewayNames } from './gateway-names.js';
import { GatewayClientState } from './gateway-session.js';
import {
  callDigest,
  capabilitiesOf,
  modernToolCall,
  REQUEST_STATE_TTL_MS,
  PERMISSION_SCHEMA,
  permissionFromElicitation,
  preview,
  registerTaskHandlers,
  type ModernGateway,
} from './gateway-modern.js';
import {
  asksInput,
  logLevelOf,
  missingCapability,
  type GatewayState,
  nextRound,
  relayedQuestions,
  relayStateOf,
  upstreamRound,
} from './gateway-relay.js';
import { type AskThroughTask, TASKS_EXTENSION } from './gateway-tasks.js';
import { combinedInstructions, type GatewayUpstream, LogLevel, type PromptRelay, registerUpstreamHandlers } from './gateway-upstream.js';
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
  /** Proxied tools and prompts keep their servers' own names where unambiguous (gateway-names.ts). */
  upstreamNames?: boolean;
  /** Set for an instance serving one 2026-07-28 request: shared state, Tasks, the caller's identity. */
  modern?: ModernGateway;
  /**
   * Signs the requestState of a 2025-era client's session (a 2026-07-28 instance uses its
   * `modern.codec`). With one, a proxied 2026-07-28 server's questions reach the client
   * (gateway-relay.ts); without, wield answers them as it does for its own calls.
   */
  codec?: RequestStateCodec<GatewayState>;
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
  let step: number | undefined;
  let sent: Promise<unknown> = Promise.resolve();
  const forward = (event: ToolEvent): void => {
    emit?.(event);
    if (token === undefined || event.type !== 'tool_progress' || event.toolUseId !== toolUseId) return;
    step = nextProgress(step, event.progress.progress);
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

/** The answer for a relayed retry whose call was allowed after asking in an earlier round. */
const allowAgain: AskPermission = async () => ({ behavior: 'allow' });

/**
 * Wraps a proxied tool so the call keeps the server's own answer (for pass-through) and, when the
 * gateway relays questions, carries this round's answers to the server.
 */
function capturing(
  tool: AnyTool | undefined,
  keep: (raw: McpCallOutput) => void,
  round: UpstreamRound | undefined,
  keepError: (error: Error & { data?: unknown }) => void,
): AnyTool | undefined {
  if (tool?.source !== 'mcp') return tool;
  return {
    ...tool,
    call: async (input: Record<string, unknown>, ctx: ToolContext) => {
      const output = (await tool.call(input, round ? { ...ctx, upstreamRound: round } : ctx).catch((error: unknown) => {
        if (isMissingCapability(error)) keepError(error);
        throw error;
      })) as McpCallOutput;
      keep(output);
      return output;
    },
  } as AnyTool;
}

/** The names the gateway's clients see for the pool's tools (gateway-names.ts). */
function gatewayToolNames({ registry, upstream, upstreamNames }: GatewayOptions): GatewayNames {
  return new GatewayNames(
    registry.pool().map((tool) => {
      const own = upstream?.toolDefinition(tool.name)?.name;
      return { pool: tool.name, ...(typeof own === 'string' ? { own } : {}) };
    }),
    upstreamNames === true,
  );
}

/** The input schema a proxied server listed for a tool, by the name a client calls it (for SEP-2243 headers). */
export function proxiedInputSchema(options: GatewayOptions, name: string): unknown {
  return options.upstream?.toolDefinition(gatewayToolNames(options).poolName(name))?.inputSchema;
}

/** One MCP server instance (one per stdio connection or HTTP session). */
export function createGatewayServer(options: GatewayOptions): Server {
  const { registry, upstream, modern } = options;
  const codec = modern?.codec ?? options.codec;
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
    ...(codec ? { requestState: { verify: (state: string, ctx: ServerContext) => codec.verify(state, ctx) } } : {}),
  });
  const visible = () => client.visibleTools(registry, options.deferral);
  // The log level this session's client set (2025-era); a 2026-07-28 request carries its own.
  const logging = new LogLevel();
  const toolNames = () => gatewayToolNames(options);

  // Sorted by name: the 2026-07-28 revision asks for a deterministic order (clients cache lists).
  server.setRequestHandler('tools/list', async () => {
    const names = toolNames();
    return {
      tools: visible()
        .map((tool) => ({ ...toMcpTool(tool, client.session.cwd, upstream?.toolDefinition(tool.name)), name: names.shownName(tool.name) }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    };
  });

  /** This request's round of a proxied server's questions: the client's answers and the server's state. */
  // The SDK has already dropped answers that are not answers (ctx.mcpReq.droppedInputResponseKeys).
  const relayRound = async (ctx: ServerContext, digest: string) => {
    const responses = ctx.mcpReq.inputResponses;
    const claim = modern ? (key: string) => modern.runner.store.claimOnce(key, REQUEST_STATE_TTL_MS) : undefined;
    const relayed = await relayStateOf(ctx, digest, claim);
    const capabilities = modern ? capabilitiesOf(ctx) : server.getClientCapabilities();
    return { round: upstreamRound(responses, relayed, capabilities, modern ? logLevelOf(ctx) : logging.level()), relayed };
  };

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const name = options.upstreamNames ? toolNames().poolName(request.params.name) : request.params.name;
    const digest = callDigest(name, request.params.arguments ?? {});
    // Only a gateway that can sign its requestState relays a proxied server's questions.
    const { round, relayed } = codec ? await relayRound(ctx, digest) : { round: undefined, relayed: undefined };
    /** One run through the pipeline, carrying `current` (this round's answers) to a proxied server. */
    const runOnce = async (askPermission: AskPermission | undefined, signal: AbortSignal, current: UpstreamRound | undefined) => {
      const toolUseId = `mcp_${randomUUID()}`;
      const progress = progressForwarder(ctx, toolUseId, request.params._meta?.progressToken, options.rt.emit);
      let raw: McpCallOutput | undefined;
      let missing: (Error & { data?: unknown }) | undefined;
      // Whether this run asked and was allowed: a relayed retry is then not asked again.
      let allowedAfterAsking = false;
      const asking: AskPermission | undefined =
        askPermission &&
        (async (question, askSignal) => {
          const answer = await askPermission(question, askSignal);
          allowedAfterAsking = answer.behavior === 'allow';
          return answer;
        });
      const rt: RuntimeContext = {
        ...options.rt,
        session: client.session,
        resolveTool: (name) =>
          capturing(
            options.rt.resolveTool(name),
            (output) => (raw = output),
            current,
            (error) => (missing = error),
          ),
        ...(asking ? { askPermission: asking } : { askPermission: undefined, policy: withoutAsking(options.rt.policy) }),
        emit: progress.forward,
      };
      const result = await runToolCall({ id: toolUseId, name, input: request.params.arguments ?? {} }, rt, signal);
      await progress.flushed();
      if (missing) throw missingCapability(missing);
      return { result, raw: raw as McpCallOutput | undefined, allowed: allowedAfterAsking || relayed?.a === true };
    };
    const execute = async (
      askPermission: AskPermission | undefined,
      signal: AbortSignal,
      asTask: () => AskThroughTask | undefined = () => undefined,
    ) => {
      // Only a ToolSearch call can change this client's list: other calls skip the selection.
      const before = options.rt.resolveTool(name)?.name === TOOL_SEARCH_NAME ? visible() : undefined;
      let current = round;
      let ask = askPermission;
      for (;;) {
        const { result, raw, allowed } = await runOnce(ask, signal, current);
        if (!codec || !asksInput(raw) || !current) {
          // Tools a ToolSearch found join this client's list; it hears so before the result arrives.
          if (before && client.noteResult(result, before)) await server.sendToolListChanged().catch(() => undefined);
          return toCallToolResult(result, raw);
        }
        const throughTask = asTask();
        if (!throughTask) return (await relayedQuestions(raw, codec, digest, allowed)) as CallToolResult;
        // Once the call is a task, the server's questions wait in it for the client's tasks/update.
        const answers = await throughTask(raw.inputRequests ?? {}, "waiting for the client's answers to the server's questions", signal);
        current = { ...nextRound(current, raw), inputResponses: answers };
        if (allowed) ask = allowAgain;
      }
    };
    if (modern) return modernToolCall({ ...request, params: { ...request.params, name } }, ctx, modern, execute, relayed?.a === true);
    // A cancelled call gets no answer (MCP spec, cancellation): its stream closes at once.
    ctx.mcpReq.signal.addEventListener('abort', () => closeRequestStream(server, ctx.mcpReq.id), { once: true });
    const ask = relayed?.a ? allowAgain : canElicit(server) ? elicitPermission(server, ctx) : undefined;
    return execute(ask, ctx.mcpReq.signal);
  });

  if (modern) registerTaskHandlers(server, modern);

  const relay: PromptRelay | undefined = codec && {
    round: async (ctx, digest) => (await relayRound(ctx, digest)).round,
    questions: (raw, digest) => relayedQuestions(raw, codec, digest, false),
  };
  const stopUpstream = upstream
    ? registerUpstreamHandlers(server, upstream, { logging, upstreamNames: options.upstreamNames, relay })
    : () => undefined;

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
