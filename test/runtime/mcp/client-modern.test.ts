// wield as a client of both MCP revisions: 2026-07-28 with wield's own gateway (`wield mcp serve
// --http`, a real process), 2025-11-25 with server-everything from npm (it speaks only that);
// permission questions that come back as input_required reach the person and the call is retried.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpElicitation } from '../../../src/runtime/mcp/elicit.js';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { createTaskTools } from '../../../src/runtime/mcp/task-jobs.js';
import { buildCli, cleanEnv, runCli, tempDir as cliTempDir } from '../../cli/helpers.js';
import { type ServedGateway, startGateway } from '../../support/mcp-servers/modern-http.js';
import { callTools, harness, reply, runScripted } from '../agent/scripted.js';
import { serverEntry, tempDir, testRuntime, textOf, type TestRuntime } from './helpers.js';

const EVERYTHING = serverEntry('@modelcontextprotocol/server-everything');

let cleanup = (): void => undefined;
let cli: string;
let home: string;
let gateway: ServedGateway;
let project: string;
const managers: McpManager[] = [];
beforeAll(async () => {
  const built = await buildCli();
  cleanup = built.cleanup;
  cli = built.cli;
  project = cliTempDir('wield-client-modern-');
  home = cliTempDir('wield-client-modern-home-');
  gateway = await startGateway(built.cli, ['--task-after', '0.5', '--allow', 'Bash(cat *)'], { cwd: project, env: cleanEnv(home) });
}, 60_000);
afterAll(async () => {
  await Promise.all(managers.map((m) => m.close()));
  await gateway?.stop();
  cleanup();
});

type Answer = { action: 'accept' | 'decline'; content?: Record<string, string | boolean> };

async function connect(
  configs: Parameters<McpManager['connectAll']>[0],
  answer?: Answer,
): Promise<TestRuntime & { manager: McpManager; asked: McpElicitation[]; notices: string[] }> {
  const runtime = testRuntime(allowAll);
  const asked: McpElicitation[] = [];
  const notices: string[] = [];
  const manager = new McpManager({
    notify: (message) => notices.push(message),
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
  for (const tool of createTaskTools(manager.jobs)) runtime.registry.register(tool);
  return { ...runtime, manager, asked, notices };
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

  it('"protocol" in the settings skips the probe: 2025-11-25 with a server that speaks both, a pinned 2026-07-28 fails loudly', async () => {
    const env = await connect({
      gateway: { type: 'http', url: gateway.url, protocol: '2025-11-25' },
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], protocol: '2026-07-28' },
    });
    const byName = Object.fromEntries(env.manager.list().map((s) => [s.name, s]));
    expect(byName.gateway).toMatchObject({ state: 'connected', protocolVersion: '2025-11-25' });
    expect(byName.everything.state).toBe('failed');
    expect(byName.everything.protocolVersion).toBeUndefined();
    expect(byName.everything.error).toContain('set "protocol" to "auto"');
    const read = await env.call('mcp__gateway__Read', { file_path: path.join(project, 'missing.txt') });
    expect(read.isError).toBe(true);
  }, 60_000);

  it('`wield mcp list` shows each revision, in the table and in --json', async () => {
    const config = JSON.stringify({
      mcpServers: {
        gateway: { type: 'http', url: gateway.url },
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      },
    });
    const options = { cwd: project, env: cleanEnv(home), timeoutMs: 30_000 };
    const table = await runCli(cli, ['mcp', 'list', '--mcp-config', config], options);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^SERVER\s+TRANSPORT\s+PROTOCOL\s+STATE\s+TOOLS/);
    expect(lines.find((line) => line.startsWith('gateway'))).toMatch(/^gateway\s+http\s+2026-07-28\s+connected/);
    expect(lines.find((line) => line.startsWith('everything'))).toMatch(/^everything\s+stdio\s+2025-11-25\s+connected/);
    const json = await runCli(cli, ['mcp', 'list', '--json', '--mcp-config', config], options);
    const servers = (JSON.parse(json.stdout) as { servers: { name: string; protocolVersion?: string }[] }).servers;
    expect(Object.fromEntries(servers.map((s) => [s.name, s.protocolVersion]))).toEqual({
      gateway: '2026-07-28',
      everything: '2025-11-25',
    });
  }, 60_000);
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

