// createCliRuntime in process: the ToolSearch index's sync under registry churn, the settings it
// hands to ToolSearch deferral, and RunCode under deferral; the notes on MCP servers not connected.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCliRuntime, type CliRuntime, mcpFailures } from '../../src/cli/runtime.js';
import type { McpServerStatus } from '../../src/runtime/mcp/server-status.js';
import { serverStatus } from '../support/server-status.js';
import { runToolCall } from '../../src/runtime/pipeline/run.js';
import { ToolIndex } from '../../src/runtime/search/tool-index.js';
import { selectToolsForRequest } from '../../src/runtime/search/defer.js';
import { defineTool } from '../../src/runtime/tool/define.js';
import { cleanEnv, tempDir } from './helpers.js';

let runtime: CliRuntime | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await runtime?.close();
  runtime = undefined;
});

function open(mcpConfig?: string): Promise<CliRuntime> {
  const home = tempDir('wield-runtime-home-');
  return createCliRuntime({ cwd: tempDir('wield-runtime-cwd-'), flags: { mcpConfig }, env: cleanEnv(home) });
}

describe('createCliRuntime', () => {
  it('syncs the ToolSearch index once when searched, not once per registered tool', async () => {
    runtime = await open();
    const sync = vi.spyOn(ToolIndex.prototype, 'sync');
    for (let i = 0; i < 500; i++) {
      runtime.registry.register(
        defineTool({
          name: `mcp__load__tool_${i}`,
          source: 'mcp',
          description: `Frobnicates widget number ${i}`,
          inputJSONSchema: { type: 'object' },
          call: async () => 'ok',
        }),
      );
    }
    expect(sync).not.toHaveBeenCalled();
    const result = await runToolCall(
      { id: 's1', name: 'ToolSearch', input: { query: 'select:mcp__load__tool_499' } },
      runtime.rt,
      new AbortController().signal,
    );
    expect(JSON.stringify(result.content)).toContain('mcp__load__tool_499');
    expect(sync).toHaveBeenCalledTimes(1);
    await runToolCall({ id: 's2', name: 'ToolSearch', input: { query: 'widget' } }, runtime.rt, new AbortController().signal);
    expect(sync).toHaveBeenCalledTimes(1);
  });

  it('passes toolSearch settings and per-server alwaysLoad and description to deferral', async () => {
    runtime = await open(
      JSON.stringify({
        mcpServers: {
          docs: { command: 'docs-server', disabled: true, alwaysLoad: true },
          tickets: { type: 'http', url: 'http://127.0.0.1:1/mcp', disabled: true, description: 'Issue tracker' },
        },
      }),
    );
    expect(runtime.deferral).toMatchObject({
      enabled: runtime.settings.toolSearch.enabled,
      alwaysLoadServers: ['docs'],
      serverDescriptions: { tickets: 'Issue tracker' },
    });
    expect(runtime.mcp?.list().map((server) => [server.name, server.state])).toEqual([
      ['docs', 'disabled'],
      ['tickets', 'disabled'],
    ]);
  });

  it('offers RunCode in every request; under deferral its listing is what the request sends, and a program calls the rest by name', async () => {
    runtime = await open();
    for (let i = 0; i < 50; i++)
      runtime.registry.register(
        defineTool({
          name: `mcp__load__tool_${i}`,
          source: 'mcp',
          description: `Frobnicates widget number ${i}`,
          inputJSONSchema: { type: 'object' },
          isReadOnly: () => true,
          call: async () => `widget ${i} done`,
        }),
      );
    const selection = selectToolsForRequest(runtime.registry.pool(), [], runtime.deferral);
    const sent = selection.tools.map((tool) => tool.name);
    expect(sent).toContain('RunCode');
    expect(selection.deferred.map((tool) => tool.name)).toContain('mcp__load__tool_7');
    const description = selection.tools.find((tool) => tool.name === 'RunCode')?.description({ cwd: runtime.session.cwd }) ?? '';
    expect(description).toContain('tools.Read(input:');
    expect(description).not.toContain('mcp__load__tool_');
    expect(description).toContain(
      'More tools are deferred: call ToolSearch yourself to load their definitions, then call them here by name.',
    );
    // The listing follows the registry: a tool registered later, always loaded, is listed from then on.
    runtime.registry.register(
      defineTool({
        name: 'mcp__pinned__tool',
        source: 'mcp',
        description: 'Pinned',
        inputJSONSchema: { type: 'object' },
        alwaysLoad: true,
        call: async () => 'ok',
      }),
    );
    const runCode = runtime.registry.all().find((tool) => tool.name === 'RunCode');
    expect(runCode?.description({ cwd: runtime.session.cwd })).toContain('tools.mcp__pinned__tool(input:');
    const code = `console.log(await tools.ToolSearch({ query: "select:mcp__load__tool_7" }));
console.log(await tools.mcp__load__tool_7({}));`;
    const result = await runToolCall({ id: 'p', name: 'RunCode', input: { code } }, runtime.rt, new AbortController().signal);
    const text = JSON.stringify(result.content);
    expect(text).toContain('mcp__load__tool_7');
    expect(text).toContain('widget 7 done');
    expect(text).toContain('Tool calls (2): ToolSearch ok · mcp__load__tool_7 ok');
  });
});

describe('mcpFailures', () => {
  const server = (name: string, state: McpServerStatus['state'], error?: string) =>
    serverStatus(name, state, { logFile: `/logs/${name}.log`, error });
  const servers = [
    server('up', 'connected'),
    server('dead', 'failed', 'spawn ENOENT'),
    server('slow', 'connecting', 'no answer within 30 s yet'),
  ];

  it('a session that goes on: a server still connecting joins when it is up', () => {
    expect(mcpFailures(servers, true)).toEqual([
      'MCP server "dead" did not start, so its tools are missing: spawn ENOENT (its output: /logs/dead.log); `wield mcp list` shows every server',
      'MCP server "slow" is still connecting (no answer within 30 s yet); its tools join the session when it is up',
    ]);
  });

  it('a command that ends now: a server still connecting is missing, like one that failed', () => {
    expect(mcpFailures(servers)[1]).toBe(
      'MCP server "slow" did not connect in time, so its tools are missing: no answer within 30 s yet (its output: /logs/slow.log); `wield mcp list` shows every server',
    );
  });
});
