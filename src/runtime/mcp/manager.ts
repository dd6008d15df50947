// All configured MCP servers: started in the background, their tools registered as they
// arrive and kept in step with tools/list_changed.
import type { Client } from '@modelcontextprotocol/client';
import type { ToolRegistry } from '../registry/registry.js';
import type { AnyTool } from '../tool/types.js';
import { adaptMcpTool } from './adapt.js';
import type { ClientFeatures } from './client-features.js';
import type { McpServerConfig } from './config.js';
import { McpConnection } from './connection.js';
import type { McpServerStatus } from './server-status.js';
import { assignToolNames, mcpServerPrefix } from './names.js';
import type { UpstreamEvent } from './gateway-upstream.js';
import type { McpToolInfo } from './tools.js';
import { ServersUpstream } from './upstream.js';
import { McpTaskJobs } from './task-jobs.js';

export interface ConnectAllOptions {
  registry: ToolRegistry;
  /** Folder for the servers' stderr logs (one file per server). */
  logDir?: string;
  /** Called after a server's tools were added, changed or removed. */
  onChange?: (server: string) => void;
}

export interface McpManagerOptions {
  clientInfo?: { name: string; version: string };
  /** Elicitation and roots offered to every server. */
  features?: ClientFeatures;
  /** Folder for OAuth tokens (one file per server, mode 0600); without it OAuth is off. */
  authDir?: string;
  /** Things the person must do now (open an authorization page). */
  notify?: (message: string) => void;
}

/**
 * How long a ToolSearch waits for servers still connecting. Servers that connect at all are
 * usually up in well under a second (the 2,008-tool server of the bench: ~0.3 s from spawn); a
 * hung one would otherwise hold the model's turn for its whole connect timeout (30 s by default).
 */
export const SEARCH_WAIT_MS = 10_000;

export class McpManager {
  private readonly connections = new Map<string, McpConnection>();
  /** server → exposed name → signature of the registered definition (to skip unchanged ones). */
  private readonly registered = new Map<string, Map<string, string>>();
  private readonly firstAttempts: Promise<void>[] = [];
  private readonly clientInfo: { name: string; version: string };
  /** exposed name → the definition its server listed (for the gateway's tools/list). */
  private readonly definitions = new Map<string, Record<string, unknown>>();
  private readonly listeners = new Set<(event: UpstreamEvent) => void>();
  /** Calls servers run as tasks (McpTaskResult, McpTaskCancel read them). */
  readonly jobs: McpTaskJobs;

  constructor(private readonly options: McpManagerOptions = {}) {
    this.clientInfo = options.clientInfo ?? { name: 'wield', version: '0.1.0' };
    this.jobs = new McpTaskJobs({ notify: options.notify });
  }

  /** Starts every server without waiting for any; tools register as each server answers. */
  connectAll(configs: Record<string, McpServerConfig>, options: ConnectAllOptions): void {
    for (const [name, config] of Object.entries(configs)) {
      if (this.connections.has(name)) continue;
      const connection = new McpConnection(name, config, {
        logDir: options.logDir,
        clientInfo: this.clientInfo,
        features: this.options.features,
        authDir: this.options.authDir,
        notify: this.options.notify,
        jobs: this.jobs,
        onTools: (tools) => this.sync(connection, tools, options),
        onEvent: (event) => {
          for (const listener of this.listeners) listener(event);
        },
      });
      this.connections.set(name, connection);
      this.firstAttempts.push(connection.start());
    }
  }

  /**
   * Resolves when every server's first connection attempt has settled or run for the server's
   * connect timeout (for one-shot commands); a slower server goes on connecting and its tools
   * join when it is up.
   */
  async ready(): Promise<void> {
    await Promise.all(this.firstAttempts);
  }

  list(): McpServerStatus[] {
    return [...this.connections.values()].map((connection) => connection.status());
  }

