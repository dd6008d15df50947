// The client against real MCP servers from npm: server-everything over stdio and Streamable
// HTTP, server-filesystem over stdio. Every call goes through the pipeline.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { serverEntry, tempDir, testRuntime, textOf, type TestRuntime } from './helpers.js';
import { freePort } from '../../support/conformance/servers.js';

const EVERYTHING = serverEntry('@modelcontextprotocol/server-everything');
const FILESYSTEM = serverEntry('@modelcontextprotocol/server-filesystem');

const managers: McpManager[] = [];
afterAll(async () => {
  await Promise.all(managers.map((m) => m.close()));
});

async function connect(configs: Parameters<McpManager['connectAll']>[0]): Promise<TestRuntime & { manager: McpManager }> {
  const runtime = testRuntime(allowAll);
  const manager = new McpManager();
  managers.push(manager);
  manager.connectAll(configs, { registry: runtime.registry, logDir: tempDir('logs') });
  await manager.ready();
  return { ...runtime, manager };
}

describe('server-everything over stdio', () => {
  let env: TestRuntime & { manager: McpManager };
  beforeAll(async () => {
    env = await connect({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trustAnnotations: true } });
  });

  it('lists its tools with annotations mapped for a trusted server', () => {
    const [status] = env.manager.list();
    expect(status).toMatchObject({ state: 'connected', toolErrors: [] });
    const echo = env.registry.get('mcp__everything__echo');
    expect(echo?.source).toBe('mcp');
    expect(echo?.isReadOnly({})).toBe(true);
    expect(echo?.isConcurrencySafe({})).toBe(true);
    expect(echo?.isDestructive({})).toBe(false);
  });

  it('calls tools: text, images, structured content', async () => {
    expect(textOf(await env.call('mcp__everything__echo', { message: 'hi there' }))).toContain('hi there');
    const sum = await env.call('mcp__everything__get-sum', { a: 2, b: 40 });
    expect(textOf(sum)).toContain('42');
    const image = await env.call('mcp__everything__get-tiny-image', {});
    const block = image.content.find((item) => item.type === 'image');
    expect(block).toMatchObject({ type: 'image', mediaType: 'image/png' });
    const structured = await env.call('mcp__everything__get-structured-content', { location: 'New York' });
    expect(structured.isError).toBe(false);
    expect(structured.structured).toBeTypeOf('object');
  });

  it('forwards progress notifications', async () => {
    const result = await env.call('mcp__everything__trigger-long-running-operation', { duration: 0.3, steps: 3 });
    expect(textOf(result)).toContain('Long running operation completed');
    // The server sends its last progress right before the result; the SDK may handle the result
    // first and drop that one, so at least the earlier steps must have arrived, in order.
    const progress = env.events.flatMap((event) => (event.type === 'tool_progress' ? [event.progress.progress ?? 0] : []));
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.slice(0, 2)).toEqual([1, 2]);
  });

  it('applies tools/list_changed: tools registered after initialisation appear', async () => {
    // The server registers simulate-research-query once initialised and announces it with list_changed.
    await expect.poll(() => env.registry.get('mcp__everything__simulate-research-query') !== undefined, { timeout: 10_000 }).toBe(true);
  });
});

describe('server-everything over Streamable HTTP', () => {
  let child: ChildProcess;
  let env: TestRuntime & { manager: McpManager };
  beforeAll(async () => {
    const port = await freePort();
    child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('listening')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
    });
    env = await connect({ remote: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } });
  });
  afterAll(() => {
    child?.kill();
  });

  it('lists and calls over HTTP; annotations of an untrusted server are not believed', async () => {
    expect(env.manager.list()[0]).toMatchObject({ state: 'connected', transport: 'http' });
    const echo = env.registry.get('mcp__remote__echo');
    expect(echo?.isReadOnly({})).toBe(false);
    expect(echo?.isDestructive({})).toBe(true);
    expect(textOf(await env.call('mcp__remote__echo', { message: 'over http' }))).toContain('over http');
    const image = await env.call('mcp__remote__get-tiny-image', {});
    expect(image.content.some((block) => block.type === 'image')).toBe(true);
    await env.call('mcp__remote__trigger-long-running-operation', { duration: 0.3, steps: 3 });
    expect(env.events.filter((event) => event.type === 'tool_progress').length).toBeGreaterThanOrEqual(2);
  });
});

describe('server-filesystem over stdio', () => {
  let env: TestRuntime & { manager: McpManager };
  let root: string;
  beforeAll(async () => {
    root = tempDir('fs-root');
    writeFileSync(path.join(root, 'note.txt'), 'hello from a file\n');
    env = await connect({ fs: { command: process.execPath, args: [FILESYSTEM, root] } });
  });

  it('reads and lists files', async () => {
    expect(textOf(await env.call('mcp__fs__read_text_file', { path: path.join(root, 'note.txt') }))).toContain('hello from a file');
    expect(textOf(await env.call('mcp__fs__list_directory', { path: root }))).toContain('note.txt');
  });

  it('keeps error results as errors', async () => {
    const missing = await env.call('mcp__fs__read_text_file', { path: path.join(root, 'absent.txt') });
    expect(missing.isError).toBe(true);
    const outside = await env.call('mcp__fs__read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/denied|outside|not allowed/i);
  });
});
