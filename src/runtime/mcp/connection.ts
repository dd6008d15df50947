// One MCP server: connect in the background, list its tools page by page, call them with a
// timeout and cancellation, and restart it (with backoff) after it crashes.
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import {
  type Client,
  type PriorDiscovery,
  SdkError,
  SdkErrorCode,
  type StreamableHTTPClientTransport,
  type Transport,
  UnauthorizedError,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/client';
import { ToolError, type ToolContext } from '../tool/types.js';
import type { McpCallOutput } from './adapt.js';
import { remainingDelay } from './backoff.js';
import { type ClientFeatures, createClient } from './client-features.js';
import { askToOpenPages, defaultsAnswer } from './elicit.js';
import { createClientTransport } from './client-transport.js';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, isHttpConfig, type McpServerConfig } from './config.js';
import { sanitizeNamePart } from './names.js';
import { McpOAuthProvider, withAuthorization } from './oauth.js';
import { OAuthStore, oauthFile } from './oauth-store.js';
import type { UpstreamEvent } from './gateway-upstream.js';
import { listServerTools, type McpToolInfo } from './tools.js';
import { classifyCallError } from './call-errors.js';
import { type McpTaskJobs, startedText, taskHandleOf } from './task-jobs.js';
import { legacyTaskCall, taskChannel } from './task-calls.js';
import { ServerLog } from './server-log.js';
import type { McpServerState, McpServerStatus } from './server-status.js';
import { forwardNotifications, listenForChanges, watchToolChanges } from './server-notifications.js';
import { messageOf } from '../util/message.js';

export interface ConnectionOptions {
  /** Folder for the server's stderr log; without it stderr is kept only in memory (last lines). */
  logDir?: string;
  clientInfo: { name: string; version: string };
  /** Called with the server's usable tools after every (re)listing. */
  onTools: (tools: McpToolInfo[]) => void;
  /** The server's resource, prompt and log notifications (for the gateway and the session log). */
  onEvent?: (event: UpstreamEvent) => void;
  /** Elicitation and roots offered to the server. */
  features?: ClientFeatures;
  /** Folder for OAuth tokens (one file per server, mode 0600); without it OAuth is off. */
  authDir?: string;
  /** Things the person must do or know now (open the authorization page). */
  notify?: (message: string) => void;
  /** Background jobs for calls a server runs as tasks; without it wield does not offer Tasks. */
  jobs?: McpTaskJobs;
}

/** How long the person has to finish an authorization in the browser. */
export const AUTHORIZATION_TIMEOUT_MS = 5 * 60_000;

function describeConnectError(error: unknown): string {
  // The revision probe wraps the transport's own failure (a refused address, a reset): say that.
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && error.cause instanceof Error)
    return describeConnectError(error.cause);
  if (error instanceof UnauthorizedError) return `authorization failed: the server refused the credentials (${messageOf(error)})`;
  return messageOf(error);
}

