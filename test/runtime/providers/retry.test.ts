// Error classification and retry decisions: pure.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyError,
  isRetryableStatus,
  parseRetryAfter,
  serverMessage,
  type ErrorContext,
} from '../../../src/runtime/providers/errors.js';
import { MAX_RETRY_WAIT_MS, retryDelay, shouldRetry, withRetries } from '../../../src/runtime/providers/retry.js';
import { ProviderError, type ModelStreamEvent } from '../../../src/runtime/providers/index.js';

class APIError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly error: unknown,
    readonly headers?: Headers,
  ) {
    super('sdk message');
  }
}
class APIConnectionError extends APIError {}
class APIUserAbortError extends APIError {}
const sdk = { APIError, APIConnectionError, APIUserAbortError };

/** An attempt whose stream fails before its first value, with a fresh error each time. */
const failsAtOnce = (error: () => Error) => (): AsyncIterable<ModelStreamEvent> => ({
  [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error()) }),
});
const ctx: ErrorContext = { label: 'Test API', baseURL: 'http://h/v1', model: 'm1', keyEnv: 'TEST_KEY', aborted: false };

describe('serverMessage', () => {
  it('reads the dialects’ error shapes', () => {
    expect(serverMessage({ type: 'error', error: { type: 'x', message: 'anthropic says' } })).toBe('anthropic says');
    expect(serverMessage({ message: 'openai says', type: 'y' })).toBe('openai says');
    expect(serverMessage({ detail: 'fastapi says' })).toBe('fastapi says');
    expect(serverMessage({ error: 'plain' })).toBe('plain');
    expect(serverMessage('text body')).toBe('text body');
    expect(serverMessage({})).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
  });

  it('never returns a negative or non-finite wait (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (ms, s) => {
        const headers = new Headers();
        try {
          headers.set('retry-after-ms', ms);
          headers.set('retry-after', s);
        } catch {
          return; // not a legal header value
        }
        const wait = parseRetryAfter(headers, 0);
        if (wait !== undefined) expect(Number.isFinite(wait) && wait >= 0).toBe(true);
      }),
    );
  });
});

