// One MCP server: connect in the background (a slow one joins late, connect-attempt.ts), list its
// tools page by page, call them with a timeout and cancellation, and restart it (with backoff)
// after it crashes.
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import {
  type Client,
  type PriorDiscovery,
  type StreamableHTTPClientTransport,
  type Transport,
  UnauthorizedError,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/client';
import { ToolError, type ToolContext } from '../tool/types.js';
import type { McpCallOutput } from './adapt.js';
import { remainingDelay } from './backoff.js';
import { answerInputRequest, type ClientFeatures, createClient } from './client-features.js';
import { askToOpenPages, defaultsAnswer } from './elicit.js';
import { createClientTransport } from './client-transport.js';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_JOIN_TIMEOUT_MS,
  isHttpConfig,
  type McpServerConfig,
} from './config.js';
import { connectFailure, givenUpNotice, handshake, joinedNotice, Patience, stillConnecting } from './connect-attempt.js';
import { sanitizeNamePart } from './names.js';
import { McpOAuthProvider, withAuthorization } from './oauth.js';
import { OAuthStore, oauthFile } from './oauth-store.js';
import type { UpstreamEvent } from './gateway-upstream.js';
import { ServerTools } from './server-tools.js';
import type { McpToolInfo } from './tools.js';
import { classifyCallError, isMissingCapability } from './call-errors.js';
import { relayedRequest } from './upstream-round.js';
import { type McpTaskJobs, startedText, type TaskChannel, taskHandleOf } from './task-jobs.js';
import { legacyTaskCall, taskChannel } from './task-calls.js';
import { ServerLog } from './server-log.js';
import type { McpServerState, McpServerStatus } from './server-status.js';
import { forwardNotifications, listenForChanges, watchToolChanges } from './server-notifications.js';
import { messageOf } from '../util/message.js';
import { deadline } from '../util/deadline.js';

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
  /** Things the person must do or know now (open the authorization page, a late server joined). */
  notify?: (message: string) => void;
  /** Background jobs for calls a server runs as tasks; without it wield does not offer Tasks. */
  jobs?: McpTaskJobs;
}

/** How long the person has to finish an authorization in the browser. */
export const AUTHORIZATION_TIMEOUT_MS = 5 * 60_000;

/** A connection attempt under way: callers wait for it within `patience`, `stop` ends it. */
interface Attempt {
  client: Promise<Client>;
  patience: Patience;
  stop: AbortController;
}