describe('Tasks (io.modelcontextprotocol/tasks) as background jobs', () => {
  /** Starts a Bash call that blocks on a FIFO until the test writes to it; resolves with the job id. */
  async function blockedJob(env: TestRuntime, name: string): Promise<{ id: string; fifo: string }> {
    const fifo = path.join(project, name);
    execFileSync('mkfifo', [fifo]);
    // The call returns while the command still blocks: the turn is not held by the task.
    const started = await env.call('mcp__gateway__Bash', { command: `cat ${name}` });
    expect(started.isError).toBe(false);
    const id = /background task (mcp-task-\d+)/.exec(textOf(started))?.[1];
    expect(id, textOf(started)).toBeDefined();
    expect(textOf(started)).toContain('McpTaskResult');
    return { id: id as string, fifo };
  }

  it('a long call returns a job id at once; McpTaskResult polls it, then waits for its result', async () => {
    const env = await connect({ gateway: { type: 'http', url: gateway.url } });
    const { id, fifo } = await blockedJob(env, 'report.fifo');
    expect(env.notices.some((notice) => notice.includes(`background task ${id}`))).toBe(true);
    expect(textOf(await env.call('McpTaskResult', { task_id: id }))).toContain('still running');
    writeFileSync(fifo, 'the report\n');
    const done = await env.call('McpTaskResult', { task_id: id, wait_seconds: 30 });
    expect(done.isError).toBe(false);
    expect(textOf(done)).toContain('the report');
    expect(env.notices).toContain(`MCP task ${id} ("Bash") completed`);
  }, 40_000);

  it('McpTaskCancel cancels the task on the server; an unknown id is a clear error', async () => {
    const env = await connect({ gateway: { type: 'http', url: gateway.url } });
    const { id } = await blockedJob(env, 'never.fifo');
    expect(textOf(await env.call('McpTaskCancel', { task_id: id }))).toContain('Asked the server to cancel');
    const ended = await env.call('McpTaskResult', { task_id: id, wait_seconds: 30 });
    expect(ended.isError).toBe(true);
    expect(textOf(ended)).toContain('was cancelled');
    const unknown = await env.call('McpTaskResult', { task_id: 'mcp-task-99' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('No MCP background task "mcp-task-99"');
  }, 40_000);

  it('with a scripted model: the turn ends while the task runs; a later turn waits for the result', async () => {
    const h = harness([]);
    const manager = new McpManager();
    managers.push(manager);
    manager.connectAll({ gateway: { type: 'http', url: gateway.url } }, { registry: h.registry });
    await manager.ready();
    for (const tool of createTaskTools(manager.jobs)) h.registry.register(tool);
    const fifo = path.join(project, 'turn.fifo');
    execFileSync('mkfifo', [fifo]);

    const first = await runScripted(
      [callTools([{ id: 'c1', name: 'mcp__gateway__Bash', input: JSON.stringify({ command: 'cat turn.fifo' }) }]), reply('started it')],
      { h },
    );
    expect(first.result.answer).toBe('started it');
    expect(manager.jobs.running()).toBe(1);

    writeFileSync(fifo, 'late report\n');
    const second = await runScripted(
      [
        callTools([{ id: 'c2', name: 'McpTaskResult', input: JSON.stringify({ task_id: 'mcp-task-1', wait_seconds: 30 }) }]),
        reply('got it'),
      ],
      { h },
    );
    expect(second.result.answer).toBe('got it');
    expect(JSON.stringify(second.provider.requests[1].messages.at(-1))).toContain('late report');
    expect(manager.jobs.running()).toBe(0);
  }, 40_000);

  it("a 2026-07-28 task's question (input_required) reaches the person; the answer goes back with tasks/update", async () => {
    const env = await connect({ gateway: { type: 'http', url: gateway.url } }, { action: 'accept', content: { allow: true } });
    const fifo = path.join(project, 'asks.fifo');
    execFileSync('mkfifo', [fifo]);
    const file = path.join(project, 'asked-by-task.txt');
    // The program waits, then writes: the Write's permission is asked while it runs as a task.
    const code = `await tools.Bash({ command: 'cat asks.fifo' }); await tools.Write({ file_path: ${JSON.stringify(file)}, content: 'yes' }); console.log('written');`;
    const started = await env.call('mcp__gateway__RunCode', { code });
    const id = /background task (mcp-task-\d+)/.exec(textOf(started))?.[1] as string;
    expect(id, textOf(started)).toBeDefined();
    writeFileSync(fifo, 'go\n');
    const done = await env.call('McpTaskResult', { task_id: id, wait_seconds: 60 });
    expect(done.isError, textOf(done)).toBe(false);
    expect(textOf(done)).toContain('written');
    expect(readFileSync(file, 'utf8')).toBe('yes');
    expect(env.asked).toHaveLength(1);
    expect(env.asked[0]).toMatchObject({ server: 'gateway', mode: 'form', message: expect.stringContaining('Allow Write?') });
    expect(env.notices.some((notice) => notice.includes('waiting for permission'))).toBe(true);
  }, 60_000);

  it("a 2025-11-25 server's task-required tool (server-everything's simulate-research-query) runs as a job", async () => {
    const env = await connect({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    // The server registers it once initialised and announces it with list_changed.
    await expect.poll(() => env.registry.get('mcp__everything__simulate-research-query') !== undefined, { timeout: 10_000 }).toBe(true);
    const started = await env.call('mcp__everything__simulate-research-query', { topic: 'tidal power' });
    expect(started.isError, textOf(started)).toBe(false);
    const id = /background task (mcp-task-\d+)/.exec(textOf(started))?.[1] as string;
    expect(id).toBeDefined();
    const report = await env.call('McpTaskResult', { task_id: id, wait_seconds: 60 });
    expect(report.isError).toBe(false);
    expect(textOf(report)).toContain('Research Report: tidal power');
    // Its stages were shown to the person as they came.
    expect(env.notices.some((notice) => notice.includes('Synthesizing findings'))).toBe(true);
  }, 60_000);

  it("a 2025-11-25 task's question (input_required) reaches the person, and the answer shapes the result", async () => {
    const env = await connect(
      { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
      { action: 'accept', content: { interpretation: 'programming' } },
    );
    await expect.poll(() => env.registry.get('mcp__everything__simulate-research-query') !== undefined, { timeout: 10_000 }).toBe(true);
    const started = await env.call('mcp__everything__simulate-research-query', { topic: 'python', ambiguous: true });
    const id = /background task (mcp-task-\d+)/.exec(textOf(started))?.[1] as string;
    const report = await env.call('McpTaskResult', { task_id: id, wait_seconds: 60 });
    expect(report.isError, textOf(report)).toBe(false);
    expect(textOf(report)).toContain('Research Report: python (programming)');
    expect(env.asked).toHaveLength(1);
    expect(env.asked[0].message).toContain('could have multiple interpretations');
  }, 60_000);
});
