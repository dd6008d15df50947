// Turning SDK and stream failures into ProviderError with a clear message, and deciding which
// ones are worth retrying. Pure: the SDK's error classes are passed in, nothing is fetched.
import { ProviderError } from './types.js';
import { isRecord } from '../util/record.js';
import { messageOf } from '../util/message.js';

type ErrorClass = abstract new (...args: never[]) => object;

/** The error classes both official SDKs export under these names. */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIUserAbortError: ErrorClass;
}

export interface ErrorContext {
  /** e.g. "Anthropic API", for messages. */
  label: string;
  baseURL: string;
  model: string;
  /** Environment variable holding the key, named in 401/403 hints. */
  keyEnv: string;
  aborted: boolean;
}

export interface ClassifiedError {
  error: ProviderError;
  /** Wait the server asked for (retry-after / retry-after-ms), in ms. */
  retryAfterMs?: number;
}

export const ABORT_MESSAGE = 'The model request was aborted.';

/** The server's own error text from an error body, in the shapes the dialects use. */
export function serverMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() === '' ? undefined : body;
  if (!isRecord(body)) return undefined;
  // Anthropic {type:'error', error:{type, message}}; OpenAI {error:{message}}; FastAPI {detail}.
  const nested = isRecord(body.error) ? body.error.message : body.error;
  for (const candidate of [nested, body.message, body.detail]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate;
  }
  const json = JSON.stringify(body);
  return json === '{}' ? undefined : json.slice(0, 500);
}

/** Milliseconds from retry-after-ms, or retry-after in seconds or as an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** 408 timeout, 409 conflict, 429 rate limit and 5xx (incl. Anthropic's 529 overloaded) are transient. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function statusHint(status: number, ctx: ErrorContext): string {
  if (status === 401 || status === 403) return ` Check the API key (${ctx.keyEnv}) and that it may use this model.`;
  if (status === 404) return ` Check the model id ("${ctx.model}") and the base URL (${ctx.baseURL}).`;
  if (status === 429) return ' The server is rate limiting requests; wait and try again.';
  return '';
}

function causeText(error: object): string {
  const cause = 'cause' in error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = 'code' in cause && typeof cause.code === 'string' ? `${cause.code}: ` : '';
    return `${code}${cause.message}`;
  }
  return messageOf(error);
}

export function classifyError(error: unknown, ctx: ErrorContext, sdk: SdkErrorClasses): ClassifiedError {
  if (ctx.aborted || error instanceof sdk.APIUserAbortError) {
    return { error: new ProviderError(ABORT_MESSAGE, undefined, false) };
  }
  if (error instanceof ProviderError) {
    return { error: new ProviderError(error.message, error.status, error.retryable) };
  }
  if (error instanceof sdk.APIConnectionError) {
    const message =
      `Could not reach the ${ctx.label} at ${ctx.baseURL} (${causeText(error)}). ` +
      'Check that the server is running and the base URL is right.';
    return { error: new ProviderError(message, undefined, true) };
  }
  if (error instanceof sdk.APIError) {
    const fields = error as { status?: unknown; headers?: unknown; error?: unknown; message?: unknown };
    const text = serverMessage(fields.error) ?? (typeof fields.message === 'string' ? fields.message : 'no details');
    if (typeof fields.status === 'number') {
      const status = fields.status;
      const headers = fields.headers instanceof Headers ? fields.headers : undefined;
      const message = `The ${ctx.label} returned HTTP ${status}: ${text.replace(/\.$/, '')}.${statusHint(status, ctx)}`;
      return {
        error: new ProviderError(message, status, isRetryableStatus(status)),
        retryAfterMs: parseRetryAfter(headers),
      };
    }
    // An error event inside the stream (e.g. overloaded) carries no HTTP status.
    return { error: new ProviderError(`The ${ctx.label} reported an error mid-stream: ${text}`, undefined, true) };
  }
  const detail = messageOf(error);
  return {
    error: new ProviderError(`The connection to the ${ctx.label} broke before the reply was complete (${detail}).`, undefined, true),
  };
}
