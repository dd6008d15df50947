// The configured MCP servers as the gateway's upstream (gateway-upstream.ts): resources, prompts
// and completions gathered from every connected server and routed back to the one that owns them.
import {
  type Client,
  ProtocolError,
  ProtocolErrorCode,
  UriTemplate,
  type CompleteRequestParams,
  type CompleteResult,
  type GetPromptResult,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType,
} from '@modelcontextprotocol/client';
import type { McpConnection } from './connection.js';
import { relayedRequest } from './upstream-round.js';
import type { UpstreamRound } from '../tool/types.js';
import type { GatewayUpstream, UpstreamEvent, UpstreamPrompt } from './gateway-upstream.js';
import type { RelayedInput } from './gateway-relay.js';
import { mcpToolName } from './names.js';
import { allPages } from './pages.js';

interface Live {
  connection: McpConnection;
  client: Client;
}

export interface UpstreamSource {
  connections(): McpConnection[];
  toolDefinition(exposedName: string): Record<string, unknown> | undefined;
  onEvent(listener: (event: UpstreamEvent) => void): () => void;
}

export class ServersUpstream implements GatewayUpstream {
  /** uri → server, from the last listing; templates are matched when a URI was never listed. */
  private readonly resourceOwner = new Map<string, string>();
  private readonly templates: { server: string; template: UriTemplate; raw: string }[] = [];
  private readonly subscriptions = new Map<string, number>();

  constructor(private readonly source: UpstreamSource) {}

  toolDefinition(exposedName: string): Record<string, unknown> | undefined {
    return this.source.toolDefinition(exposedName);
  }

  onEvent(listener: (event: UpstreamEvent) => void): () => void {
    return this.source.onEvent(listener);
  }

  instructions(): string[] {
    return this.live().flatMap(({ connection, client }) => {
      const text = client.getInstructions();
      return text ? [`MCP server "${connection.name}": ${text}`] : [];
    });
  }

  private live(capability?: 'resources' | 'prompts' | 'completions'): Live[] {
    return this.source.connections().flatMap((connection) => {
      const client = connection.connected;
      if (!client || (capability && !client.getServerCapabilities()?.[capability])) return [];
      return [{ connection, client }];
    });
  }

  async listResources(signal: AbortSignal): Promise<Resource[]> {
    const lists = await Promise.all(
      this.live('resources').map(async ({ connection, client }) => {
        const resources = await allPages(async (cursor) => {
          const page = await client.listResources(cursor ? { cursor } : {}, { signal });
          return { items: page.resources, nextCursor: page.nextCursor };
        });
        for (const resource of resources) this.resourceOwner.set(resource.uri, connection.name);
        return resources;
      }),
    );
    return lists.flat();
  }

  async listResourceTemplates(signal: AbortSignal): Promise<ResourceTemplateType[]> {
    const lists = await Promise.all(
      this.live('resources').map(async ({ connection, client }) => {
        const templates = await allPages(async (cursor) => {
          const page = await client.listResourceTemplates(cursor ? { cursor } : {}, { signal });
          return { items: page.resourceTemplates, nextCursor: page.nextCursor };
        });
        this.remember(connection.name, templates);
        return templates;
      }),
    );
    return lists.flat();
  }

  private remember(server: string, templates: ResourceTemplateType[]): void {
    for (let i = this.templates.length - 1; i >= 0; i--) if (this.templates[i].server === server) this.templates.splice(i, 1);
    for (const t of templates) this.templates.push({ server, template: new UriTemplate(t.uriTemplate), raw: t.uriTemplate });
  }

  /** The server that owns a URI: listed it, or has a template matching it; else every candidate. */
  private async ownersOf(uri: string): Promise<Live[]> {
    const live = this.live('resources');
    if (!this.resourceOwner.has(uri) && this.templates.length === 0) {
      await this.listResourceTemplates(AbortSignal.timeout(10_000)).catch(() => undefined);
    }
    const owner = this.resourceOwner.get(uri) ?? this.templates.find((t) => t.template.match(uri) !== null)?.server;
    const found = live.filter(({ connection }) => connection.name === owner);
    return found.length > 0 ? found : live;
  }

