// One attempt to connect a server. Callers (a tool call, the first request, `wield mcp list`) wait
// for it at most its connect timeout; the attempt itself goes on in the background up to its join
// timeout, so a server that starts slowly still joins the session, and the person is told when it
// does or when it is given up.
import { type Client, SdkError, SdkErrorCode, type Transport, UnauthorizedError } from '@modelcontextprotocol/client';
import { messageOf } from '../util/message.js';

/**
 * How long callers wait for one attempt: `over` resolves `ms` after it started (never when it
 * settles: callers race it against the attempt). The clock stops while the person authorizes in
 * the browser, a wait with its own bound, and starts afresh after.
 */
export class Patience {
  readonly over: Promise<void>;
  private resolve: () => void = () => undefined;
  private timer?: NodeJS.Timeout;
  private ran = false;

  constructor(private readonly ms: number) {
    this.over = new Promise((resolve) => {
      this.resolve = resolve;
    });
    this.resume();
  }

  /** True once callers stopped waiting while the attempt went on. */
  get expired(): boolean {
    return this.ran;
  }

  pause(): void {
    clearTimeout(this.timer);
  }

  resume(): void {
    clearTimeout(this.timer);
    if (this.ran) return;
    this.timer = setTimeout(() => {
      this.ran = true;
      this.resolve();
    }, this.ms);
  }

  /** The attempt settled: no timer is left behind. */
  end(): void {
    clearTimeout(this.timer);
  }
}

type ConnectOptions = NonNullable<Parameters<Client['connect']>[1]>;

/**
 * `client.connect`, given up when `options.signal` aborts. The SDK's `server/discover` probe does
 * not watch the signal; closing the transport stops it (and a stdio server's process with it).
 * That close is awaited: only the first close of a stdio transport waits for the process to end,
 * and a command exiting meanwhile would leave it running.
 */
export async function handshake(client: Client, transport: Transport, options: ConnectOptions & { signal: AbortSignal }): Promise<void> {
  let closing: Promise<void> | undefined;
  const stop = (): void => {
    closing = transport.close().catch(() => undefined);
  };
  options.signal.addEventListener('abort', stop, { once: true });
  try {
    await client.connect(transport, options);
  } finally {
    options.signal.removeEventListener('abort', stop);
    await closing;
  }
}

function describeConnectError(error: unknown): string {
  // The revision probe wraps the transport's own failure (a refused address, a reset): say that.
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && error.cause instanceof Error)
    return describeConnectError(error.cause);
  if (error instanceof UnauthorizedError) return `authorization failed: the server refused the credentials (${messageOf(error)})`;
  return messageOf(error);
}

/** Why an attempt failed, for the server's status. Pure. */
export function connectFailure(error: unknown, attempt: { timedOut: boolean; joinTimeout: number; pinnedModern: boolean }): string {
  if (attempt.timedOut) return `no answer within ${attempt.joinTimeout / 1000} s`;
  const pinned =
    attempt.pinnedModern && error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed
      ? '; it does not speak 2026-07-28: set "protocol" to "auto" (or remove it) for this server'
      : '';
  return `${describeConnectError(error)}${pinned}`;
}

/** A server's status while it connects past its connect timeout. Pure. */
export function stillConnecting(connectTimeout: number): string {
  return `no answer within ${connectTimeout / 1000} s yet`;
}

/** What the person is told when a server that callers stopped waiting for connects. Pure. */
export function joinedNotice(server: string, toolCount: number): string {
  return `MCP server "${server}" joined: ${toolCount} tool${toolCount === 1 ? '' : 's'}`;
}

/** …and when it is given up. Pure. */
export function givenUpNotice(server: string, error: string, logFile: string | undefined): string {
  return `MCP server "${server}" did not start, so its tools are missing: ${error}${logFile ? ` (its output: ${logFile})` : ''}`;
}