export class McpConnection {
  private client?: Client;
  /** The HTTP transport of the connected client, for authorization asked after initialize. */
  private http?: StreamableHTTPClientTransport;
  private attempt?: Promise<Client>;
  private state: McpServerState;
  private error?: string;
  private toolErrors: string[] = [];
  private toolCount = 0;
  private failures = 0;
  private lastFailureAt = 0;
  private starts = 0;
  private refreshing?: Promise<void>;
  private refreshAgain = false;
  private readonly log: ServerLog;
  readonly callTimeout: number;
  readonly connectTimeout: number;
  private readonly oauth?: McpOAuthProvider;
  /** The revision verdict of the first connection: reconnects skip the server/discover probe. */
  private prior?: PriorDiscovery;
  /** Tool name → its `execution.taskSupport`, from the last listing. */
  private taskSupport = new Map<string, string>();
  private protocolVersion?: string;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    this.state = config.disabled ? 'disabled' : 'disconnected';
    this.prior = this.configuredPrior();
    this.callTimeout = config.timeout ?? DEFAULT_CALL_TIMEOUT_MS;
    this.connectTimeout = config.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.log = new ServerLog(options.logDir ? path.join(options.logDir, `${sanitizeNamePart(name)}.log`) : undefined);
    if (isHttpConfig(config) && options.authDir && config.oauth !== false) {
      this.oauth = new McpOAuthProvider({
        server: name,
        store: new OAuthStore(oauthFile(options.authDir, name, config.url), config.url),
        serverUrl: config.url,
        config: config.oauth ?? {},
        authorizationTimeoutMs: AUTHORIZATION_TIMEOUT_MS,
        notify: (message) => options.notify?.(`MCP server "${name}": ${message}`),
      });
    }
  }

  private get features(): ClientFeatures {
    const features = { ...this.options.features, tasks: this.options.jobs !== undefined };
    if (this.config.elicitation !== 'accept-defaults') return features;
    return { ...features, elicit: async (request) => defaultsAnswer(request.requestedSchema) };
  }

  get logFile(): string | undefined {
    return this.log.file;
  }

  status(): McpServerStatus {
    return {
      name: this.name,
      transport: isHttpConfig(this.config) ? 'http' : 'stdio',
      state: this.state,
      toolCount: this.toolCount,
      ...(this.error === undefined ? {} : { error: this.error }),
      toolErrors: [...this.toolErrors],
      restarts: Math.max(0, this.starts - 1),
      ...(this.logFile ? { logFile: this.logFile } : {}),
      ...(this.protocolVersion === undefined ? {} : { protocolVersion: this.protocolVersion }),
    };
  }

  /** Starts connecting (if not already); resolves when the attempt has settled, never rejects. */
  start(): Promise<void> {
    if (this.state === 'disabled' || this.state === 'closed') return Promise.resolve();
    return this.connect().then(
      () => undefined,
      () => undefined,
    );
  }

  async close(): Promise<void> {
    this.state = 'closed';
    // An authorization still waiting for the browser ends with the connection.
    this.oauth?.abandon();
    const client = this.client;
    this.client = undefined;
    await Promise.allSettled([client?.close(), this.attempt?.then((c) => c.close())]);
    this.log.end();
  }

  /** Calls one tool; every failure becomes a ToolError that names the server. */
  async callTool(toolName: string, input: Record<string, unknown>, ctx: ToolContext, retried = false): Promise<McpCallOutput> {
    const client = await this.ready(ctx.signal);
    try {
      // A 2025-11-25 server's task-required tool is called as a task (a 2026-07-28 server makes
      // tasks on its own, answered with a handle, see task-jobs.ts).
      if (this.options.jobs && client.getProtocolEra() !== 'modern' && this.taskSupport.get(toolName) === 'required')
        return await legacyTaskCall(
          { client, ready: this.readyClient, jobs: this.options.jobs, server: this.name, callTimeout: this.callTimeout },
          toolName,
          input,
          ctx.signal,
        );
      const result = await withAuthorization(this.oauth, this.http, () =>
        client.callTool(
          { name: toolName, arguments: input },
          {
            signal: ctx.signal,
            timeout: this.callTimeout,
            onprogress: (progress) => ctx.onProgress({ progress: progress.progress, total: progress.total, message: progress.message }),
          },
        ),
      );
      this.failures = 0;
      // A server that changed its tools before answering announced it first: the new list is
      // in place before the caller sees the result, so the next model request has it.
      await this.refreshing;
      const handle = this.options.jobs && taskHandleOf(result);
      if (handle && this.options.jobs) {
        const id = this.options.jobs.start(this.name, toolName, handle, taskChannel(this.readyClient, this.callTimeout));
        return { content: [{ type: 'text', text: startedText(this.name, toolName, id) }] };
      }
      return result;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      // URL elicitation by error (-32042): the pages go to the person; once every one is opened,
      // the call is made again, once (MCP 2025-11-25, elicitation, URL mode).
      if (
        error instanceof UrlElicitationRequiredError &&
        !retried &&
        (await askToOpenPages(this.features.elicit, this.name, error.elicitations, ctx.signal))
      )
        return this.callTool(toolName, input, ctx, true);
      throw this.callError(client, toolName, error);
    }
  }

  private readonly readyClient = (signal: AbortSignal): Promise<Client> => this.ready(signal);

  /** The connected client; waits for a connection in progress, restarts a crashed server. */
  private async ready(signal: AbortSignal): Promise<Client> {
    if (this.client && this.state === 'connected') return this.client;
    if (this.state === 'disabled') throw new ToolError(`MCP server "${this.name}" is disabled in the settings.`);
    if (this.state === 'closed') throw new ToolError(`MCP server "${this.name}" has been shut down.`);
    if (!this.attempt) {
      const wait = remainingDelay(this.failures, this.lastFailureAt, Date.now());
      if (wait > this.connectTimeout) {
        throw new ToolError(
          `MCP server "${this.name}" failed ${this.failures} times in a row (last error: ${this.error ?? 'unknown'}); it will be retried in ${Math.ceil(wait / 1000)} s. Use another tool meanwhile.`,
        );
      }
      if (wait > 0) await sleep(wait, undefined, { signal });
    }
    const timeout = AbortSignal.timeout(this.connectTimeout);
    const waitSignal = AbortSignal.any([signal, timeout]);
    try {
      return await Promise.race([
        this.connect(),
        new Promise<never>((_, reject) => waitSignal.addEventListener('abort', () => reject(waitSignal.reason), { once: true })),
      ]);
    } catch (error) {
      if (signal.aborted) throw error;
      if (timeout.aborted)
        throw new ToolError(`MCP server "${this.name}" is still connecting after ${this.connectTimeout / 1000} s; try again later.`);
      throw new ToolError(`MCP server "${this.name}" is not available: ${messageOf(error)}`);
    }
  }

  private connect(): Promise<Client> {
    this.attempt ??= this.open().finally(() => {
      this.attempt = undefined;
    });
    return this.attempt;
  }

  private async open(): Promise<Client> {
    this.state = 'connecting';
    this.starts++;
    let signal = AbortSignal.timeout(this.connectTimeout);
    let client = this.newClient();
    try {
      await this.oauth?.prepare();
      let transport = this.transport();
      try {
        await client.connect(transport, this.connectOptions(signal));
      } catch (error) {
        // The server wants OAuth and the person was sent to the authorization page: wait for
        // them (not bounded by the connect timeout), then connect once more with the token.
        if (!(error instanceof UnauthorizedError) || !this.oauth?.awaitingAuthorization) throw error;
        this.error = 'waiting for authorization in the browser';
        const params = await this.oauth.authorizationResult().catch((reason: unknown) => {
          throw new Error(`authorization failed: ${messageOf(reason)}`);
        });
        await (transport as StreamableHTTPClientTransport).finishAuth(params);
        await client.close().catch(() => undefined);
        client = this.newClient();
        transport = this.transport();
        signal = AbortSignal.timeout(this.connectTimeout);
        await client.connect(transport, this.connectOptions(signal));
      }
      watchToolChanges(client, transport, () => void this.refreshTools(client));
      if (client.getProtocolEra() === 'modern') listenForChanges(client, (line) => this.log.line(line));
      const http = this.oauth ? (transport as StreamableHTTPClientTransport) : undefined;
      const tools = await withAuthorization(this.oauth, http, () => this.listTools(client, signal));
      if (this.isClosed()) {
        await client.close();
        throw new Error('shut down while connecting');
      }
      this.client = client;
      this.http = http;
      this.remember(client);
      this.state = 'connected';
      this.error = undefined;
      this.publish(tools);
      return client;
    } catch (error) {
      const pinned =
        this.config.protocol === '2026-07-28' && error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed
          ? '; it does not speak 2026-07-28: set "protocol" to "auto" (or remove it) for this server'
          : '';
      const reason = signal.aborted ? `no answer within ${this.connectTimeout / 1000} s` : `${describeConnectError(error)}${pinned}`;
      // An authorization the failed attempt started has nobody left to wait for it.
      this.oauth?.abandon();
      // The remembered revision may be why it failed (the server was replaced): probe again.
      this.prior = this.configuredPrior();
      await client.close().catch(() => undefined);
      if (!this.isClosed()) {
        this.state = 'failed';
        this.error = `${reason}${this.log.hint()}`;
        this.failures++;
        this.lastFailureAt = Date.now();
      }
      throw new Error(this.error ?? reason);
    }
  }

  /** "protocol": "2025-11-25" in the settings: the handshake without the probe. */
  private configuredPrior(): PriorDiscovery | undefined {
    return this.config.protocol === '2025-11-25' ? { kind: 'legacy' } : undefined;
  }

  private connectOptions(signal: AbortSignal): { timeout: number; signal: AbortSignal; prior?: PriorDiscovery } {
    return { timeout: this.connectTimeout, signal, ...(this.prior ? { prior: this.prior } : {}) };
  }

  /** Keeps the revision the server spoke, for the listing and for reconnects in this run. */
  private remember(client: Client): void {
    this.protocolVersion = client.getNegotiatedProtocolVersion();
    const discover = client.getDiscoverResult();
    this.prior = client.getProtocolEra() === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' };
  }

  private newClient(): Client {
    // A pinned 2026-07-28 fails loudly on a server that does not speak it (no fallback).
    const negotiation = this.config.protocol === '2026-07-28' ? { pin: '2026-07-28' } : 'auto';
    const client = createClient(this.options.clientInfo, this.features, this.name, negotiation);
    client.onclose = () => this.lost(client, 'the connection closed');
    client.onerror = (error) => this.log.line(`client error: ${error.message}`);
    forwardNotifications(
      client,
      this.name,
      (event) => this.options.onEvent?.(event),
      (line) => this.log.line(line),
    );
    return client;
  }

  private transport(): Transport {
    return createClientTransport(this.name, this.config, { onStderr: (text) => this.log.stderr(text), oauth: this.oauth });
  }

  /** The client while connected (for resources, prompts and completions); undefined otherwise. */
  get connected(): Client | undefined {
    return this.state === 'connected' ? this.client : undefined;
  }

  /** close() may run while open() awaits; a method call keeps TypeScript from narrowing it away. */
  private isClosed(): boolean {
    return this.state === 'closed';
  }

  private async listTools(client: Client, signal?: AbortSignal): Promise<McpToolInfo[]> {
    const checked = await listServerTools(client, this.connectTimeout, signal);
    this.taskSupport = new Map(checked.tools.flatMap((tool) => (tool.taskSupport ? [[tool.name, tool.taskSupport]] : [])));
    this.toolErrors = checked.errors;
    for (const line of checked.errors) this.log.line(`skipped ${line}`);
    return checked.tools;
  }

  private publish(tools: McpToolInfo[]): void {
    this.toolCount = tools.length;
    this.options.onTools(tools);
  }

  /** tools/list_changed: list again; notifications that arrive meanwhile cause one more pass. */
  private async refreshTools(client: Client): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        try {
          const tools = await this.listTools(client);
          if (this.client === client) this.publish(tools);
        } catch (error) {
          this.log.line(`refreshing tools failed: ${messageOf(error)}`);
        }
      } while (this.refreshAgain && this.client === client);
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private lost(client: Client, why: string): void {
    if (this.client !== client || this.state === 'closed') return;
    this.client = undefined;
    this.state = 'disconnected';
    this.error = `${why}${this.log.hint()}`;
    this.failures++;
    this.lastFailureAt = Date.now();
    this.log.line(`disconnected: ${this.error}`);
  }

  private callError(client: Client, toolName: string, error: unknown): ToolError {
    const failure = classifyCallError(this.name, toolName, error, this.callTimeout, this.log.hint());
    if (failure.lost) this.lost(client, failure.lost);
    return new ToolError(failure.message);
  }
}
