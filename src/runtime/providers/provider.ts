// What the three providers share: retries and error classification around one streamed reply.
import { classifyError, type SdkErrorClasses } from './errors.js';
import { withRetries, type RetryOptions } from './retry.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent, ProviderName } from './types.js';

export interface ProviderShell {
  name: ProviderName;
  /** e.g. "Anthropic API", for messages. */
  label: string;
  baseURL: string;
  keyEnv: string;
  sdkErrors: SdkErrorClasses;
  retry: RetryOptions;
  /** One attempt: opens the request and maps the SDK's stream to neutral events. */
  open: (request: ModelRequest, signal: AbortSignal) => AsyncIterable<ModelStreamEvent>;
}

export function streamingProvider(shell: ProviderShell): ModelProvider {
  return {
    name: shell.name,
    stream(request, signal) {
      const classify = (error: unknown, yielded: boolean) =>
        classifyError(
          error,
          { label: shell.label, baseURL: shell.baseURL, model: request.model, keyEnv: shell.keyEnv, yielded, aborted: signal.aborted },
          shell.sdkErrors,
        );
      return withRetries(() => withOwnSignal((attemptSignal) => shell.open(request, attemptSignal), signal), classify, shell.retry, signal);
    },
  };
}

/**
 * One attempt under its own abort signal, linked to the run's and unlinked when it ends. The
 * SDKs add an abort listener to the signal of every request and some leave it there, so a long
 * run's one signal would collect one per request (Node warns past ten).
 */
async function* withOwnSignal<T>(open: (signal: AbortSignal) => AsyncIterable<T>, parent: AbortSignal): AsyncGenerator<T> {
  const controller = new AbortController();
  const abort = (): void => controller.abort(parent.reason);
  if (parent.aborted) abort();
  else parent.addEventListener('abort', abort, { once: true });
  try {
    yield* open(controller.signal);
  } finally {
    parent.removeEventListener('abort', abort);
  }
}
