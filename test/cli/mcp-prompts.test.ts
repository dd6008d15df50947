// MCP prompts as slash commands: `/mcp__server__prompt name=value …` is read locally, and the
// server's prompt (real server-everything over stdio) becomes the text sent as the user's prompt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSlashLine } from '../../src/cli/slash-commands.js';
import { mcpPromptText } from '../../src/cli/slash-run.js';
import { McpManager } from '../../src/runtime/mcp/manager.js';
import { allowAll } from '../../src/runtime/pipeline/policies.js';
import { serverEntry, tempDir, testRuntime } from '../runtime/mcp/helpers.js';

const signal = new AbortController().signal;
let manager: McpManager;

beforeAll(async () => {
  const runtime = testRuntime(allowAll);
  manager = new McpManager();
  manager.connectAll(
    { everything: { command: process.execPath, args: [serverEntry('@modelcontextprotocol/server-everything'), 'stdio'] } },
    { registry: runtime.registry, logDir: tempDir('prompt-logs') },
  );
  await manager.ready();
}, 30_000);
afterAll(async () => {
  await manager.close();
});

describe('MCP prompts as slash commands', () => {
  it('reads /mcp__server__prompt with name=value arguments, quoted values kept whole', () => {
    expect(readSlashLine('/mcp__everything__args-prompt city=Lyon state="Auvergne Rhône"')).toEqual({
      kind: 'mcp-prompt',
      server: 'everything',
      prompt: 'args-prompt',
      args: { city: 'Lyon', state: 'Auvergne Rhône' },
    });
    expect(readSlashLine('/mcp__everything__simple-prompt')).toMatchObject({ kind: 'mcp-prompt', args: {} });
    const bad = readSlashLine('/mcp__everything__args-prompt Lyon');
    expect(bad).toMatchObject({ kind: 'unknown' });
    expect(bad.kind === 'unknown' && bad.message).toMatch(/takes arguments as name=value .*not "Lyon"\. Nothing was sent/);
  });

  it("sends the server's prompt text; a missing prompt or no MCP servers is a local error", async () => {
    const line = readSlashLine('/mcp__everything__args-prompt city=Lyon');
    if (line.kind !== 'mcp-prompt') throw new Error('not read as an MCP prompt');
    const text = await mcpPromptText(manager, line, signal);
    expect(text.ok).toBe(true);
    expect(text.ok && text.text).toContain('Lyon');
    const missing = readSlashLine('/mcp__everything__no-such-prompt');
    if (missing.kind !== 'mcp-prompt') throw new Error('not read as an MCP prompt');
    expect(await mcpPromptText(manager, missing, signal)).toMatchObject({ ok: false, message: expect.stringContaining('no-such-prompt') });
    expect(await mcpPromptText(undefined, line, signal)).toMatchObject({ ok: false, message: expect.stringContaining('no MCP servers') });
  });
});
