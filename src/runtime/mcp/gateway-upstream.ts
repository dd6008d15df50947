// The gateway's resources, prompts, completions and logging: those of the MCP servers behind it,
// passed through. Prompt names are namespaced like tools (`mcp__<server>__<prompt>`); resource
// URIs stay as the servers wrote them (tool results and other resources refer to them), and
// reads go to the server that listed the URI.
import type {
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  Server,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { UpstreamRound } from '../tool/types.js';
import { callDigest } from './gateway-modern.js';
import { GatewayNames } from './gateway-names.js';
import { asksInput, type RelayedInput } from './gateway-relay.js';

/** How a gateway carries a proxied server's questions to its client; absent, it does not. */
export interface PromptRelay {
  /** This request's round: the client's answers and the server's state, checked against `digest`. */
  round(ctx: ServerContext, digest: string): Promise<UpstreamRound>;
  /** The server's questions under the gateway's own signed state. */
  questions(raw: RelayedInput, digest: string): Promise<Record<string, unknown>>;
}

export interface UpstreamPrompt {
  prompt: Prompt;
  own: string;
}

export type UpstreamEvent =
  | { kind: 'resource-updated'; uri: string }
  | { kind: 'resources-changed' }
  | { kind: 'prompts-changed' }
  | { kind: 'log'; server: string; level: LoggingLevel; data: unknown };

export interface GatewayUpstream {
  /** The tool definition a server listed, for a name in the pool (untouched, see gateway-content.ts). */
  toolDefinition(exposedName: string): Record<string, unknown> | undefined;
  /** Each connected server's `instructions`, labelled with the server's name. */
  instructions(): string[];
  listResources(signal: AbortSignal): Promise<Resource[]>;
  listResourceTemplates(signal: AbortSignal): Promise<ResourceTemplateType[]>;
  readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  /** Each prompt under its pool name (`mcp__<server>__<name>`), with the server's own name. */
  listPrompts(signal: AbortSignal): Promise<UpstreamPrompt[]>;
  /** With `round`, a 2026-07-28 server's questions come back as its answer (gateway-relay.ts). */
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    signal: AbortSignal,
    round?: UpstreamRound,
  ): Promise<GetPromptResult | RelayedInput>;
  complete(params: CompleteRequestParams, signal: AbortSignal): Promise<CompleteResult>;
  onEvent(listener: (event: UpstreamEvent) => void): () => void;
}

const WIELD_INSTRUCTIONS =
  'wield: every call runs through wield’s permission rules; a call that needs approval is asked through elicitation, ' +
  'or refused at once with the rule that would allow it when this client cannot be asked.';

/** `instructions` for initialize: wield's, the deferred-tools section, then each server's. */
export function combinedInstructions(deferredSection: string, upstream: GatewayUpstream | undefined): string {
  const parts = [WIELD_INSTRUCTIONS];
  if (deferredSection) {
    parts.push(
      `${deferredSection}\nA tool ToolSearch finds joins this session's tools/list (announced with notifications/tools/list_changed); ` +
        'a client that ignores list_changed can call any tool by its exact name.',
    );
  }
  parts.push(...(upstream?.instructions() ?? []));
  return parts.join('\n\n');
}

const SEVERITY: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The log level a 2025-era session's client set with logging/setLevel; none set, it hears every level. */
export class LogLevel {
  private current: LoggingLevel | undefined;

  set(level: LoggingLevel): void {
    this.current = level;
  }

  level(): LoggingLevel | undefined {
    return this.current;
  }

  wants(level: LoggingLevel): boolean {
    return this.current === undefined || SEVERITY.indexOf(level) >= SEVERITY.indexOf(this.current);
  }
}

/** Registers the pass-through handlers on one gateway server; returns the unsubscribe. */
export function registerUpstreamHandlers(
  server: Server,
  upstream: GatewayUpstream,
  options: { logging: LogLevel; upstreamNames?: boolean; relay?: PromptRelay },
): () => void {
  const { logging, upstreamNames = false, relay } = options;
  const subscribed = new Set<string>();
  // Kept here (not only in the SDK) so proxied calls can ask their servers for the same level.
  server.setRequestHandler('logging/setLevel', async (request) => {
    logging.set(request.params.level);
    return {};
  });
  server.setRequestHandler('resources/list', async (_request, ctx) => ({ resources: await upstream.listResources(ctx.mcpReq.signal) }));
  server.setRequestHandler('resources/templates/list', async (_request, ctx) => ({
    resourceTemplates: await upstream.listResourceTemplates(ctx.mcpReq.signal),
  }));
  server.setRequestHandler('resources/read', async (request, ctx) => upstream.readResource(request.params.uri, ctx.mcpReq.signal));
  server.setRequestHandler('resources/subscribe', async (request) => {
    if (!subscribed.has(request.params.uri)) {
      subscribed.add(request.params.uri);
      await upstream.subscribe(request.params.uri);
    }
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    if (subscribed.delete(request.params.uri)) await upstream.unsubscribe(request.params.uri);
    return {};
  });
  const promptNames = async (signal: AbortSignal) => {
    const listed = await upstream.listPrompts(signal);
    return {
      listed,
      names: new GatewayNames(
        listed.map(({ prompt, own }) => ({ pool: prompt.name, own })),
        upstreamNames,
      ),
    };
  };
  /** A client's prompt name → the pool's (they differ only with upstreamNames). */
  const poolPrompt = async (name: string, signal: AbortSignal) => (upstreamNames ? (await promptNames(signal)).names.poolName(name) : name);
  server.setRequestHandler('prompts/list', async (_request, ctx) => {
    const { listed, names } = await promptNames(ctx.mcpReq.signal);
    return { prompts: listed.map(({ prompt }) => ({ ...prompt, name: names.shownName(prompt.name) })) };
  });
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const name = await poolPrompt(request.params.name, ctx.mcpReq.signal);
    const digest = `prompt:${callDigest(name, request.params.arguments ?? {})}`;
    const round = relay ? await relay.round(ctx, digest) : undefined;
    const result = await upstream.getPrompt(name, request.params.arguments, ctx.mcpReq.signal, round);
    if (relay && asksInput(result)) return (await relay.questions(result, digest)) as unknown as GetPromptResult;
    return result as GetPromptResult;
  });
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const { ref } = request.params;
    const params =
      ref.type === 'ref/prompt'
        ? { ...request.params, ref: { ...ref, name: await poolPrompt(ref.name, ctx.mcpReq.signal) } }
        : request.params;
    return upstream.complete(params, ctx.mcpReq.signal);
  });

  const notify = (send: () => Promise<void>) => {
    if (server.transport) void send().catch(() => undefined);
  };
  const stop = upstream.onEvent((event) => {
    if (event.kind === 'resource-updated' && subscribed.has(event.uri)) notify(() => server.sendResourceUpdated({ uri: event.uri }));
    else if (event.kind === 'resources-changed') notify(() => server.sendResourceListChanged());
    else if (event.kind === 'prompts-changed') notify(() => server.sendPromptListChanged());
    else if (event.kind === 'log' && logging.wants(event.level))
      notify(() => server.sendLoggingMessage({ level: event.level, logger: event.server, data: event.data }));
  });
  return () => {
    stop();
    for (const uri of subscribed) void upstream.unsubscribe(uri).catch(() => undefined);
    subscribed.clear();
  };
}
