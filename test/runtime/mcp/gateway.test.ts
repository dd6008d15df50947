// The gateway driven by the SDK's client over stdio (a real process) and Streamable HTTP.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import { serveMcp, type GatewayHandle } from '../../../src/runtime/mcp/serve.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { allowAll, denyAll } from '../../../src/runtime/pipeline/policies.js';
import type { PermissionPolicy } from '../../../src/runtime/pipeline/types.js';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import type { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { gatewayRegistry } from '../../support/mcp-servers/gateway-tools.js';
import { buildGatewayEntry, faultyConfig, tempDir } from './helpers.js';

let entry: string;
beforeAll(async () => {
  entry = await buildGatewayEntry();
});

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.allSettled(closers.map((close) => close()));
});

async function stdioClient(
  mode: string,
  elicit?: (request: unknown) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, boolean> },
): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' }, { capabilities: elicit ? { elicitation: {} } : {} });
  if (elicit) client.setRequestHandler('elicitation/create', async (request) => elicit(request));
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry, mode], stderr: 'pipe' }));
  closers.push(() => client.close());
  return client;
}

function firstText(result: { content: unknown[] }): string {
  const block = result.content[0] as { type: string; text?: string };
  return block.text ?? '';
}

async function httpGateway(
  policy: PermissionPolicy,
  registry: ToolRegistry = gatewayRegistry(),
  http: { host?: string; token?: string } = {},
): Promise<GatewayHandle> {
  const rt = createRuntime({ registry, session: createSession({ cwd: tempDir('gw'), dir: tempDir('gw-session') }), policy });
  const handle = await serveMcp({ registry, rt, transport: { http: { port: 0, ...http } }, deferral: false });
  closers.push(() => handle.close());
  return handle;
}

async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  closers.push(() => client.close());
  return client;
}

