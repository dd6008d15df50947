// Which provider, model, endpoint and key to use: a pure decision over options and environment.
import type { ProviderName } from './types.js';

export interface ProviderOptions {
  provider?: ProviderName;
  model?: string;
  baseURL?: string;
  apiKey?: string;
  /** Retries on 429, 5xx and connection errors (default 3). */
  maxRetries?: number;
  /** First backoff delay in ms, doubled per retry (default 500); retry-after wins when sent. */
  retryBaseMs?: number;
  /** A reply with no event this long after the request is retried (default 120 s). */
  firstByteTimeoutMs?: number;
  /** A reply that sends no event for this long mid-stream is retried (default 120 s). */
  idleTimeoutMs?: number;
  /**
   * OpenAI strict mode for function tools (openai, openai-responses): each schema is made strict
   * where it can be (the model's calls then always match it); the rest are sent non-strict, said
   * once per tool through `onNotice`. Anthropic ignores it.
   */
  strictTools?: boolean;
  /** Where provider notices go (default: process.emitWarning). */
  onNotice?: (message: string) => void;
  /** Environment to read (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export type ResolvedProviderConfig =
  /** `authToken` (Anthropic, from ANTHROPIC_AUTH_TOKEN) is sent as `Authorization: Bearer`; apiKey is then '' when no key is set. */
  | { ok: true; provider: ProviderName; model: string; baseURL?: string; apiKey: string; authToken?: string }
  | { ok: false; message: string };

export const PROVIDER_NAMES: readonly ProviderName[] = ['anthropic', 'openai', 'openai-responses'];

/**
 * Models used when neither --model nor WIELD_MODEL is given. Any id the endpoint accepts works;
 * a local server usually needs its own id (e.g. `--model qwen3` for Ollama).
 */
export const DEFAULT_MODELS: Record<ProviderName, string> = {
  anthropic: 'claude-sonnet-5-5',
  openai: 'gpt-5.4',
  'openai-responses': 'gpt-5.4',
};

/** Sent as the key to servers that ignore it (local OpenAI-compatible servers, proxies). */
export const PLACEHOLDER_API_KEY = 'not-needed';

const NOT_CONFIGURED =
  'No model provider is configured. Set one of: ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN (Anthropic; ' +
  'the token is sent as a bearer token); OPENAI_API_KEY (OpenAI); OPENAI_BASE_URL for a local OpenAI-compatible server such as Ollama ' +
  '(OPENAI_BASE_URL=http://localhost:11434/v1), vLLM, llama.cpp or LM Studio; or pass ' +
  '--provider anthropic|openai|openai-responses with --base-url.';

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

function envNames(provider: ProviderName): { key: string; url: string; model: string } {
  return provider === 'anthropic'
    ? { key: 'ANTHROPIC_API_KEY', url: 'ANTHROPIC_BASE_URL', model: 'ANTHROPIC_MODEL' }
    : { key: 'OPENAI_API_KEY', url: 'OPENAI_BASE_URL', model: 'OPENAI_MODEL' };
}

/**
 * Why a base URL cannot be used, or undefined when it can. The SDKs need an absolute http(s)
 * URL; anything else would only fail later as a "connection" error, retried for nothing.
 */
export function baseUrlProblem(value: string, source: string): string | undefined {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '') return undefined;
  return `Invalid base URL ${JSON.stringify(value)} (from ${source}): expected http(s)://host[:port][/path], e.g. http://localhost:11434/v1.`;
}

/**
 * The wire format a base URL speaks, where its address tells: Anthropic's host or an `/anthropic`
 * path segment; an OpenAI-style `/v1` or `/openai` path (Ollama, vLLM, llama.cpp, LM Studio).
 */
export function dialectOfBaseUrl(value: string): ProviderName | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  const segments = url.pathname.toLowerCase().split('/').filter(Boolean);
  if (url.hostname === 'api.anthropic.com' || segments.includes('anthropic')) return 'anthropic';
  if (url.hostname === 'api.openai.com' || segments.includes('openai') || segments.at(-1) === 'v1') return 'openai';
  return undefined;
}

function chooseProvider(opts: ProviderOptions, env: NodeJS.ProcessEnv): ProviderName | undefined {
  if (opts.provider !== undefined) return opts.provider;
  if (nonEmpty(env.ANTHROPIC_API_KEY) ?? nonEmpty(env.ANTHROPIC_AUTH_TOKEN) ?? nonEmpty(env.ANTHROPIC_BASE_URL)) return 'anthropic';
  if (nonEmpty(env.OPENAI_API_KEY) ?? nonEmpty(env.OPENAI_BASE_URL)) return 'openai';
  // Nothing else says which API: a --base-url alone may tell by its address.
  const flagUrl = nonEmpty(opts.baseURL);
  return flagUrl === undefined ? undefined : dialectOfBaseUrl(flagUrl);
}

export function resolveProviderConfig(opts: ProviderOptions): ResolvedProviderConfig {
  const env = opts.env ?? process.env;
  const provider = chooseProvider(opts, env);
  const flagUrl = nonEmpty(opts.baseURL);
  if (provider === undefined && flagUrl !== undefined) {
    return {
      ok: false,
      message:
        baseUrlProblem(flagUrl, '--base-url') ??
        `--base-url ${flagUrl} does not say which API it speaks: add --provider anthropic, --provider openai (Chat Completions) or --provider openai-responses.`,
    };
  }
  if (provider === undefined) return { ok: false, message: NOT_CONFIGURED };
  // The name may come straight from a command-line flag, so check it at run time too.
  if (!PROVIDER_NAMES.includes(provider)) {
    return {
      ok: false,
      message: `Unknown provider "${String(provider)}". Use one of: ${PROVIDER_NAMES.join(', ')}.`,
    };
  }
  const names = envNames(provider);
  const baseURL = nonEmpty(opts.baseURL) ?? nonEmpty(env[names.url]);
  const urlProblem =
    baseURL === undefined ? undefined : baseUrlProblem(baseURL, nonEmpty(opts.baseURL) !== undefined ? '--base-url' : names.url);
  if (urlProblem !== undefined) return { ok: false, message: urlProblem };
  const model = nonEmpty(opts.model) ?? nonEmpty(env.WIELD_MODEL) ?? nonEmpty(env[names.model]) ?? DEFAULT_MODELS[provider];
  const key = nonEmpty(opts.apiKey) ?? nonEmpty(env[names.key]);
  // As Claude Code reads it: a bearer token for gateways and proxies, beside or instead of a key.
  const authToken = provider === 'anthropic' ? nonEmpty(env.ANTHROPIC_AUTH_TOKEN) : undefined;
  if (authToken !== undefined) return { ok: true, provider, model, baseURL, apiKey: key ?? '', authToken };
  if (key !== undefined) return { ok: true, provider, model, baseURL, apiKey: key };
  // A custom endpoint (local server or proxy) usually needs no real key.
  if (baseURL !== undefined) return { ok: true, provider, model, baseURL, apiKey: PLACEHOLDER_API_KEY };
  return {
    ok: false,
    message:
      `Provider "${provider}" needs an API key: set ${names.key}, or set ${names.url} ` +
      '(or pass --base-url) to use a local or proxy server that needs no key.',
  };
}
