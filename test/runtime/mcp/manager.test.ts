// The manager's view of servers still connecting, as ToolSearch uses it: a search sent before a
// slow-starting server (real server-everything, started late) has connected waits for it, or,
// past the bound, says which servers are still connecting instead of "No tools matched".
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { ToolIndex } from '../../../src/runtime/search/tool-index.js';
import { createToolSearchTool } from '../../../src/runtime/search/tool.js';
import { FAULTY_SERVER, serverEntry, tempDir, testRuntime, textOf } from './helpers.js';

const EVERYTHING = serverEntry('@modelcontextprotocol/server-everything');
const SLOW_START = path.join(path.dirname(FAULTY_SERVER), 'slow-start.mjs');

const managers: McpManager[] = [];
afterAll(async () => {
  await Promise.all(managers.map((m) => m.close()));
});

/** A pool with ToolSearch wired as the CLI wires it, and server-everything starting `delayMs` late. */
function slowPool(delayMs: number, waitMs?: number) {
  const runtime = testRuntime(allowAll);
  const manager = new McpManager();
  managers.push(manager);
  const index = new ToolIndex();
  runtime.registry.register(
    createToolSearchTool(
      () => {
        index.sync(runtime.registry.pool());
        return index;
      },
      { waitForSources: (signal) => manager.settleConnecting(signal, waitMs) },
    ),
  );
  manager.connectAll(
    { slow: { command: process.execPath, args: [SLOW_START, String(delayMs), EVERYTHING, 'stdio'] } },
    { registry: runtime.registry, logDir: tempDir('slow-logs') },
  );
  return { ...runtime, manager };
}

describe('ToolSearch and servers still connecting', () => {
  it('a search sent before the server connected waits for it and finds its tools', async () => {
    const { call, manager } = slowPool(1_500);
    expect(manager.connecting()).toEqual(['slow']);
    const started = Date.now();
    const result = await call('ToolSearch', { query: 'echo back a message' });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain('mcp__slow__echo');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(manager.connecting()).toEqual([]);
  }, 30_000);

  it('past the bound, it names the servers still connecting instead of "No tools matched"', async () => {
    const { call, manager } = slowPool(4_000, 300);
    const started = Date.now();
    const result = await call('ToolSearch', { query: 'echo back a message' });
    expect(Date.now() - started).toBeLessThan(2_500);
    const text = textOf(result);
    expect(text).not.toContain('No tools matched');
    expect(text).toContain('MCP server "slow" is still connecting');
    // Once it is up, the same search finds the tool (and waits for nothing).
    await manager.ready();
    expect(manager.connecting()).toEqual([]);
    expect(textOf(await call('ToolSearch', { query: 'echo back a message' }))).toContain('mcp__slow__echo');
  }, 30_000);

  it('with every server connected (or failed), a search waits for nothing', async () => {
    const manager = new McpManager();
    managers.push(manager);
    const { registry } = testRuntime(allowAll);
    manager.connectAll({ broken: { command: process.execPath, args: ['-e', 'process.exit(1)'] } }, { registry });
    await manager.ready();
    const started = Date.now();
    expect(await manager.settleConnecting(undefined, 5_000)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(100);
  }, 30_000);
});
