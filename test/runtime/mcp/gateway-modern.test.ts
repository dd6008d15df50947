// `wield mcp serve --http` speaking the 2026-07-28 revision, as a real process: the SDK client
// (no initialize, permission questions as input_required), Tasks and bad input on the wire.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cleanEnv, tempDir } from '../../cli/helpers.js';
import { MODERN, modernRequest, resultText, type ServedGateway, startGateway, TASKS } from '../../support/mcp-servers/modern-http.js';

let cleanup = (): void => undefined;
let gateway: ServedGateway;
let project: string;
beforeAll(async () => {
  const built = await buildCli();
  cleanup = built.cleanup;
  project = tempDir('wield-modern-');
  const home = tempDir('wield-modern-home-');
  // A call still running after 0.3 s becomes a task; `sleep` runs unasked, Write asks.
  gateway = await startGateway(built.cli, ['--task-after', '0.3', '--allow', 'Bash(sleep *)'], { cwd: project, env: cleanEnv(home) });
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  cleanup();
});

const WITHOUT_TASKS = { elicitation: { form: {} } };

async function modernClient(answer: { action: 'accept' | 'decline'; content?: { allow: boolean } }): Promise<Client> {
  const client = new Client(
    { name: 'modern', version: '1' },
    { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async () => answer);
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  return client;
}

/** Starts a call that blocks on a FIFO until the test writes to it; resolves with the task id. */
async function blockedTask(name: string, headers: Record<string, string> = {}): Promise<{ taskId: string; fifo: string }> {
  const fifo = path.join(project, name);
  execFileSync('mkfifo', [fifo]);
  const reply = await modernRequest(gateway.url, 'tools/call', { name: 'Bash', arguments: { command: `cat ${name}` } }, { headers });
  expect(reply.body.result).toMatchObject({ resultType: 'task', status: 'working', taskId: expect.any(String) });
  return { taskId: reply.body.result?.taskId as string, fifo };
}

async function taskStatus(taskId: string, headers: Record<string, string> = {}): Promise<Record<string, unknown> | undefined> {
  return (await modernRequest(gateway.url, 'tasks/get', { taskId }, { headers })).body.result;
}

describe('wield mcp serve, revision 2026-07-28', () => {
  it('answers a tools/call with no initialize and no session (the SDK client pinned to 2026-07-28, and a bare POST)', async () => {
    const client = await modernClient({ action: 'decline' });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual([...names].sort());
      const read = await client.callTool({ name: 'Read', arguments: { file_path: path.join(project, 'missing.txt') } });
      expect(read.isError).toBe(true);
    } finally {
      await client.close();
    }
    const bare = await modernRequest(gateway.url, 'tools/list', {});
    expect(bare.status).toBe(200);
    expect(bare.body.result).toMatchObject({ resultType: 'complete', tools: expect.any(Array) });
  });

  it('asks permission as input_required; the SDK client answers by retrying with inputResponses', async () => {
    const allow = await modernClient({ action: 'accept', content: { allow: true } });
    const deny = await modernClient({ action: 'decline' });
    try {
      const file = path.join(project, 'allowed.txt');
      const allowed = await allow.callTool({ name: 'Write', arguments: { file_path: file, content: 'yes' } });
      expect(allowed.isError).toBeFalsy();
      expect(readFileSync(file, 'utf8')).toBe('yes');
      const other = path.join(project, 'declined.txt');
      const declined = await deny.callTool({ name: 'Write', arguments: { file_path: other, content: 'no' } });
      expect(declined.isError).toBe(true);
      expect(resultText(declined as Record<string, unknown>)).toContain('declined the request in the MCP client');
      expect(existsSync(other)).toBe(false);
    } finally {
      await Promise.all([allow.close(), deny.close()]);
    }
  });

  it('accepts a requestState once: a replayed, forged or misapplied one is a clear error and runs nothing', async () => {
    const file = path.join(project, 'once.txt');
    const call = { name: 'Write', arguments: { file_path: file, content: 'once' } };
    const asked = (await modernRequest(gateway.url, 'tools/call', call, { capabilities: WITHOUT_TASKS })).body.result ?? {};
    expect(asked.resultType).toBe('input_required');
    const [key] = Object.keys(asked.inputRequests as object);
    const answer = { inputResponses: { [key]: { action: 'accept', content: { allow: true } } }, requestState: asked.requestState };

    const forged = `${String(asked.requestState).slice(0, -4)}AAAA`;
    const bad = await modernRequest(
      gateway.url,
      'tools/call',
      { ...call, ...answer, requestState: forged },
      { capabilities: WITHOUT_TASKS },
    );
    expect(bad.body.error?.message).toMatch(/requestState/i);
    const elsewhere = { ...call, arguments: { file_path: path.join(project, 'other.txt'), content: 'x' } };
    const misapplied = await modernRequest(gateway.url, 'tools/call', { ...elsewhere, ...answer }, { capabilities: WITHOUT_TASKS });
    expect(misapplied.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('belongs to another call') });
    expect(existsSync(file)).toBe(false);

    const first = await modernRequest(gateway.url, 'tools/call', { ...call, ...answer }, { capabilities: WITHOUT_TASKS });
    expect(first.body.result).toMatchObject({ resultType: 'complete' });
    expect(readFileSync(file, 'utf8')).toBe('once');
    writeFileSync(file, 'changed');
    const replay = await modernRequest(gateway.url, 'tools/call', { ...call, ...answer }, { capabilities: WITHOUT_TASKS });
    expect(replay.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('already used') });
    expect(readFileSync(file, 'utf8')).toBe('changed');
  });

  it('runs a long call as a Task: tasks/get until it completes with the result', async () => {
    const { taskId, fifo } = await blockedTask('finish.fifo');
    expect(await taskStatus(taskId)).toMatchObject({ status: 'working', pollIntervalMs: expect.any(Number) });
    writeFileSync(fifo, 'the report\n');
    await expect.poll(async () => (await taskStatus(taskId))?.status, { timeout: 30_000 }).toBe('completed');
    expect(resultText((await taskStatus(taskId))?.result as Record<string, unknown>)).toContain('the report');
  }, 40_000);

  it('a question that comes up in a task waits in it (input_required) until tasks/update answers it', async () => {
    const fifo = path.join(project, 'gate.fifo');
    execFileSync('mkfifo', [fifo]);
    const [allowed, refused] = ['in-task-allowed.txt', 'in-task-refused.txt'].map((name) => path.join(project, name));
    // A program that waits, then makes two calls that each need permission: asked while it runs as a task.
    const code = [
      "await tools.Bash({ command: 'cat gate.fifo' });",
      `await tools.Write({ file_path: ${JSON.stringify(allowed)}, content: 'allowed' });`,
      `try { await tools.Write({ file_path: ${JSON.stringify(refused)}, content: 'refused' }); } catch (error) { console.log('second: ' + error.message); }`,
      "console.log('done');",
    ].join('\n');
    const started = (await modernRequest(gateway.url, 'tools/call', { name: 'RunCode', arguments: { code } })).body.result;
    expect(started).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = started?.taskId as string;
    writeFileSync(fifo, 'go\n');
    const question = async () => {
      await expect.poll(async () => (await taskStatus(taskId))?.status, { timeout: 30_000 }).toBe('input_required');
      const asked = (await taskStatus(taskId)) ?? {};
      const requests = asked.inputRequests as Record<string, { method: string; params: { message: string } }>;
      expect(Object.keys(requests)).toHaveLength(1);
      const [[key, request]] = Object.entries(requests);
      expect(request).toMatchObject({ method: 'elicitation/create', params: { message: expect.stringContaining('Allow Write?') } });
      expect(asked.statusMessage).toContain('waiting for permission');
      return key;
    };
    const first = await question();
    // An answer to a question not asked is ignored.
    const stray = { taskId, inputResponses: { 'question-stray': { action: 'accept', content: { allow: true } } } };
    expect((await modernRequest(gateway.url, 'tasks/update', stray)).body.result).toBeDefined();
    expect(await taskStatus(taskId)).toMatchObject({ status: 'input_required' });
    const accept = { taskId, inputResponses: { [first]: { action: 'accept', content: { allow: true } } } };
    expect((await modernRequest(gateway.url, 'tasks/update', accept)).body.result).toBeDefined();
    await expect.poll(() => existsSync(allowed), { timeout: 30_000 }).toBe(true);
    const second = await question();
    expect(second).not.toBe(first);
    await modernRequest(gateway.url, 'tasks/update', { taskId, inputResponses: { [second]: { action: 'decline' } } });
    await expect.poll(async () => (await taskStatus(taskId))?.status, { timeout: 30_000 }).toBe('completed');
    const text = resultText((await taskStatus(taskId))?.result as Record<string, unknown>);
    expect(text).toContain('declined the request in the MCP client');
    expect(text).toContain('done');
    expect(readFileSync(allowed, 'utf8')).toBe('allowed');
    expect(existsSync(refused)).toBe(false);
  }, 60_000);

  it('tasks/cancel stops a task; another credential cannot see or cancel it', async () => {
    const alice = { authorization: 'Bearer alice' };
    const bob = { authorization: 'Bearer bob' };
    const { taskId } = await blockedTask('never.fifo', alice);
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const reply = await modernRequest(gateway.url, method, { taskId }, { headers: bob });
      expect(reply.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('not found') });
    }
    expect(await taskStatus(taskId, alice)).toMatchObject({ status: 'working' });
    expect((await modernRequest(gateway.url, 'tasks/cancel', { taskId }, { headers: alice })).body.result).toBeDefined();
    await expect.poll(async () => (await taskStatus(taskId, alice))?.status, { timeout: 30_000 }).toBe('cancelled');
  }, 40_000);

  it('an unknown task id, or tasks without the extension declared, is a clear JSON-RPC error', async () => {
    const unknown = await modernRequest(gateway.url, 'tasks/get', { taskId: 'no-such-task' });
    expect(unknown.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('"no-such-task" not found') });
    const undeclared = await modernRequest(gateway.url, 'tasks/get', { taskId: 'x' }, { capabilities: WITHOUT_TASKS });
    expect(undeclared.body.error?.message).toContain(`declare "${TASKS}"`);
  });

  it('a version it does not speak, a malformed _meta and an oversized body are clear errors, and it keeps serving', async () => {
    const version = await modernRequest(gateway.url, 'tools/list', {}, { version: '2099-01-01' });
    expect(version.body.error).toMatchObject({ code: -32022, message: expect.stringContaining('2099-01-01') });
    expect(version.body.error?.data).toMatchObject({ supported: expect.arrayContaining([MODERN]) });
    const missing = await modernRequest(gateway.url, 'tools/list', {}, { meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } });
    expect(missing.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('clientCapabilities') });
    const notObject = await modernRequest(gateway.url, 'tools/list', {}, { meta: 'not an object' });
    expect(notObject.status).toBe(400);
    expect(notObject.body.error?.code).toBe(-32600);
    const big = await modernRequest(gateway.url, 'tools/call', { name: 'Bash', arguments: { command: 'x'.repeat(1_100_000) } });
    expect(big.status).toBe(413);
    expect(big.body.error?.message).toContain('must not exceed 1048576 bytes');
    expect(gateway.child.exitCode).toBeNull();
    expect((await modernRequest(gateway.url, 'tools/list', {})).status).toBe(200);
  });

  it('still serves a 2025-11-25 client with initialize and a session', async () => {
    const client = new Client({ name: 'legacy', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const read = await client.callTool({ name: 'Read', arguments: { file_path: path.join(project, 'once.txt') } });
      expect(resultText(read as Record<string, unknown>)).toContain('changed');
    } finally {
      await client.close();
    }
  });
});
