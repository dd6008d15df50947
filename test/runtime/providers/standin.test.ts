// The stand-in servers themselves: non-streamed replies through the real SDKs, routing and faults.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../../support/standin/index.js';

let standin: Standin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

const CALL = { id: 'call_1', name: 'Read', arguments: { file_path: 'a.txt' } };

describe('stand-in servers', () => {
  it('answers non-streamed Anthropic requests the SDK understands', async () => {
    standin = await startStandin({ dialect: 'anthropic', script: [{ text: 'hi', toolCalls: [CALL] }] });
    const client = new Anthropic({
      apiKey: 'test-key',
      authToken: null,
      baseURL: standin.url,
      maxRetries: 0,
      logLevel: 'off',
      openTelemetry: false,
    });
    const message = await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    expect(message.content).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'tool_use', id: 'call_1', name: 'Read', input: { file_path: 'a.txt' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    // This SDK version sends the key as a bearer token; older ones used x-api-key.
    const { authorization, 'x-api-key': apiKey } = standin.headers[0];
    expect([authorization, apiKey]).toContain(authorization === undefined ? 'test-key' : 'Bearer test-key');
  });

  it('answers non-streamed Chat Completions and Responses requests the SDK understands', async () => {
    standin = await startStandin({ dialect: 'openai', script: [{ toolCalls: [CALL] }] });
    const chat = new OpenAI({ apiKey: 'k', baseURL: standin.url, maxRetries: 0, organization: null, project: null });
    const completion = await chat.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(completion.choices[0].message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a.txt"}' } },
    ]);
    await standin.close();

    standin = await startStandin({ dialect: 'openai-responses', script: [{ text: 'done' }] });
    const responses = new OpenAI({ apiKey: 'k', baseURL: standin.url, maxRetries: 0, organization: null, project: null });
    const response = await responses.responses.create({ model: 'm', input: 'x' });
    expect(response.output_text).toBe('done');
    expect(standin.requests).toEqual([{ model: 'm', input: 'x' }]);
  });

  it('says clearly when the script is used up or the path is wrong', async () => {
    standin = await startStandin({ dialect: 'openai', script: [] });
    const post = (path: string) => fetch(`${standin!.url}${path}`, { method: 'POST', body: '{}' });
    const exhausted = await post('/chat/completions');
    expect(exhausted.status).toBe(400);
    expect(await exhausted.json()).toMatchObject({ error: { message: 'The stand-in script has no reply left for request 1.' } });
    const wrong = await post('/completions');
    expect(wrong.status).toBe(404);
    expect(JSON.stringify(await wrong.json())).toContain('POST /v1/chat/completions');
  });

  it('replays a scripted fault with its body and headers', async () => {
    standin = await startStandin({ dialect: 'anthropic', script: [{ status: 529, headers: { 'retry-after': '7' } }] });
    const res = await fetch(`${standin.url}/v1/messages`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(529);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Stand-in fault 529.' } });
  });
});
