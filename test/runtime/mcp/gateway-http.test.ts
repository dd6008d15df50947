// The HTTP gateway's security and limits, against real sockets: Host/Origin (DNS rebinding),
// per-client state, elicitation on the calling request's stream, limits and cancellation.
import { request } from 'node:http';
import { connect } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveMcp, type GatewayHandle, type HttpServeOptions } from '../../../src/runtime/mcp/serve.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import type { PermissionPolicy } from '../../../src/runtime/pipeline/types.js';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { askForShout, gatewayRegistry } from '../../support/mcp-servers/gateway-tools.js';
import { RawMcpClient, sseMessages } from '../../support/mcp-servers/raw-http.js';
import { tempDir } from './helpers.js';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.allSettled(closers.map((close) => close()));
});

function poolWithSessionTools() {
  const registry = gatewayRegistry();
  registry.register(
    defineTool({
      name: 'Cd',
      source: 'user',
      description: 'Changes the working folder',
      inputSchema: z.object({ path: z.string() }),
      call: async ({ path }, ctx) => {
        ctx.session.cwd = path;
        ctx.session.fileState.set(path, { path, mtimeMs: 0, size: 0, hash: '' });
        return 'ok';
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'Pwd',
      source: 'user',
      description: 'Says the working folder and how many files were read',
      inputSchema: z.object({}),
      isReadOnly: () => true,
      call: async (_input, ctx) => `${ctx.session.cwd} ${ctx.session.fileState.size}`,
    }),
  );
  registry.register(
    defineTool({
      name: 'Wait',
      source: 'user',
      description: 'Waits until cancelled',
      inputSchema: z.object({}),
      isReadOnly: () => true,
      call: (_input, ctx) =>
        new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped'), { once: true })),
    }),
  );
  return registry;
}

async function gateway(policy: PermissionPolicy = allowAll, http: Partial<HttpServeOptions> = {}): Promise<GatewayHandle> {
  const registry = poolWithSessionTools();
  const cwd = tempDir('gw-http');
  const rt = createRuntime({ registry, session: createSession({ cwd, dir: tempDir('gw-http-session') }), policy });
  const handle = await serveMcp({ registry, rt, transport: { http: { port: 0, ...http } }, deferral: false });
  closers.push(() => handle.close());
  return handle;
}

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  closers.push(() => client.close());
  return client;
}

function statusWithHost(url: string, host: string): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('DNS rebinding and browser origins', () => {
  it('refuses a Host other than the bound address, and near-loopback origins', async () => {
    const { url } = await gateway();
    const port = new URL(url as string).port;
    // A page at evil.example whose DNS name now points at 127.0.0.1 sends its own name as Host
    // (fetch will not set Host, so this request is made with node:http).
    expect(await statusWithHost(url as string, `evil.example:${port}`)).toBe(403);
    expect(await statusWithHost(url as string, `127.0.0.1.evil.example:${port}`)).toBe(403);
    expect(await statusWithHost(url as string, `localhost:${port}`)).toBe(200);
    const nearLoopback = await new RawMcpClient(url as string, { origin: 'http://127.0.0.1.evil.example' }).initialize();
    expect(nearLoopback.status).toBe(403);
    const local = new RawMcpClient(url as string, { origin: `http://localhost:${port}` });
    expect((await local.initialize()).status).toBe(200);
    expect(local.sessionId).toBeDefined();
  });
});

describe('per-client state', () => {
  it("one client's cd and file reads never reach another client", async () => {
    const { url } = await gateway();
    const a = await sdkClient(url as string);
    const b = await sdkClient(url as string);
    const start = text(await b.callTool({ name: 'Pwd', arguments: {} }));
    expect(text(await a.callTool({ name: 'Cd', arguments: { path: '/elsewhere' } }))).toBe('ok');
    expect(text(await a.callTool({ name: 'Pwd', arguments: {} }))).toBe('/elsewhere 1');
    expect(text(await b.callTool({ name: 'Pwd', arguments: {} }))).toBe(start);
    expect(start.endsWith(' 0')).toBe(true);
  });
});

