// Entry point of the providers: configuration, the factory, and the pieces others may reuse.
import { resolveProviderConfig, type ProviderOptions } from './config.js';
import { DEFAULT_MAX_RETRIES, DEFAULT_RETRY_BASE_MS, type RetryOptions } from './retry.js';
import { strictModeOf } from './strict.js';
import { DEFAULT_STREAM_TIMEOUTS, type StreamTimeouts } from './provider.js';
import { ProviderError, type ModelProvider } from './types.js';

export { DEFAULT_MODELS, PLACEHOLDER_API_KEY, PROVIDER_NAMES, resolveProviderConfig } from './config.js';
export type { ProviderOptions, ResolvedProviderConfig } from './config.js';
export { sanitizeSchema, type SchemaTarget } from './schema.js';
export { strictSchema, type StrictResult } from './strict.js';
export { RAW_ARGUMENTS_KEY } from './content.js';
export { DEFAULT_STREAM_TIMEOUTS, type StreamTimeouts } from './provider.js';
export { retryNotice } from './retry.js';
export * from './types.js';

/**
 * A provider for the options and environment. The SDK is imported only here, on first use, so
 * commands that never talk to a model start fast. Throws ProviderError when nothing is configured.
 */
export async function createProvider(opts: ProviderOptions): Promise<ModelProvider> {
  const config = resolveProviderConfig(opts);
  if (!config.ok) throw new ProviderError(config.message);
  const retry: RetryOptions = {
    maxRetries: Math.max(0, opts.maxRetries ?? DEFAULT_MAX_RETRIES),
    retryBaseMs: Math.max(0, opts.retryBaseMs ?? DEFAULT_RETRY_BASE_MS),
  };
  const timeouts: StreamTimeouts = {
    firstByteMs: opts.firstByteTimeoutMs ?? DEFAULT_STREAM_TIMEOUTS.firstByteMs,
    idleMs: opts.idleTimeoutMs ?? DEFAULT_STREAM_TIMEOUTS.idleMs,
  };
  const strict = strictModeOf(opts.strictTools, opts.onNotice ?? ((message) => process.emitWarning(message)));
  const target = { apiKey: config.apiKey, baseURL: config.baseURL, authToken: config.authToken };
  switch (config.provider) {
    case 'anthropic': {
      const [sdk, { createAnthropicProvider }] = await Promise.all([import('@anthropic-ai/sdk'), import('./anthropic.js')]);
      return createAnthropicProvider(sdk, target, retry, timeouts);
    }
    case 'openai': {
      const [sdk, { createOpenAIChatProvider }] = await Promise.all([import('openai'), import('./openai-chat.js')]);
      return createOpenAIChatProvider(sdk, target, retry, timeouts, strict);
    }
    case 'openai-responses': {
      const [sdk, { createOpenAIResponsesProvider }] = await Promise.all([import('openai'), import('./openai-responses.js')]);
      return createOpenAIResponsesProvider(sdk, target, retry, timeouts, strict);
    }
  }
}
