// What the three providers share: retries, error classification and the stream's own timeouts
// around one streamed reply.
import { classifyError, type SdkErrorClasses } from './errors.js';
import { withRetries, type RetryOptions } from './retry.js';
import { ProviderError, type ModelProvider, type ModelRequest, type ModelStreamEvent, type ProviderName } from './types.js';

/** How long a reply may keep us waiting: for its first event, and between two events. */
export interface StreamTimeouts {
  firstByteMs: number;
  idleMs: number;
}

/**
 * Long enough for a large prompt's first token and for a thinking model between events (the
 * servers send keep-alive events while they work); short enough that a server that accepted the
 * request and went quiet is retried within minutes rather than the SDKs' ten.
 */
export const DEFAULT_STREAM_TIMEOUTS: StreamTimeouts = { firstByteMs: 120_000, idleMs: 120_000 };

export interface ProviderShell<Raw> {
  name: ProviderName;
  /** e.g. "Anthropic API", for messages. */
  label: string;
  baseURL: string;
  keyEnv: string;
  sdkErrors: SdkErrorClasses;
  retry: RetryOptions;
  timeouts: StreamTimeouts;
  /** One attempt: opens the request and returns the SDK's stream of wire events. */
  open: (request: ModelRequest, signal: AbortSignal) => Promise<AsyncIterable<Raw>>;
  /** The wire events as neutral events. */
  map: (raw: AsyncIterable<Raw>) => AsyncIterable<ModelStreamEvent>;
}

export function streamingProvider<Raw>(shell: ProviderShell<Raw>): ModelProvider {
  return {
    name: shell.name,
    stream(request, signal) {
      const classify = (error: unknown) =>
        classifyError(
          error,
          { label: shell.label, baseURL: shell.baseURL, model: request.model, keyEnv: shell.keyEnv, aborted: signal.aborted },
          shell.sdkErrors,
        );
      return withRetries(() => watchedAttempt(shell, request, signal), classify, shell.retry, signal);
    },
  };
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}

/**
 * One attempt under its own abort signal, linked to the run's and unlinked when it ends (the
 * SDKs add an abort listener to the signal of every request and some leave it there, so a long
 * run's one signal would collect one per request). A watchdog aborts the attempt when the server
 * keeps it waiting past a timeout; the attempt then fails with a transient error saying so.
 */
async function* watchedAttempt<Raw>(
  shell: ProviderShell<Raw>,
  request: ModelRequest,
  parent: AbortSignal,
): AsyncGenerator<ModelStreamEvent> {
  const controller = new AbortController();
  const abort = (): void => controller.abort(parent.reason);
  if (parent.aborted) abort();
  else parent.addEventListener('abort', abort, { once: true });
  let stalled: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number, why: () => string): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = why();
      controller.abort(new Error(stalled));
    }, ms);
  };
  const { firstByteMs, idleMs } = shell.timeouts;
  arm(
    firstByteMs,
    () =>
      `The ${shell.label} sent nothing within ${seconds(firstByteMs)} of the request (first-byte timeout, setting modelStream.firstByteTimeout).`,
  );
  async function* beating(raw: AsyncIterable<Raw>): AsyncGenerator<Raw> {
    for await (const event of raw) {
      arm(
        idleMs,
        () =>
          `The ${shell.label} stopped sending for ${seconds(idleMs)} in the middle of its reply (idle timeout, setting modelStream.idleTimeout).`,
      );
      yield event;
    }
  }
  try {
    yield* shell.map(beating(await shell.open(request, controller.signal)));
    if (stalled !== undefined) throw new ProviderError(stalled, undefined, true);
  } catch (error) {
    if (stalled !== undefined && !parent.aborted) throw new ProviderError(stalled, undefined, true);
    throw error;
  } finally {
    clearTimeout(timer);
    parent.removeEventListener('abort', abort);
  }
}
