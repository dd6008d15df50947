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
      return withRetries(() => shell.open(request, signal), classify, shell.retry, signal);
    },
  };
}