describe('gateway over stdio', () => {
  it('lists the pool with annotations from the tool flags and calls through the pipeline', async () => {
    const client = await stdioClient('allow');
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(['Echo', 'Shout']);
    expect(byName.Echo.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.Shout.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.Echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    const steps: number[] = [];
    const result = await client.callTool({ name: 'Echo', arguments: { text: 'hi' } }, { onprogress: (p) => steps.push(p.progress) });
    expect(result.isError).toBe(false);
    expect(firstText(result)).toBe('hi');
    expect(steps).toEqual([1]);
    const invalid = await client.callTool({ name: 'Echo', arguments: {} });
    expect(invalid.isError).toBe(true);
    expect(firstText(invalid)).toMatch(/text/);
  });

  it('a denied call comes back as an error with the reason', async () => {
    const client = await stdioClient('deny');
    const result = await client.callTool({ name: 'Echo', arguments: { text: 'hi' } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('all tools are denied (deny-all policy)');
  });

  it('an ask without elicitation support is denied, naming why', async () => {
    const client = await stdioClient('ask');
    const result = await client.callTool({ name: 'Shout', arguments: { text: 'hi' } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('Shout is not allowed by any rule');
    expect((await client.callTool({ name: 'Echo', arguments: { text: 'ok' } })).isError).toBe(false);
  });

  it('an ask uses elicitation when the client supports it', async () => {
    const asked: string[] = [];
    const yes = await stdioClient('ask', (request) => {
      asked.push(String((request as { params: { message: string } }).params.message));
      return { action: 'accept', content: { allow: true } };
    });
    const allowed = await yes.callTool({ name: 'Shout', arguments: { text: 'hi' } });
    expect(allowed.isError).toBe(false);
    expect(firstText(allowed)).toBe('HI');
    expect(asked[0]).toContain('Allow Shout?');
    const no = await stdioClient('ask', () => ({ action: 'decline' }));
    const denied = await no.callTool({ name: 'Shout', arguments: { text: 'hi' } });
    expect(denied.isError).toBe(true);
    expect(firstText(denied)).toContain('declined');
  });
});

describe('gateway over Streamable HTTP', () => {
  it('lists and calls; results honour the tool budget', async () => {
    const gateway = await httpGateway(allowAll);
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await httpClient(gateway.url as string);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['Echo', 'Shout']);
    expect(firstText(await client.callTool({ name: 'Echo', arguments: { text: 'over http' } }))).toBe('over http');
    const long = await client.callTool({ name: 'Shout', arguments: { text: 'abcdefghij', repeat: 1000 } });
    expect(long.isError).toBe(false);
    const text = (long.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('');
    expect(text.length).toBeLessThan(10_000);
    expect(text).toMatch(/ABCDEFGHIJ/);
  });

  it('a denied call returns the reason', async () => {
    const gateway = await httpGateway(denyAll);
    const client = await httpClient(gateway.url as string);
    const result = await client.callTool({ name: 'Echo', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('deny-all policy');
  });

  it('binding beyond loopback needs a token, and the token is checked', async () => {
    await expect(
      serveMcp({
        registry: gatewayRegistry(),
        rt: createRuntime({ registry: gatewayRegistry(), session: createSession({ cwd: tempDir('t') }), policy: allowAll }),
        transport: { http: { port: 0, host: '0.0.0.0' } },
      }),
    ).rejects.toThrow(/token/);
    const gateway = await httpGateway(allowAll, gatewayRegistry(), { host: '0.0.0.0', token: 's3cret' });
    const url = (gateway.url as string).replace('0.0.0.0', '127.0.0.1');
    await expect(httpClient(url)).rejects.toThrow();
    await expect(httpClient(url, { Authorization: 'Bearer wrong' })).rejects.toThrow();
    const client = await httpClient(url, { Authorization: 'Bearer s3cret' });
    expect(firstText(await client.callTool({ name: 'Echo', arguments: { text: 'authorised' } }))).toBe('authorised');
  });

  it('serves proxied MCP servers and tells clients when the pool changes', async () => {
    const registry = gatewayRegistry();
    const manager = new McpManager();
    closers.push(() => manager.close());
    manager.connectAll({ faulty: faultyConfig() }, { registry });
    await manager.ready();
    const gateway = await httpGateway(allowAll, registry);
    let changed = 0;
    const client = new Client({ name: 'test', version: '1' }, { listChanged: { tools: { onChanged: () => changed++ } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url as string)));
    closers.push(() => client.close());
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('mcp__faulty__echo');
    expect(firstText(await client.callTool({ name: 'mcp__faulty__echo', arguments: { text: 'proxied' } }))).toBe('proxied');
    await client.callTool({ name: 'mcp__faulty__add_tool', arguments: { text: 'later' } });
    await expect.poll(() => changed, { timeout: 5_000 }).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('mcp__faulty__later');
  });

  it('with deferral, lists core tools plus ToolSearch and still calls a deferred tool by name', async () => {
    const registry = gatewayRegistry();
    registry.register(
      defineTool({
        name: 'ToolSearch',
        source: 'builtin',
        description: 'Finds tools',
        inputSchema: z.object({ query: z.string() }),
        call: async () => 'none',
      }),
    );
    for (let i = 0; i < 40; i++) {
      registry.register(
        defineTool({
          name: `extra_${i}`,
          source: 'user',
          description: `Extra tool ${i}`,
          inputSchema: z.object({}),
          call: async () => `extra ${i} ran`,
        }),
      );
    }
    const rt = createRuntime({ registry, session: createSession({ cwd: tempDir('gw') }), policy: allowAll });
    const gateway = await serveMcp({ registry, rt, transport: { http: { port: 0 } } });
    closers.push(() => gateway.close());
    const client = await httpClient(gateway.url as string);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('ToolSearch');
    expect(names).not.toContain('extra_7');
    expect(firstText(await client.callTool({ name: 'extra_7', arguments: {} }))).toBe('extra 7 ran');
  });
});
