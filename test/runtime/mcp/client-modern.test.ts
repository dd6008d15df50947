// wield as a client of both MCP revisions: 2026-07-28 with wield's own gateway (`wield mcp serve
// --http`, a real process), 2025-11-25 with server-everything from npm (it speaks only that);
// permission questions that come back as input_required reach the person and the call is retried.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpElicitation } from '../../../src/runtime/mcp/elicit.js';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { buildCli, cleanEnv, tempDir as cliTempDir } from '../../cli/helpers.js';
import { type ServedGateway, startGateway } from '../../support/mcp-servers/modern-http.js';
import { serverEntry, tempDir, testRuntime, textOf, type TestRuntime } from './helpers.js';

const EVERYTHING = serverEntry('@modelcontextprotocol/server-everything');

let cleanup = (): void => undefined;
let gateway: ServedGateway;
let project: string;
const managers: McpManager[] = [];
beforeAll(async () => {
  const built = await buildCli();
  cleanup = built.cleanup;
  project = cliTempDir('wield-client-modern-');
  const home = cliTempDir('wield-client-modern-home-');
  gateway = await startGateway(built.cli, ['--task-after', '0.5', '--allow', 'Bash(sleep *)'], { cwd: project, env: cleanEnv(home) });
}, 60_000);
afterAll(async () => {
  await Promise.all(managers.map((m) => m.close()));
  await gateway?.stop();
  cleanup();
});

type Answer = { action: 'accept' | 'decline'; content?: { allow: boolean } };

async function connect(
  configs: Parameters<McpManager['connectAll']>[0],
  answer?: Answer,
): Promise<TestRuntime & { manager: McpManager; asked: McpElicitation[] }> {
  const runtime = testRuntime(allowAll);
  const asked: McpElicitation[] = [];
  const manager = new McpManager({
    features: answer
      ? {
          elicit: async (request) => {
            asked.push(request);
            return answer;
          },
        }
      : {},
  });
  managers.push(manager);
  manager.connectAll(configs, { registry: runtime.registry, logDir: tempDir('logs') });
  await manager.ready();
  return { ...runtime, manager, asked };
}

describe('protocol revision, per server', () => {
  it('speaks 2026-07-28 with a server that does, 2025-11-25 with one that does not, side by side', async () => {
    const env = await connect({
      gateway: { type: 'http', url: gateway.url },
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    });
    const byName = Object.fromEntries(env.manager.list().map((s) => [s.name, s]));
    expect(byName.gateway).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28' });
    expect(byName.everything).toMatchObject({ state: 'connected', protocolVersion: '2025-11-25' });
    const read = await env.call('mcp__gateway__Read', { file_path: path.join(project, 'missing.txt') });
    expect(read.isError).toBe(true);
    expect(textOf(await env.call('mcp__everything__echo', { message: 'legacy hi' }))).toContain('legacy hi');
  }, 30_000);
});

describe('multi-round-trip requests (input_required)', () => {
  it("a permission question reaches the person's elicit handler; accepted, the call is retried and runs", async () => {
    const env = await connect({ gateway: { type: 'http', url: gateway.url } }, { action: 'accept', content: { allow: true } });
    const file = path.join(project, 'asked.txt');
    const result = await env.call('mcp__gateway__Write', { file_path: file, content: 'yes' });
    expect(result.isError).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('yes');
    expect(env.asked).toHaveLength(1);
    expect(env.asked[0]).toMatchObject({ server: 'gateway', mode: 'form' });
    expect(env.asked[0].message).toContain('Allow Write?');
  }, 30_000);

  it('declined, the call does not run and the model is told why', async () => {
    const env = await connect({ gateway: { type: 'http', url: gateway.url } }, { action: 'decline' });
    const file = path.join(project, 'declined.txt');
    const result = await env.call('mcp__gateway__Write', { file_path: file, content: 'no' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('declined the request in the MCP client');
    expect(existsSync(file)).toBe(false);
  }, 30_000);
});