export class McpConnection {
  private client?: Client;
  /** The HTTP transport of the connected client, for authorization asked after initialize. */
  private http?: StreamableHTTPClientTransport;
  private attempt?: Attempt;
  private state: McpServerState;
  private error?: string;
  private failures = 0;
  private lastFailureAt = 0;
  private starts = 0;
  private readonly log: ServerLog;
  private readonly tools: ServerTools;
  readonly callTimeout: number;
  readonly connectTimeout: number;
  /** How long an attempt may go on after callers stopped waiting (at least connectTimeout). */
  readonly joinTimeout: number;
  private readonly oauth?: McpOAuthProvider;
  /** The revision verdict of the first connection: reconnects skip the server/discover probe. */
  private prior?: PriorDiscovery;
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
    this.joinTimeout = Math.max(this.connectTimeout, config.joinTimeout ?? DEFAULT_JOIN_TIMEOUT_MS);
    this.log = new ServerLog(options.logDir ? path.join(options.logDir, `${sanitizeNamePart(name)}.log`) : undefined);
    this.tools = new ServerTools({ timeout: this.connectTimeout, log: (line) => this.log.line(line), onTools: options.onTools });
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
    const error = this.state === 'connecting' && this.attempt?.patience.expired ? stillConnecting(this.connectTimeout) : this.error;
    return {
      name: this.name,
      transport: isHttpConfig(this.config) ? 'http' : 'stdio',
      state: this.state,
      toolCount: this.tools.count,
      ...(error === undefined ? {} : { error }),
      toolErrors: [...this.tools.errors],
      restarts: Math.max(0, this.starts - 1),
      ...(this.logFile ? { logFile: this.logFile } : {}),
      ...(this.protocolVersion === undefined ? {} : { protocolVersion: this.protocolVersion }),
    };
  }

  /**
   * Starts connecting (if not already); resolves when the attempt has settled or has run for the
   * connect timeout (it then goes on in the background), never rejects.
   */
  start(): Promise<void> {
    if (this.state === 'disabled' || this.state === 'closed') return Promise.resolve();
    const attempt = this.begin();
    return Promise.race([
      attempt.client.then(
        () => undefined,
        () => undefined,
      ),
      attempt.patience.over,
    ]);
  }

  async close(): Promise<void> {
    this.state = 'closed';
    // An authorization still waiting for the browser ends with the connection.
    this.oauth?.abandon();
    // A server still starting is stopped now, not at its join timeout.
    this.attempt?.stop.abort();
    const client = this.client;
    this.client = undefined;
    await Promise.allSettled([client?.close(), this.attempt?.client.then((c) => c.close())]);
    this.log.end();
  }

  /** Calls one tool; every failure becomes a ToolError that names the server. */
  async callTool(toolName: string, input: Record<string, unknown>, ctx: ToolContext, retried = false): Promise<McpCallOutput> {
    const client = await this.ready(ctx.signal);
    try {
      // A 2025-11-25 server's task-required tool is called as a task (a 2026-07-28 server makes
      // tasks on its own, answered with a handle, see task-jobs.ts).
      if (this.options.jobs && client.getProtocolEra() !== 'modern' && this.tools.taskSupportOf(toolName) === 'required')
        return await legacyTaskCall(
          { client, ready: this.readyClient, jobs: this.options.jobs, server: this.name, callTimeout: this.callTimeout },
          toolName,
          input,
          ctx.signal,
        );
      const relay = relayedRequest(client.getProtocolEra() === 'modern' ? ctx.upstreamRound : undefined);
      const result = await withAuthorization(this.oauth, this.http, () =>
        client.callTool(
          { name: toolName, arguments: input, ...relay.params },
          {
            ...this.tools.headerSource(toolName),
            signal: ctx.signal,
            timeout: this.callTimeout,
            onprogress: (progress) => ctx.onProgress({ progress: progress.progress, total: progress.total, message: progress.message }),
            ...relay.options,
          },
        ),
      );
      this.failures = 0;
      // A server that changed its tools before answering announced it first: the new list is
      // in place before the caller sees the result, so the next model request has it.
      await this.tools.refreshing;
      const handle = this.options.jobs && taskHandleOf(result);
      if (handle && this.options.jobs) {
        const answer: TaskChannel['answer'] = (request, signal) => answerInputRequest(this.features, this.name, request, signal);
        const id = this.options.jobs.start(this.name, toolName, handle, taskChannel(this.readyClient, this.callTimeout, answer));
        return { content: [{ type: 'text', text: startedText(this.name, toolName, id) }] };
      }
      return result;
    } catch (error) {
      if (ctx.signal.aborted || (ctx.upstreamRound && isMissingCapability(error))) throw error;
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
    const attempt = this.begin();
    // The call waits its connect timeout, and not at all for an attempt callers stopped waiting for.
    const wait = deadline(signal, this.connectTimeout);
    try {
      return await Promise.race([
        attempt.client,
        attempt.patience.over.then(() => Promise.reject(new Error('still connecting'))),
        new Promise<never>((_, reject) => wait.signal.addEventListener('abort', () => reject(wait.signal.reason), { once: true })),
      ]);
    } catch (error) {
      if (signal.aborted) throw error;
      if (wait.expired() || attempt.patience.expired)
        throw new ToolError(
          `MCP server "${this.name}" is still connecting after ${this.connectTimeout / 1000} s; its tools join when it is up, try again later.`,
        );
      throw new ToolError(`MCP server "${this.name}" is not available: ${messageOf(error)}`);
    } finally {
      wait.clear();
    }
  }

  /** The attempt under way, or a new one. */
  private begin(): Attempt {
    if (this.attempt) return this.attempt;
    const patience = new Patience(this.connectTimeout);
    const stop = new AbortController();
    const client = this.open(stop.signal, patience).finally(() => {
      this.attempt = undefined;
      patience.end();
    });
    this.attempt = { client, patience, stop };
    return this.attempt;
  }

  private async open(stop: AbortSignal, patience: Patience): Promise<Client> {
    this.state = 'connecting';
    this.starts++;
    let limit = deadline(stop, this.joinTimeout);
    let client = this.newClient();
    try {
      await this.oauth?.prepare();
      let transport = this.transport();
      try {
        await handshake(client, transport, this.connectOptions(limit.signal));
      } catch (error) {
        // The server wants OAuth and the person was sent to the authorization page: wait for
        // them (not bounded by the connect or join timeout), then connect once more with the token.
        if (!(error instanceof UnauthorizedError) || !this.oauth?.awaitingAuthorization) throw error;
        this.error = 'waiting for authorization in the browser';
        limit.clear();
        patience.pause();
        const params = await this.oauth.authorizationResult().catch((reason: unknown) => {
          throw new Error(`authorization failed: ${messageOf(reason)}`);
        });
        patience.resume();
        await (transport as StreamableHTTPClientTransport).finishAuth(params);
        await client.close().catch(() => undefined);
        client = this.newClient();
        transport = this.transport();
        limit = deadline(stop, this.joinTimeout);
        await handshake(client, transport, this.connectOptions(limit.signal));
      }
      watchToolChanges(client, transport, () => void this.tools.refresh(client, () => this.client === client));
      if (client.getProtocolEra() === 'modern') listenForChanges(client, (line) => this.log.line(line));
      const http = this.oauth ? (transport as StreamableHTTPClientTransport) : undefined;
      const tools = await withAuthorization(this.oauth, http, () => this.tools.list(client, limit.signal));
      if (this.isClosed()) {
        await client.close();
        throw new Error('shut down while connecting');
      }
      this.client = client;
      this.http = http;
      this.remember(client);
      this.state = 'connected';
      this.error = undefined;
      this.tools.publish(tools);
      if (patience.expired) this.options.notify?.(joinedNotice(this.name, tools.length));
      return client;
    } catch (error) {
      const reason = connectFailure(error, {
        timedOut: limit.expired(),
        joinTimeout: this.joinTimeout,
        pinnedModern: this.config.protocol === '2026-07-28',
      });
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
        if (patience.expired) this.options.notify?.(givenUpNotice(this.name, this.error, this.logFile));
      }
      throw new Error(this.error ?? reason);
    } finally {
      limit.clear();
    }
  }

  /** "protocol": "2025-11-25" in the settings: the handshake without the probe. */
  private configuredPrior(): PriorDiscovery | undefined {
    return this.config.protocol === '2025-11-25' ? { kind: 'legacy' } : undefined;
  }

  private connectOptions(signal: AbortSignal): { timeout: number; signal: AbortSignal; prior?: PriorDiscovery } {
    // The handshake's (and probe's) own timeout is the join timeout: `signal` ends it sooner.
    return { timeout: this.joinTimeout, signal, ...(this.prior ? { prior: this.prior } : {}) };
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
