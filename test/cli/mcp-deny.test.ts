// Denying a whole MCP server (`mcp__docs`) must stop it: not only its tools but its resources, and
// its process. Against real server-everything over stdio, started through a shell that leaves a
// marker file, so "not started" is seen, not inferred.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCliRuntime } from '../../src/cli/runtime.js';
import { withoutDeniedServers } from '../../src/cli/mcp-deny.js';
import { parseRule } from '../../src/coding/permissions/rules.js';
import { runToolCall } from '../../src/runtime/pipeline/run.js';
import { textBlocks } from '../../src/runtime/agent/history.js';
import { serverEntry } from '../runtime/mcp/helpers.js';
import { cleanEnv, tempDir } from './helpers.js';

const EVERYTHING = serverEntry('@modelcontextprotocol/server-everything');
const DOC = 'demo://resource/static/document/architecture.md';

/** A runtime whose settings configure `docs` (leaving `marker` when started) and `other`, with these deny rules. */
async function runtimeWith(deny: string[]) {
  const home = tempDir('wield-mcp-deny-home-');
  const marker = path.join(home, 'docs-started');
  const server = (name: string, prefix = '') => ({
    command: 'bash',
    args: ['-c', `${prefix}exec "${process.execPath}" "${EVERYTHING}" stdio`],
    description: name,
  });
  mkdirSync(path.join(home, '.wield'));
  writeFileSync(
    path.join(home, '.wield', 'settings.json'),
    JSON.stringify({ mcpServers: { docs: server('docs', `touch "${marker}"; `), other: server('other') }, permissions: { deny } }),
  );
  const runtime = await createCliRuntime({ cwd: tempDir('wield-mcp-deny-cwd-'), flags: {}, env: cleanEnv(home) });
  await runtime.mcpReady();
  const call = async (name: string, input: object) =>
    textBlocks((await runToolCall({ id: name, name, input }, runtime.rt, new AbortController().signal)).content);
  return { runtime, marker, call };
}

describe('a deny rule naming a whole MCP server', () => {
  it('keeps the server from starting, so its resources cannot be listed or read', async () => {
    // Its tools alone denied (the hole): the server runs and its resources stay readable.
    const tools = await runtimeWith(['mcp__docs__echo']);
    try {
      expect(existsSync(tools.marker)).toBe(true);
      expect(await tools.call('ReadMcpResource', { server: 'docs', uri: DOC })).toContain('[docs:');
    } finally {
      await tools.runtime.close();
    }

    for (const rule of ['mcp__docs', 'mcp__docs__*']) {
      const denied = await runtimeWith([rule]);
      try {
        expect(existsSync(denied.marker)).toBe(false);
        expect(denied.runtime.mcp?.list().map((server) => server.name)).toEqual(['other']);
        const listed = await denied.call('ListMcpResources', {});
        expect(listed).toContain('other:');
        expect(listed).not.toMatch(/(^|\s)docs:/m);
        expect(await denied.call('ReadMcpResource', { server: 'docs', uri: DOC })).toContain('No MCP server named "docs"');
        expect(denied.runtime.registry.all().some((tool) => tool.name.startsWith('mcp__docs__'))).toBe(false);
        expect(denied.runtime.mcpConfigs.notes).toContain(
          `MCP server denied whole: "docs" is not started, as the deny rule ${rule} refuses all its tools and resources`,
        );
        expect(denied.runtime.notices.join('\n')).not.toContain('denied whole');
      } finally {
        await denied.runtime.close();
      }
    }
  }, 60_000);

  it('names a server only by a whole-server rule: one tool, or a rule with content, leaves it running', () => {
    const rules = (texts: string[]) =>
      texts.map((text) => {
        const parsed = parseRule(text);
        if (!parsed.ok) throw new Error(parsed.message);
        return { ...parsed.rule, text, source: 'test', base: '/' };
      });
    const configs = { servers: { docs: { command: 'x' }, 'my.docs': { command: 'y' } }, errors: [], notes: [] };
    const kept = (texts: string[]) => Object.keys(withoutDeniedServers(configs, rules(texts)).servers);
    expect(kept(['mcp__docs__search', 'mcp__other'])).toEqual(['docs', 'my.docs']);
    expect(kept(['mcp__docs'])).toEqual(['my.docs']);
    // A server's rule uses its name as tool names carry it (`.` becomes `_`).
    expect(kept(['mcp__my_docs__*'])).toEqual(['docs']);
  });
});