  async readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    let lastError: unknown;
    for (const { client } of await this.ownersOf(uri)) {
      try {
        return await client.readResource({ uri }, { signal });
      } catch (error) {
        lastError = error;
      }
    }
    if (lastError instanceof ProtocolError) throw lastError;
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri} (no connected MCP server has it)`);
  }

  async subscribe(uri: string): Promise<void> {
    const count = this.subscriptions.get(uri) ?? 0;
    this.subscriptions.set(uri, count + 1);
    if (count > 0) return;
    const owners = (await this.ownersOf(uri)).filter(({ client }) => client.getServerCapabilities()?.resources?.subscribe);
    await Promise.allSettled(owners.map(({ client }) => client.subscribeResource({ uri })));
  }

  async unsubscribe(uri: string): Promise<void> {
    const count = (this.subscriptions.get(uri) ?? 0) - 1;
    if (count > 0) {
      this.subscriptions.set(uri, count);
      return;
    }
    this.subscriptions.delete(uri);
    const owners = (await this.ownersOf(uri)).filter(({ client }) => client.getServerCapabilities()?.resources?.subscribe);
    await Promise.allSettled(owners.map(({ client }) => client.unsubscribeResource({ uri })));
  }

  async listPrompts(signal: AbortSignal): Promise<UpstreamPrompt[]> {
    const lists = await Promise.all(
      this.live('prompts').map(async ({ connection, client }) => {
        const prompts = await allPages(async (cursor) => {
          const page = await client.listPrompts(cursor ? { cursor } : {}, { signal });
          return { items: page.prompts, nextCursor: page.nextCursor };
        });
        return prompts.map((prompt) => ({ prompt: { ...prompt, name: mcpToolName(connection.name, prompt.name) }, own: prompt.name }));
      }),
    );
    return lists.flat();
  }

  /** A namespaced prompt name → its server and the server's own name for it. */
  private async promptOwner(name: string, signal: AbortSignal): Promise<{ client: Client; original: string }> {
    for (const { connection, client } of this.live('prompts')) {
      const page = await client.listPrompts({}, { signal });
      const prompt = page.prompts.find((p) => mcpToolName(connection.name, p.name) === name);
      if (prompt) return { client, original: prompt.name };
    }
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}; prompts/list names the available ones`);
  }

  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    signal: AbortSignal,
    round?: UpstreamRound,
  ): Promise<GetPromptResult | RelayedInput> {
    const { client, original } = await this.promptOwner(name, signal);
    // A relayed round (gateway-relay.ts): the server's questions come back for the gateway's client.
    const relay = relayedRequest(client.getProtocolEra() === 'modern' ? round : undefined);
    return client.getPrompt({ name: original, ...(args ? { arguments: args } : {}), ...relay.params }, { signal, ...relay.options });
  }

  async complete(params: CompleteRequestParams, signal: AbortSignal): Promise<CompleteResult> {
    const none: CompleteResult = { completion: { values: [], hasMore: false } };
    if (params.ref.type === 'ref/prompt') {
      const { client, original } = await this.promptOwner(params.ref.name, signal);
      if (!client.getServerCapabilities()?.completions) return none;
      return client.complete({ ...params, ref: { ...params.ref, name: original } }, { signal });
    }
    const uri = params.ref.uri;
    if (this.templates.length === 0) await this.listResourceTemplates(signal).catch(() => undefined);
    const owner = this.templates.find((t) => t.raw === uri)?.server;
    const live = this.live('completions').find(({ connection }) => connection.name === owner);
    return live ? live.client.complete(params, { signal }) : none;
  }
}