describe('classifyError', () => {
  it('retries 408, 409, 429 and 5xx only (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 599 }), (status) => {
        const { error } = classifyError(new APIError(status, { error: { message: 'no' } }), ctx, sdk);
        expect(error.status).toBe(status);
        expect(error.retryable).toBe(isRetryableStatus(status));
        expect(error.retryable).toBe(status >= 500 || [408, 409, 429].includes(status));
      }),
    );
  });

  it('names the key variable on 401 and the model on 404', () => {
    expect(classifyError(new APIError(401, { error: { message: 'bad key' } }), ctx, sdk).error.message).toBe(
      'The Test API returned HTTP 401: bad key. Check the API key (TEST_KEY) and that it may use this model.',
    );
    expect(classifyError(new APIError(404, {}), ctx, sdk).error.message).toMatch(/model id \("m1"\).*base URL \(http:\/\/h\/v1\)/);
  });

  it('carries retry-after; a broken connection and an error event mid-stream are transient', () => {
    const limited = new APIError(429, {}, new Headers({ 'retry-after': '3' }));
    expect(classifyError(limited, ctx, sdk)).toMatchObject({ retryAfterMs: 3000, error: { retryable: true } });
    expect(classifyError(new TypeError('terminated'), ctx, sdk).error.retryable).toBe(true);
    const overloaded = new APIError(undefined, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(classifyError(overloaded, ctx, sdk).error).toMatchObject({
      retryable: true,
      message: expect.stringMatching(/mid-stream: Overloaded/),
    });
  });

  it('reports aborts and connection failures clearly', () => {
    expect(classifyError(new Error('x'), { ...ctx, aborted: true }, sdk).error.message).toBe('The model request was aborted.');
    const refused = new APIConnectionError(undefined, undefined);
    Object.defineProperty(refused, 'cause', { value: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(classifyError(refused, ctx, sdk).error.message).toBe(
      'Could not reach the Test API at http://h/v1 (ECONNREFUSED: connect ECONNREFUSED). Check that the server is running and the base URL is right.',
    );
  });
});

describe('retry policy', () => {
  it('backs off exponentially with bounded jitter, or waits as told (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.double({ min: 0, max: 0.9999, noNaN: true }),
        (attempt, base, r) => {
          const delay = retryDelay(attempt, base, undefined, () => r);
          expect(delay).toBeGreaterThanOrEqual(base * 2 ** attempt);
          expect(delay).toBeLessThanOrEqual(Math.round(base * 2 ** attempt * 1.25));
          expect(retryDelay(attempt, base, 1234, () => r)).toBe(1234);
        },
      ),
    );
  });

  it('stops at the retry limit and for waits longer than the cap', () => {
    const failure = { error: new ProviderError('x', 500, true) };
    expect(shouldRetry(failure, 2, { maxRetries: 3, retryBaseMs: 1 })).toBe(true);
    expect(shouldRetry(failure, 3, { maxRetries: 3, retryBaseMs: 1 })).toBe(false);
    expect(shouldRetry({ ...failure, retryAfterMs: MAX_RETRY_WAIT_MS + 1 }, 0, { maxRetries: 3, retryBaseMs: 1 })).toBe(false);
    expect(shouldRetry({ error: new ProviderError('x', 400, false) }, 0, { maxRetries: 3, retryBaseMs: 1 })).toBe(false);
  });

  it('re-runs an attempt that broke part-way, telling the caller the partial reply is void', async () => {
    let runs = 0;
    const flaky = async function* (): AsyncGenerator<ModelStreamEvent> {
      runs++;
      if (runs === 1) throw new TypeError('reset');
      yield { type: 'text_delta', text: `try ${runs}` };
      if (runs === 2) throw new TypeError('cut');
      yield { type: 'message_end', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } };
    };
    const classify = (e: unknown) => classifyError(e, ctx, sdk);
    const seen: string[] = [];
    for await (const event of withRetries(flaky, classify, { maxRetries: 3, retryBaseMs: 1 }, new AbortController().signal)) {
      seen.push(
        event.type === 'text_delta' ? event.text : event.type === 'retry' ? `retry ${event.attempt}/${event.maxRetries}` : event.type,
      );
    }
    expect(runs).toBe(3);
    expect(seen).toEqual(['retry 1/3', 'try 2', 'retry 2/3', 'try 3', 'message_end']);
  });

  it('gives up after the retry limit, naming the attempts', async () => {
    const cut = async function* (): AsyncGenerator<ModelStreamEvent> {
      yield { type: 'text_delta', text: 'half' };
      throw new TypeError('cut');
    };
    const classify = (e: unknown) => classifyError(e, ctx, sdk);
    await expect(
      (async () => {
        for await (const _ of withRetries(cut, classify, { maxRetries: 1, retryBaseMs: 1 }, new AbortController().signal)) void _;
      })(),
    ).rejects.toThrow(/cut.*gave up after 2 attempts/);
  });

  it('explains when the server asks for a longer wait than it is worth', async () => {
    const attempt = failsAtOnce(() => new APIError(429, {}, new Headers({ 'retry-after': '3600' })));
    const classify = (e: unknown) => classifyError(e, ctx, sdk);
    await expect(
      (async () => {
        for await (const _ of withRetries(attempt, classify, { maxRetries: 3, retryBaseMs: 1 }, new AbortController().signal)) void _;
      })(),
    ).rejects.toThrow(/asked to wait 3600s/);
  });

  it('stops waiting for a retry as soon as the request is aborted', async () => {
    const attempt = failsAtOnce(() => new APIError(503, {}, new Headers({ 'retry-after': '5' })));
    const controller = new AbortController();
    const classify = (e: unknown) => classifyError(e, { ...ctx, aborted: controller.signal.aborted }, sdk);
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    await expect(
      (async () => {
        for await (const _ of withRetries(attempt, classify, { maxRetries: 3, retryBaseMs: 1 }, controller.signal)) void _;
      })(),
    ).rejects.toThrow('The model request was aborted.');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
