// Retrying a streamed request: only transient failures, with exponential backoff or the server's
// retry-after. A reply that broke off part-way is asked for again too: the caller is told with a
// `retry` event that what it got so far is void (see ModelStreamEvent).
import { ABORT_MESSAGE, type ClassifiedError } from './errors.js';
import { ProviderError, type ModelStreamEvent } from './types.js';

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_RETRY_BASE_MS = 500;
/** Longer waits than this are not worth blocking an interactive turn for; the error says so. */
export const MAX_RETRY_WAIT_MS = 60_000;

export interface RetryOptions {
  maxRetries: number;
  retryBaseMs: number;
}

/**
 * Wait before retry number `attempt` (0-based): the server's retry-after when given, else
 * base * 2^attempt with up to 25% jitter so many clients do not retry in lockstep.
 */
export function retryDelay(attempt: number, baseMs: number, retryAfterMs?: number, random = Math.random): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const backoff = baseMs * 2 ** attempt;
  return Math.round(backoff * (1 + random() * 0.25));
}

/** Whether to retry, given the classified failure and how many retries were used. */
export function shouldRetry(failure: ClassifiedError, attempt: number, opts: RetryOptions): boolean {
  if (!failure.error.retryable || attempt >= opts.maxRetries) return false;
  return failure.retryAfterMs === undefined || failure.retryAfterMs <= MAX_RETRY_WAIT_MS;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ProviderError(ABORT_MESSAGE));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ProviderError(ABORT_MESSAGE));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function withAttempts(error: ProviderError, attempts: number): ProviderError {
  if (attempts <= 1) return error;
  return new ProviderError(`${error.message} (gave up after ${attempts} attempts)`, error.status, error.retryable);
}

/**
 * Runs `attempt` and re-runs it after transient failures, announcing each retry with a `retry`
 * event (also when nothing was streamed yet, so a person sees why the reply is late).
 */
export async function* withRetries(
  attempt: () => AsyncIterable<ModelStreamEvent>,
  classify: (error: unknown) => ClassifiedError,
  opts: RetryOptions,
  signal: AbortSignal,
): AsyncGenerator<ModelStreamEvent> {
  for (let tries = 0; ; tries++) {
    if (signal.aborted) throw new ProviderError(ABORT_MESSAGE);
    try {
      yield* attempt();
      // The SDKs end a stream quietly when it is aborted; the caller must still learn of it.
      if (signal.aborted) throw new ProviderError(ABORT_MESSAGE);
      return;
    } catch (error) {
      const failure = classify(error);
      if (!shouldRetry(failure, tries, opts)) {
        if (failure.retryAfterMs !== undefined && failure.retryAfterMs > MAX_RETRY_WAIT_MS) {
          const seconds = Math.ceil(failure.retryAfterMs / 1000);
          throw new ProviderError(`${failure.error.message} The server asked to wait ${seconds}s.`, failure.error.status, false);
        }
        throw withAttempts(failure.error, tries + 1);
      }
      const delayMs = retryDelay(tries, opts.retryBaseMs, failure.retryAfterMs);
      yield { type: 'retry', attempt: tries + 1, maxRetries: opts.maxRetries, delayMs, reason: failure.error.message };
      await sleep(delayMs, signal);
    }
  }
}

/** What a person is told while a reply is asked for again. */
export function retryNotice(event: { attempt: number; maxRetries: number; delayMs: number; reason: string }): string {
  const wait = event.delayMs >= 1000 ? ` in ${Math.round(event.delayMs / 1000)}s` : '';
  return `${event.reason.replace(/\.$/, '')}. Asking the model again${wait} (retry ${event.attempt} of ${event.maxRetries}); the partial reply is dropped.`;
}
