// Three `wield mcp serve --redis` processes sharing one real redis-server: a 2026-07-28 client may
// reach any of them for any request (Tasks, requestState), and haproxy round-robin in front.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cleanEnv, tempDir } from '../../cli/helpers.js';
import { MODERN, modernRequest, resultText, type ServedGateway, startGateway } from '../../support/mcp-servers/modern-http.js';
import { type Service, startHaproxy, startRedis, which } from '../../support/scale-out.js';

const missing = ['redis-server', 'haproxy'].filter((program) => !which(program));
if (missing.length > 0)
  console.warn(`gateway-redis tests skipped: ${missing.join(' and ')} not installed (apt-get install redis-server haproxy)`);

let cleanup = (): void => undefined;
let redis: Service | undefined;
let balancer: Service | undefined;
let replicas: ServedGateway[] = [];
let project: string;

beforeAll(async () => {
  if (missing.length > 0) return;
  const built = await buildCli();
  cleanup = built.cleanup;
  project = tempDir('wield-replicas-');
  redis = await startRedis(tempDir('wield-redis-'));
  const args = ['--redis', redis.url, '--stall-limit', '20', '--task-after', '0.3', '--allow', 'Bash(sleep *)'];
  const env = cleanEnv(tempDir('wield-replicas-home-'));
  replicas = await Promise.all([0, 1, 2].map(() => startGateway(built.cli, args, { cwd: project, env })));
  balancer = await startHaproxy(
    tempDir('wield-haproxy-'),
    replicas.map((replica) => replica.url),
  );
}, 90_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.all(replicas.map((replica) => replica.stop()));
  await redis?.stop();
  cleanup();
});

async function blockedTask(url: string, name: string): Promise<{ taskId: string; fifo: string }> {
  const fifo = path.join(project, name);
  execFileSync('mkfifo', [fifo]);
  const reply = await modernRequest(url, 'tools/call', { name: 'Bash', arguments: { command: `cat ${name}` } });
  expect(reply.body.result).toMatchObject({ resultType: 'task', status: 'working' });
  return { taskId: reply.body.result?.taskId as string, fifo };
}

const status = async (url: string, taskId: string) => (await modernRequest(url, 'tasks/get', { taskId })).body.result?.status;

describe.skipIf(missing.length > 0)('gateway replicas sharing Redis', () => {
  it('a task started on one replica is read on another and completes there', async () => {
    const [a, b, c] = replicas;
    const { taskId, fifo } = await blockedTask(a.url, 'shared.fifo');
    expect(await status(b.url, taskId)).toBe('working');
    writeFileSync(fifo, 'from replica a\n');
    await expect.poll(() => status(c.url, taskId), { timeout: 30_000 }).toBe('completed');
    const done = (await modernRequest(b.url, 'tasks/get', { taskId })).body.result;
    expect(resultText(done?.result as Record<string, unknown>)).toContain('from replica a');
  }, 40_000);

  it('a task cancelled on another replica stops on the one running it', async () => {
    const [a, b, c] = replicas;
    const { taskId } = await blockedTask(a.url, 'cancelled.fifo');
    expect((await modernRequest(b.url, 'tasks/cancel', { taskId })).body.result).toBeDefined();
    await expect.poll(() => status(c.url, taskId), { timeout: 30_000 }).toBe('cancelled');
  }, 40_000);

  it("a task's question raised on one replica is answered through another and seen done on the third", async () => {
    const [a, b, c] = replicas;
    const fifo = path.join(project, 'question.fifo');
    execFileSync('mkfifo', [fifo]);
    const file = path.join(project, 'answered-across.txt');
    const code = `await tools.Bash({ command: 'cat question.fifo' }); await tools.Write({ file_path: ${JSON.stringify(file)}, content: 'across' });`;
    const started = (await modernRequest(a.url, 'tools/call', { name: 'RunCode', arguments: { code } })).body.result;
    expect(started).toMatchObject({ resultType: 'task' });
    const taskId = started?.taskId as string;
    writeFileSync(fifo, 'go\n');
    await expect.poll(() => status(c.url, taskId), { timeout: 30_000 }).toBe('input_required');
    const asked = (await modernRequest(c.url, 'tasks/get', { taskId })).body.result ?? {};
    const [key] = Object.keys(asked.inputRequests as object);
    await modernRequest(b.url, 'tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { allow: true } } } });
    await expect.poll(() => status(c.url, taskId), { timeout: 30_000 }).toBe('completed');
    expect(readFileSync(file, 'utf8')).toBe('across');
  }, 60_000);

  it('a requestState issued by one replica is accepted once by another, and refused by the third', async () => {
    const [a, b, c] = replicas;
    const file = path.join(project, 'across.txt');
    const call = { name: 'Write', arguments: { file_path: file, content: 'across' } };
    const capabilities = { elicitation: { form: {} } };
    const asked = (await modernRequest(a.url, 'tools/call', call, { capabilities })).body.result ?? {};
    const [key] = Object.keys(asked.inputRequests as object);
    const answer = { inputResponses: { [key]: { action: 'accept', content: { allow: true } } }, requestState: asked.requestState };
    const first = await modernRequest(b.url, 'tools/call', { ...call, ...answer }, { capabilities });
    expect(first.body.result).toMatchObject({ resultType: 'complete' });
    expect(readFileSync(file, 'utf8')).toBe('across');
    const replay = await modernRequest(c.url, 'tools/call', { ...call, ...answer }, { capabilities });
    expect(replay.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('already used') });
  });

  it('behind haproxy round-robin: the SDK client on 2026-07-28 (permission round trip, Tasks) and a 2025-11-25 session', async () => {
    const url = (balancer as Service).url;
    const modern = new Client(
      { name: 'modern', version: '1' },
      { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} } } },
    );
    modern.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { allow: true } }));
    const legacy = new Client({ name: 'legacy', version: '1' });
    await modern.connect(new StreamableHTTPClientTransport(new URL(url)));
    await legacy.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      // Each call is two requests (asked, then answered) landing on different replicas.
      for (const n of [1, 2, 3]) {
        const file = path.join(project, `balanced-${n}.txt`);
        const result = await modern.callTool({ name: 'Write', arguments: { file_path: file, content: String(n) } });
        expect(result.isError).toBeFalsy();
        expect(readFileSync(file, 'utf8')).toBe(String(n));
      }
      const { taskId, fifo } = await blockedTask(url, 'balanced.fifo');
      writeFileSync(fifo, 'through the balancer\n');
      await expect.poll(() => status(url, taskId), { timeout: 30_000 }).toBe('completed');
      // Sticky on Mcp-Session-Id only: the 2025-era session keeps reaching the replica holding it.
      for (const n of [1, 2, 3]) {
        const read = await legacy.callTool({ name: 'Read', arguments: { file_path: path.join(project, `balanced-${n}.txt`) } });
        expect(resultText(read as Record<string, unknown>)).toContain(String(n));
      }
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
    }
  }, 60_000);
});
