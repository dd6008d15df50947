// Each provider, through its real SDK, against a stand-in server speaking its wire format.
import { describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { ProviderError, RAW_ARGUMENTS_KEY, type Message, type ProviderName } from '../../../src/runtime/providers/index.js';
import { startStandin } from '../../support/standin/index.js';
import { collect, collectUntilError, DIALECTS, ends, PNG_1PX, providerFor, request, standinPerTest, text } from './helpers.js';

type Body = Record<string, unknown>;

/** A stand-in server for this test, closed after it. */
const serve = standinPerTest();

function errorBody(dialect: ProviderName, message: string): unknown {
  return dialect === 'anthropic'
    ? { type: 'error', error: { type: 'invalid_request_error', message } }
    : { error: { message, type: 'invalid_request_error', param: null, code: null } };
}

/** Where each dialect puts the system prompt. */
function systemOf(dialect: ProviderName, body: Body): unknown {
  if (dialect === 'anthropic') return body.system;
  if (dialect === 'openai') return (body.messages as Body[])[0];
  return body.instructions;
}

describe.each(DIALECTS)('%s provider', (dialect) => {
  it("leaves no abort listener on the run's signal after a request (many turns, one signal)", async () => {
    const server = await serve(
      dialect,
      Array.from({ length: 12 }, (_, i) => ({ text: `turn ${i}` })),
    );
    const provider = await providerFor(dialect, server.url);
    const signal = new AbortController().signal;
    for (let i = 0; i < 12; i++) await collect(provider.stream(request(), signal));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('runs a multi-turn tool exchange and sends results back in the dialect', async () => {
    const server = await serve(dialect, [
      { text: 'Reading.', toolCalls: [{ name: 'Read', arguments: { file_path: 'a.txt' } }], usage: { inputTokens: 12, outputTokens: 7 } },
      { text: 'The file says hi.' },
    ]);
    const provider = await providerFor(dialect, server.url);
    const first = await collect(provider.stream(request(), new AbortController().signal));
    expect(text(first)).toBe('Reading.');
    const [call] = ends(first);
    expect(call).toMatchObject({ index: 0, name: 'Read' });
    expect(JSON.parse(call.input)).toEqual({ file_path: 'a.txt' });
    // Responses always reports input_tokens_details.cached_tokens; the others only when there is a cache.
    const cached = dialect === 'openai-responses' ? { cacheReadTokens: 0 } : {};
    expect(first.at(-1)).toEqual({ type: 'message_end', stopReason: 'tool_use', usage: { inputTokens: 12, outputTokens: 7, ...cached } });

    const history: Message[] = [
      ...request().messages,
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: call.id, name: 'Read', input: { file_path: 'a.txt' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: call.id, toolName: 'Read', content: [{ type: 'text', text: 'hi' }], isError: false }],
      },
    ];
    const second = await collect(provider.stream(request({ messages: history }), new AbortController().signal));
    expect(text(second)).toBe('The file says hi.');
    expect(second.at(-1)).toMatchObject({ type: 'message_end', stopReason: 'end_turn' });

    const body = server.requests[1] as Body;
    expect(JSON.stringify(systemOf(dialect, body))).toContain('You are a test.');
    const wire = JSON.stringify(body);
    if (dialect === 'anthropic') {
      const messages = body.messages as Body[];
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(messages[2].content).toEqual([{ type: 'tool_result', tool_use_id: call.id, content: [{ type: 'text', text: 'hi' }] }]);
    } else if (dialect === 'openai') {
      const messages = body.messages as Body[];
      expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
      expect(messages[3]).toEqual({ role: 'tool', tool_call_id: call.id, content: 'hi' });
    } else {
      expect(wire).toContain(JSON.stringify({ type: 'function_call_output', call_id: call.id, output: 'hi' }));
      expect(body.store).toBe(false);
    }
  });

  it('streams parallel calls and ends the first before the second starts', async () => {
    const server = await serve(dialect, [
      {
        toolCalls: [
          { id: 'call_a', name: 'Read', arguments: { file_path: 'a.txt' } },
          { id: 'call_b', name: 'Read', arguments: { file_path: 'b.txt' } },
        ],
      },
    ]);
    const provider = await providerFor(dialect, server.url);
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(ends(events).map((e) => [e.index, e.id, JSON.parse(e.input)])).toEqual([
      [0, 'call_a', { file_path: 'a.txt' }],
      [1, 'call_b', { file_path: 'b.txt' }],
    ]);
    const firstEnd = events.findIndex((e) => e.type === 'tool_call_end' && e.index === 0);
    const secondStart = events.findIndex((e) => e.type === 'tool_call_start' && e.index === 1);
    expect(firstEnd).toBeGreaterThanOrEqual(0);
    expect(firstEnd).toBeLessThan(secondStart);
    expect(events.at(-1)).toMatchObject({ type: 'message_end', stopReason: 'tool_use' });
  });

  it('passes malformed tool-call JSON through raw, and sends it back in an accepted form', async () => {
    const broken = '{"file_path": "a.txt"';
    const server = await serve(dialect, [{ toolCalls: [{ id: 'call_x', name: 'Read', arguments: broken }] }, { text: 'ok' }]);
    const provider = await providerFor(dialect, server.url);
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(ends(events)[0].input).toBe(broken);

    const history: Message[] = [
      ...request().messages,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_x', name: 'Read', input: broken }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'call_x', toolName: 'Read', content: [{ type: 'text', text: 'Invalid JSON' }], isError: true },
        ],
      },
    ];
    await collect(provider.stream(request({ messages: history }), new AbortController().signal));
    const body = server.requests[1] as Body;
    if (dialect === 'anthropic') {
      const assistant = (body.messages as Body[])[1].content as Body[];
      expect(assistant[0]).toMatchObject({ type: 'tool_use', input: { [RAW_ARGUMENTS_KEY]: broken } });
    } else {
      const wire = JSON.stringify(body);
      const args = JSON.stringify(JSON.stringify({ [RAW_ARGUMENTS_KEY]: broken }));
      expect(wire).toContain(args.slice(1, -1));
    }
  });

  it('retries a 500 and then succeeds', async () => {
    const server = await serve(dialect, [{ status: 500 }, { text: 'recovered' }]);
    const provider = await providerFor(dialect, server.url);
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(text(events)).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 400 and reports the status and the server text', async () => {
    const server = await serve(dialect, [{ status: 400, body: errorBody(dialect, 'max_tokens: too large') }, { text: 'unused' }]);
    const provider = await providerFor(dialect, server.url);
    const { error } = await collectUntilError(provider.stream(request(), new AbortController().signal));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect((error as Error).message).toMatch(/HTTP 400: max_tokens: too large/);
    expect(server.requests).toHaveLength(1);
  });

  it('honours retry-after on a 429', async () => {
    const server = await serve(dialect, [{ status: 429, headers: { 'retry-after': '1' } }, { text: 'after the wait' }]);
    const provider = await providerFor(dialect, server.url);
    const started = Date.now();
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(text(events)).toBe('after the wait');
  });

  it('gives up after the configured retries with a clear error', async () => {
    const server = await serve(dialect, [{ status: 503 }, { status: 503 }, { status: 503 }]);
    const provider = await providerFor(dialect, server.url, { maxRetries: 2 });
    const { error } = await collectUntilError(provider.stream(request(), new AbortController().signal));
    expect((error as Error).message).toMatch(/HTTP 503.*gave up after 3 attempts/);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a stream cut before anything was yielded', async () => {
    const server = await serve(dialect, [{ text: 'lost', cutAfterChunks: 1 }, { text: 'second try' }]);
    const provider = await providerFor(dialect, server.url);
    const events = await collect(provider.stream(request(), new AbortController().signal));
    expect(text(events)).toBe('second try');
    expect(server.requests).toHaveLength(2);
  });

  it('stops promptly when aborted mid-stream', async () => {
    const server = await serve(dialect, [{ text: 'x'.repeat(60), chunkDelayMs: 150 }]);
    const provider = await providerFor(dialect, server.url);
    const controller = new AbortController();
    const seen: string[] = [];
    let abortedAt = 0;
    const run = (async () => {
      for await (const event of provider.stream(request(), controller.signal)) {
        seen.push(event.type);
        if (event.type === 'text_delta' && abortedAt === 0) {
          abortedAt = Date.now();
          controller.abort();
        }
      }
    })();
    await expect(run).rejects.toThrow(/aborted/);
    expect(Date.now() - abortedAt).toBeLessThan(250);
    expect(seen).not.toContain('message_end');
    await expect.poll(() => server.clientAborts()).toBeGreaterThanOrEqual(1);
  });

  it('sends images in tool results the way the dialect allows', async () => {
    const server = await serve(dialect, [{ text: 'seen' }]);
    const provider = await providerFor(dialect, server.url);
    const history: Message[] = [
      ...request().messages,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_img', name: 'Read', input: { file_path: 'a.png' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: 'call_img',
            toolName: 'Read',
            isError: false,
            content: [
              { type: 'text', text: 'a.png' },
              { type: 'image', mediaType: 'image/png', data: PNG_1PX },
            ],
          },
        ],
      },
    ];
    await collect(provider.stream(request({ messages: history }), new AbortController().signal));
    const body = server.requests[0] as Body;
    const dataUrl = `data:image/png;base64,${PNG_1PX}`;
    if (dialect === 'anthropic') {
      const result = ((body.messages as Body[])[2].content as Body[])[0];
      expect(result.content).toEqual([
        { type: 'text', text: 'a.png' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX } },
      ]);
    } else if (dialect === 'openai') {
      const messages = body.messages as Body[];
      const tool = messages[3];
      expect(tool.role).toBe('tool');
      expect(tool.content).toMatch(/^a\.png\n\[1 image from this tool result is in the next user message\.\]$/);
      expect(messages[4].role).toBe('user');
      expect(messages[4].content).toContainEqual({ type: 'image_url', image_url: { url: dataUrl } });
    } else {
      const output = (body.input as Body[]).find((i) => i.type === 'function_call_output');
      expect(output?.output).toEqual([
        { type: 'input_text', text: 'a.png' },
        { type: 'input_image', image_url: dataUrl, detail: 'auto' },
      ]);
    }
  });

  it('flags error results as errors', async () => {
    const server = await serve(dialect, [{ text: 'noted' }]);
    const provider = await providerFor(dialect, server.url);
    const history: Message[] = [
      ...request().messages,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_e', name: 'Read', input: { file_path: 'nope' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: 'call_e',
            toolName: 'Read',
            content: [{ type: 'text', text: 'File not found: nope' }],
            isError: true,
          },
        ],
      },
    ];
    await collect(provider.stream(request({ messages: history }), new AbortController().signal));
    const body = server.requests[0] as Body;
    if (dialect === 'anthropic') {
      expect(((body.messages as Body[])[2].content as Body[])[0]).toMatchObject({
        is_error: true,
        content: [{ type: 'text', text: 'File not found: nope' }],
      });
    } else if (dialect === 'openai') {
      expect((body.messages as Body[])[3]).toMatchObject({ role: 'tool', content: 'Error: File not found: nope' });
    } else {
      expect((body.input as Body[]).find((i) => i.type === 'function_call_output')).toMatchObject({
        output: 'Error: File not found: nope',
      });
    }
  });

  it('sends sanitised schemas', async () => {
    const server = await serve(dialect, [{ text: 'ok' }]);
    const provider = await providerFor(dialect, server.url);
    const tool = {
      name: 'Edit',
      description: 'Edits.',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $defs: { Path: { type: 'string', format: 'uri' } },
        type: 'object',
        properties: { file_path: { $ref: '#/$defs/Path' } },
      },
    };
    await collect(provider.stream(request({ tools: [tool] }), new AbortController().signal));
    const wire = JSON.stringify(server.requests[0]);
    expect(wire).not.toContain('$ref');
    expect(wire).not.toContain('$schema');
    expect(wire).toContain('"file_path":{"type":"string"');
  });

  it('reports an unreachable server after retrying', async () => {
    const closed = await startStandin({ dialect, script: [] });
    const url = closed.url;
    await closed.close();
    const provider = await providerFor(dialect, url, { maxRetries: 1 });
    const { error } = await collectUntilError(provider.stream(request(), new AbortController().signal));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toMatch(/Could not reach .* at http:\/\/127\.0\.0\.1.*gave up after 2 attempts/);
  });
});