describe('permission questions', () => {
  it('go on the stream of the call that caused them, with no standalone GET stream open', async () => {
    const { url } = await gateway(askForShout);
    const client = new RawMcpClient(url as string);
    await client.initialize({ elicitation: { form: {} } });
    const call = client.request('tools/call', { name: 'Shout', arguments: { text: 'hi' } });
    const stream = sseMessages(await call.response);
    let question = (await stream.next()).value;
    while (question && question.data.method !== 'elicitation/create') question = (await stream.next()).value;
    expect(question?.data.method).toBe('elicitation/create');
    expect(String((question?.data.params as { message?: string } | undefined)?.message)).toContain('Allow Shout?');
    const answer = await client.post({ jsonrpc: '2.0', id: question?.data.id, result: { action: 'accept', content: { allow: true } } });
    expect(answer.status).toBe(202);
    let result = (await stream.next()).value;
    while (result && result.data.id !== call.id) result = (await stream.next()).value;
    expect(result?.data.result).toMatchObject({ content: [{ type: 'text', text: 'HI' }], isError: false });
  });

  it('are refused at once for a client without elicitation, naming the rule and flag', async () => {
    const { url } = await gateway(askForShout);
    const client = await sdkClient(url as string);
    const result = await client.callTool({ name: 'Shout', arguments: { text: 'hi' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Shout is not allowed by any rule');
    expect(text(result)).toContain('--allow "Shout"');
    expect(text(result)).toContain('"Shout" to permissions.allow');
  });
});

describe('limits', () => {
  it('closes idle sessions, keeps at most maxSessions, refuses oversized bodies', async () => {
    const idle = await gateway(allowAll, { idleTimeoutMs: 50 });
    const gone = new RawMcpClient(idle.url as string);
    await gone.initialize();
    expect(idle.sessionCount()).toBe(1);
    await expect.poll(() => idle.sessionCount(), { timeout: 5_000, interval: 100 }).toBe(0);
    expect((await gone.request('tools/list', {}).response).status).toBe(404);

    const small = await gateway(allowAll, { maxSessions: 2, maxBodyBytes: 10_000, evictionGraceMs: 100 });
    const first = new RawMcpClient(small.url as string);
    await first.initialize();
    await new RawMcpClient(small.url as string).initialize();
    // Both were active within the grace: a third client waits, it does not take a live session.
    const refused = await new RawMcpClient(small.url as string).initialize();
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const fresh = new RawMcpClient(small.url as string);
    expect((await fresh.initialize()).status).toBe(200);
    expect(small.sessionCount()).toBe(2);
    // The least recently used session past the grace made room.
    expect((await first.request('tools/list', {}).response).status).toBe(404);
    const huge = await fresh.post({
      jsonrpc: '2.0',
      id: 99,
      method: 'tools/call',
      params: { name: 'Echo', arguments: { text: 'x'.repeat(20_000) } },
    });
    expect(huge.status).toBe(413);
  });

  it('a full table never takes a live session: 50 clients against 20 sessions get 503 at initialize, never 404 mid-call', async () => {
    const small = await gateway(allowAll, { maxSessions: 20 });
    let most = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const client = new Client({ name: `load${i}`, version: '1' });
        try {
          await client.connect(new StreamableHTTPClientTransport(new URL(small.url as string)));
        } catch (error) {
          return String(error).includes('Too many sessions') ? 'refused' : `connect: ${String(error)}`;
        }
        try {
          for (let k = 0; k < 3; k++) {
            most = Math.max(most, small.sessionCount());
            const result = await client.callTool({ name: 'Pwd', arguments: {} });
            if (result.isError) return `call: ${text(result as { content: unknown[] })}`;
          }
          return 'served';
        } catch (error) {
          return `call: ${String(error)}`;
        } finally {
          await client.close();
        }
      }),
    );
    expect(outcomes.filter((o) => o !== 'served' && o !== 'refused')).toEqual([]);
    expect(outcomes.filter((o) => o === 'served').length).toBeGreaterThanOrEqual(20);
    expect(most).toBeLessThanOrEqual(20);
  });

  it('keeps an idle keep-alive connection past 5 s: a client that sends its next request on it is answered', async () => {
    // Node's default closes idle sockets after 5 s; a client that holds them longer (a stalled
    // event loop, Go's 90 s) then writes its POST into a closed socket ("other side closed").
    const { url } = await gateway();
    const { port } = new URL(url as string);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const post =
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    let ended = false;
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('close', () => {
      ended = true;
    });
    socket.write(post);
    await expect.poll(() => received.includes('0\r\n\r\n'), { timeout: 5_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(ended).toBe(false);
    socket.write(post);
    await expect.poll(() => received.split('HTTP/1.1 200').length - 1, { timeout: 5_000 }).toBe(2);
    socket.destroy();
  }, 20_000);

  it('a cancelled call gets no answer and its stream closes', async () => {
    const { url } = await gateway();
    const client = new RawMcpClient(url as string);
    await client.initialize();
    const call = client.request('tools/call', { name: 'Wait', arguments: {} });
    const response = await call.response;
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const cancel = await client.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: call.id, reason: 'test' } });
    expect(cancel.status).toBe(202);
    const seen: unknown[] = [];
    for await (const message of sseMessages(response)) seen.push(message.data);
    expect(seen.filter((m) => (m as { id?: number }).id === call.id)).toEqual([]);
  });
});
