// The network guard for MCP over HTTP: the configured host may be loopback, link-local and
// metadata addresses never are, redirects to other hosts need a public address or allowedHosts,
// and the checked address is the one connected to for the transport's life.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServerConfig } from '../../../src/runtime/mcp/config.js';
import { guardedFetch } from '../../../src/runtime/mcp/guarded-fetch.js';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import { serveMcp } from '../../../src/runtime/mcp/serve.js';
import { linkLocalOrMetadata, type Resolver } from '../../../src/runtime/network/guard.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { gatewayRegistry } from '../../support/mcp-servers/gateway-tools.js';
import { tempDir, testRuntime, textOf } from './helpers.js';

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await Promise.allSettled(closers.map((close) => close()));
});

/** A plain HTTP server on 127.0.0.1; its URL is returned. */
async function httpServer(handler: http.RequestListener): Promise<{ port: number; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}/mcp` };
}

/** The gateway serving Echo and Shout over Streamable HTTP on 127.0.0.1. */
async function localMcpServer(): Promise<{ port: number; url: string }> {
  const registry = gatewayRegistry();
  const rt = createRuntime({
    registry,
    session: createSession({ cwd: tempDir('guard'), dir: tempDir('guard-session') }),
    policy: allowAll,
  });
  // The tests reach it under made-up names that resolve to 127.0.0.1: the gateway must accept them.
  const handle = await serveMcp({
    registry,
    rt,
    transport: { http: { port: 0, allowedHosts: ['mcp.test', 'pinned.test'] } },
    deferral: false,
  });
  closers.push(() => handle.close());
  const url = handle.url as string;
  return { port: Number(new URL(url).port), url };
}

/** A resolver that answers from a script, one answer per call (the last one repeats), and counts. */
function scriptedResolver(...answers: string[]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (host: string) => {
    calls.push(host);
    const address = answers[Math.min(calls.length, answers.length) - 1];
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
  return Object.assign(resolver, { calls });
}

async function statusOf(name: string, url: string) {
  const manager = new McpManager();
  closers.push(() => manager.close());
  manager.connectAll({ [name]: { type: 'http', url, connectTimeout: 5_000 } }, { registry: testRuntime(allowAll).registry });
  await manager.ready();
  return manager.list()[0];
}

describe('linkLocalOrMetadata', () => {
  it('names link-local and metadata addresses in every form, and nothing else', () => {
    for (const ip of [
      '169.254.169.254',
      '169.254.0.1',
      'fe80::1',
      'FE80::abcd',
      'fd00:ec2::254',
      '::ffff:169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::a9fe:a9fe',
    ]) {
      expect(linkLocalOrMetadata(ip), ip).toBeDefined();
    }
    expect(linkLocalOrMetadata('::ffff:169.254.169.254')).toMatch(
      /^::ffff:169\.254\.169\.254 embeds 169\.254\.169\.254, which is link-local/,
    );
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '192.168.1.1',
      '::1',
      'fd00::1',
      'fd00:ec2::253',
      '8.8.8.8',
      '2606:4700::1111',
      'localhost',
    ]) {
      expect(linkLocalOrMetadata(ip), ip).toBeUndefined();
    }
  });
});

describe('allowedHosts in an HTTP server entry', () => {
  it('is accepted for http servers only', () => {
    expect(parseServerConfig({ url: 'http://a/mcp', allowedHosts: ['b.example', '*.corp'] })).toMatchObject({
      ok: true,
      config: { allowedHosts: ['b.example', '*.corp'] },
    });
    expect(parseServerConfig({ command: 'x', allowedHosts: ['b'] }).ok).toBe(false);
  });
});

describe('guarded MCP transport', () => {
  it('reaches a local server on its configured loopback host, streaming included', async () => {
    const { url } = await localMcpServer();
    const runtime = testRuntime(allowAll);
    const manager = new McpManager();
    closers.push(() => manager.close());
    manager.connectAll({ local: { type: 'http', url } }, { registry: runtime.registry });
    await manager.ready();
    expect(manager.list()[0]).toMatchObject({ state: 'connected', transport: 'http', toolCount: 2 });
    expect(textOf(await runtime.call('mcp__local__Echo', { text: 'through the guard' }))).toBe('through the guard');
    // The progress notification came over the call's SSE stream, ahead of the result.
    expect(runtime.events.filter((event) => event.type === 'tool_progress')).toHaveLength(1);
  });

  it('refuses link-local and metadata addresses even as the configured host, naming server, host and reason', async () => {
    const meta = await statusOf('meta', 'http://169.254.169.254/mcp');
    expect(meta.state).toBe('failed');
    expect(meta.error).toMatch(
      /^MCP server "meta": refused to connect to 169\.254\.169\.254: 169\.254\.169\.254 is link-local.*never MCP servers/,
    );
    const v6 = await statusOf('v6', 'http://[fe80::1]:8080/mcp');
    expect(v6.error).toMatch(/^MCP server "v6": refused to connect to \[fe80::1\]:8080: fe80::1 is link-local/);
    const mapped = await statusOf('mapped', 'http://[::ffff:169.254.169.254]/mcp');
    expect(mapped.error).toMatch(/refused.*embeds 169\.254\.169\.254, which is link-local/);
  });

  it('refuses a configured host name that resolves to a metadata address', async () => {
    const fetch = guardedFetch({ server: 'cloud', url: 'http://metadata.test/mcp', resolver: scriptedResolver('169.254.169.254') });
    await expect(fetch('http://metadata.test/mcp')).rejects.toThrow(
      'MCP server "cloud": refused to connect to metadata.test (169.254.169.254): 169.254.169.254 is link-local, where cloud metadata services live (169.254/16); such addresses are never MCP servers',
    );
    const v6 = guardedFetch({ server: 'cloud', url: 'http://metadata.test/mcp', resolver: scriptedResolver('fd00:ec2::254') });
    await expect(v6('http://metadata.test/mcp')).rejects.toThrow(/\(fd00:ec2::254\): fd00:ec2::254 is the AWS metadata service/);
  });

  it('refuses a redirect to a private address on another host, and follows it when that host is allowed', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const target = await httpServer((req, res) => {
      seen.push(req.headers);
      res.end('inside');
    });
    const { url } = await httpServer((_req, res) => {
      res.writeHead(307, { location: `http://internal.test:${target.port}/secret` }).end();
    });
    const resolver = scriptedResolver('127.0.0.1');
    const init = { method: 'POST', body: '{}', headers: { authorization: 'Bearer s3cret', 'content-type': 'application/json' } };

    const refusing = guardedFetch({ server: 'remote', url, resolver });
    await expect(refusing(url, init)).rejects.toThrow(
      new RegExp(
        `MCP server "remote": refused to connect to internal\\.test:${target.port}: internal\\.test resolves to 127\\.0\\.0\\.1, which is loopback.*allowedHosts.*redirect from ${url}`,
      ),
    );
    expect(seen).toEqual([]);

    const allowing = guardedFetch({ server: 'remote', url, allowedHosts: ['internal.test'], resolver });
    const response = await allowing(url, init);
    expect(await response.text()).toBe('inside');
    // Another origin gets the protocol headers, not the server's credentials.
    expect(seen[0].authorization).toBeUndefined();
    expect(seen[0]['content-type']).toBe('application/json');
  });

  it('connects to the first checked address for the transport’s life, whatever DNS answers later', async () => {
    const local = await localMcpServer();
    const addresses: string[] = [];
    const { port } = await httpServer((req, res) => {
      addresses.push(req.socket.localAddress ?? '');
      // A new connection per request, so every request connects (and would look up) afresh.
      res.writeHead(200, { connection: 'close' }).end('ok');
    });
    // Nothing listens on 127.0.0.2: a connection there would fail.
    const resolver = scriptedResolver('127.0.0.1', '127.0.0.2');
    const fetch = guardedFetch({ server: 'pinned', url: `http://pinned.test:${port}/`, resolver });
    for (let i = 0; i < 3; i++) expect(await (await fetch(`http://pinned.test:${port}/`)).text()).toBe('ok');
    expect(addresses).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
    expect(resolver.calls).toEqual(['pinned.test']);

    // A whole MCP session (POSTs, the SSE stream) through the SDK's transport keeps to the pin too.
    const mcpResolver = scriptedResolver('127.0.0.1', '169.254.169.254');
    const url = `http://mcp.test:${local.port}/mcp`;
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        fetch: guardedFetch({ server: 'pinned', url, resolver: mcpResolver }),
        redirectPolicy: 'follow',
      }),
    );
    closers.push(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['Echo', 'Shout']);
    expect(await client.callTool({ name: 'Echo', arguments: { text: 'pinned' } })).toMatchObject({
      content: [{ type: 'text', text: 'pinned' }],
    });
    expect(mcpResolver.calls).toEqual(['mcp.test']);
  });

  it('streams a response as it arrives', async () => {
    let finish = () => {};
    const { url } = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      finish = () => res.end('data: second\n\n');
    });
    const response = await guardedFetch({ server: 'sse', url })(url);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    finish();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: second\n\n');
    expect((await reader.read()).done).toBe(true);
  });
});
