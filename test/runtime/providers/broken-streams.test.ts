// Replies that break part-way or never come, through each real SDK against a stand-in server:
// asked for again with a `retry` event (the partial reply is void), within our own timeouts.
import { describe, expect, it } from 'vitest';
import { ProviderError, type ModelStreamEvent } from '../../../src/runtime/providers/index.js';
import { collect, collectUntilError, DIALECTS, providerFor, request, standinPerTest } from './helpers.js';

/** A stand-in server for this test, closed after it. */
const serve = standinPerTest();

/** The text of the reply as a consumer keeps it: a retry event voids what came before. */
function finalText(events: ModelStreamEvent[]): string {
  let text = '';
  for (const event of events) {
    if (event.type === 'retry') text = '';
    else if (event.type === 'text_delta') text += event.text;
  }
  return text;
}

const retries = (events: ModelStreamEvent[]) => events.filter((e): e is Extract<ModelStreamEvent, { type: 'retry' }> => e.type === 'retry');
const CALL = { name: 'Read', arguments: { file_path: 'a.txt' } };

describe.each(DIALECTS)('%s: a reply that breaks off', (dialect) => {
  it('is asked for again when the connection resets after some text and a tool call', async () => {
    const server = await serve(dialect, [{ text: 'a long enough reply', toolCalls: [CALL], cutAfterChunks: 7 }, { text: 'whole reply' }]);
    const provider = await providerFor(dialect, server.url);
    const events = await collect(provider.stream(request(), new AbortController().signal));
    const before = events.findIndex((e) => e.type === 'retry');
    expect(events.slice(0, before).some((e) => e.type === 'text_delta')).toBe(true);
    expect(retries(events)).toHaveLength(1);
    expect(retries(events)[0].reason).toMatch(/broke before the reply was complete/);
    expect(finalText(events)).toBe('whole reply');
    expect(events.at(-1)?.type).toBe('message_end');
    expect(server.requests).toHaveLength(2);
  });

  it('is asked for again after an error event mid-stream (overloaded)', async () => {
    const server = await serve(dialect, [{ text: 'half of it', breakAfter: { chunks: 4, kind: 'error_event' } }, { text: 'second try' }]);
    const provider = await providerFor(dialect, server.url);
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(retries(events)[0].reason).toMatch(/Overloaded/);
    expect(finalText(events)).toBe('second try');
  });

  it('is asked for again when the stream ends without its closing event', async () => {
    const server = await serve(dialect, [{ text: 'no ending here', breakAfter: { chunks: 4, kind: 'end' } }, { text: 'ended' }]);
    const provider = await providerFor(dialect, server.url);
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(retries(events)[0].reason).toMatch(/incomplete/);
    expect(finalText(events)).toBe('ended');
  });

  it('gives up after the retries with the last reason', async () => {
    const broken = { text: 'again and again', cutAfterChunks: 4 };
    const server = await serve(dialect, [broken, broken]);
    const provider = await providerFor(dialect, server.url, { maxRetries: 1 });
    const { events, error } = await collectUntilError(provider.stream(request(), new AbortController().signal));
    expect(retries(events)).toHaveLength(1);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toMatch(/broke before the reply was complete.*gave up after 2 attempts/);
  });
});

describe.each(DIALECTS)('%s: a server that goes quiet', (dialect) => {
  it('is retried after the first-byte timeout, saying so', async () => {
    const server = await serve(dialect, [{ silent: true }, { text: 'late but here' }]);
    const provider = await providerFor(dialect, server.url, { firstByteTimeoutMs: 300 });
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(retries(events)[0].reason).toMatch(
      /sent nothing within 0\.3s of the request \(first-byte timeout, setting modelStream\.firstByteTimeout\)/,
    );
    expect(finalText(events)).toBe('late but here');
    await expect.poll(() => server.clientAborts()).toBeGreaterThanOrEqual(1);
  });

  it('is retried after the idle timeout when it stops mid-reply', async () => {
    const server = await serve(dialect, [{ text: 'stalls here', breakAfter: { chunks: 4, kind: 'stall' } }, { text: 'recovered' }]);
    const provider = await providerFor(dialect, server.url, { idleTimeoutMs: 300 });
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(retries(events)[0].reason).toMatch(/stopped sending for 0\.3s in the middle of its reply \(idle timeout/);
    expect(finalText(events)).toBe('recovered');
  });

  it('keeps a slow but steady stream: the idle timeout counts from the last event', async () => {
    const server = await serve(dialect, [{ text: 'x'.repeat(30), chunkDelayMs: 100 }]);
    const provider = await providerFor(dialect, server.url, { idleTimeoutMs: 600, firstByteTimeoutMs: 600 });
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(retries(events)).toHaveLength(0);
    expect(finalText(events)).toBe('x'.repeat(30));
  });
});
