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
} from '@modelcontextprotocol/server';

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
  listPrompts(signal: AbortSignal): Promise<Prompt[]>;
  getPrompt(name: string, args: Record<string, string> | undefined, signal: AbortSignal): Promise<GetPromptResult>;
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

/** Registers the pass-through handlers on one gateway server; returns the unsubscribe. */
export function registerUpstreamHandlers(server: Server, upstream: GatewayUpstream): () => void {
  const subscribed = new Set<string>();
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
  server.setRequestHandler('prompts/list', async (_request, ctx) => ({ prompts: await upstream.listPrompts(ctx.mcpReq.signal) }));
  server.setRequestHandler('prompts/get', async (request, ctx) =>
    upstream.getPrompt(request.params.name, request.params.arguments, ctx.mcpReq.signal),
  );
  server.setRequestHandler('completion/complete', async (request, ctx) => upstream.complete(request.params, ctx.mcpReq.signal));

  const notify = (send: () => Promise<void>) => {
    if (server.transport) void send().catch(() => undefined);
  };
  const stop = upstream.onEvent((event) => {
    if (event.kind === 'resource-updated' && subscribed.has(event.uri)) notify(() => server.sendResourceUpdated({ uri: event.uri }));
    else if (event.kind === 'resources-changed') notify(() => server.sendResourceListChanged());
    else if (event.kind === 'prompts-changed') notify(() => server.sendPromptListChanged());
    else if (event.kind === 'log') notify(() => server.sendLoggingMessage({ level: event.level, logger: event.server, data: event.data }));
  });
  return () => {
    stop();
    for (const uri of subscribed) void upstream.unsubscribe(uri).catch(() => undefined);
    subscribed.clear();
  };
}
