// createCliRuntime in process: the ToolSearch index's sync under registry churn, and the
// settings it hands to ToolSearch deferral.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCliRuntime, type CliRuntime } from '../../src/cli/runtime.js';
import { runToolCall } from '../../src/runtime/pipeline/run.js';
import { ToolIndex } from '../../src/runtime/search/tool-index.js';
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
});