  /**
   * For a tool name the registry does not know yet: when it belongs to a server that is still
   * connecting, waits (up to that server's connect timeout) and looks again.
   */
  async waitForTool(name: string, registry: ToolRegistry, signal?: AbortSignal): Promise<AnyTool | undefined> {
    const known = registry.get(name);
    if (known) return known;
    const connection = [...this.connections.values()].find((candidate) => name.startsWith(mcpServerPrefix(candidate.name)));
    if (connection?.status().state !== 'connecting') return undefined;
    const timeout = AbortSignal.timeout(connection.connectTimeout);
    const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
    await Promise.race([
      connection.start(),
      new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true })),
    ]);
    return registry.get(name);
  }

  /** The client of a connected server (for resources and prompts, see resources.ts). */
  liveClient(server: string): Client | undefined {
    return this.connections.get(server)?.connected;
  }

  /** Servers whose connection is being set up (first start, a restart, or waiting for OAuth). */
  connecting(): string[] {
    return [...this.connections.values()].filter((c) => c.status().state === 'connecting').map((c) => c.name);
  }

  /**
   * Waits for the servers still connecting, at most `maxMs` (and no longer than their connect
   * timeouts); returns the names of those still connecting when it stops (for ToolSearch, which
   * would otherwise answer "no tools matched" for tools that are about to arrive).
   */
  async settleConnecting(signal?: AbortSignal, maxMs = SEARCH_WAIT_MS): Promise<string[]> {
    const pending = [...this.connections.values()].filter((c) => c.status().state === 'connecting');
    if (pending.length === 0) return [];
    const limit = Math.min(maxMs, Math.max(...pending.map((c) => c.connectTimeout)));
    // Timers held here and cleared (an AbortSignal.timeout inside AbortSignal.any can be lost to GC).
    let timer: NodeJS.Timeout | undefined;
    let onAbort = (): void => undefined;
    const stop = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limit);
      onAbort = resolve;
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([Promise.all(pending.map((c) => c.start())), stop]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    return this.connecting();
  }

  /** The servers' resources, prompts, completions and logs, for the gateway. */
  upstream(): ServersUpstream {
    return new ServersUpstream({
      connections: () => [...this.connections.values()],
      toolDefinition: (name) => this.definitions.get(name),
      onEvent: (listener) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
    });
  }

  /**
   * Why a tool name of a configured server is missing (failed, or authorization failed), for
   * the lookup's error; undefined for names that are no server's.
   */
  explainMissing(name: string): string | undefined {
    const connection = [...this.connections.values()].find((candidate) => name.startsWith(mcpServerPrefix(candidate.name)));
    if (!connection) return undefined;
    const status = connection.status();
    if (status.state === 'connected') return `MCP server "${status.name}" is connected but has no tool "${name}".`;
    const why = status.error ? `: ${status.error}` : '';
    return `MCP server "${status.name}" is ${status.state}${why}. Its tools, "${name}" among them, are unavailable; \`wield mcp list\` shows every server's state.`;
  }

  async close(): Promise<void> {
    // A task left running would go on on the server with no one to read its result.
    await this.jobs.close();
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  private sync(connection: McpConnection, tools: McpToolInfo[], options: ConnectAllOptions): void {
    options.registry.batch(() => this.syncTools(connection, tools, options));
  }

  private syncTools(connection: McpConnection, tools: McpToolInfo[], options: ConnectAllOptions): void {
    const server = connection.name;
    const previous = this.registered.get(server) ?? new Map<string, string>();
    const next = new Map<string, string>();
    const names = assignToolNames(
      server,
      tools.map((tool) => tool.name),
    );
    const trust = connection.config.trustAnnotations === true;
    let changed = false;
    for (const tool of tools) {
      const exposedName = names.get(tool.name) as string;
      const signature = JSON.stringify(tool);
      next.set(exposedName, signature);
      if (tool.definition) this.definitions.set(exposedName, tool.definition);
      if (previous.get(exposedName) === signature) continue;
      const adapted = adaptMcpTool(tool, {
        server,
        exposedName,
        trustAnnotations: trust,
        responseFormats: connection.config.responseFormats === true,
        call: (original, input, ctx) => connection.callTool(original, input, ctx),
      });
      options.registry.register(adapted);
      changed = true;
    }
    for (const name of previous.keys()) {
      if (next.has(name)) continue;
      options.registry.unregister(name);
      this.definitions.delete(name);
      changed = true;
    }
    this.registered.set(server, next);
    if (changed) options.onChange?.(server);
  }
}
