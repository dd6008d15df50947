// Scale-out of the 2026-07-28 gateway, on loopback: N clients, each a short call, a Task (a Bash
// command that sleeps, polled with tasks/get until it ends) and another short call, against
// (1) one `wield mcp serve --http` process (its in-memory store) and (2) three replicas sharing a
// redis-server behind haproxy round-robin, one replica killed (SIGKILL) once half the tasks have
// started. Clients retry as the spec allows: a request that got no JSON-RPC answer (connection
// lost, 502/503) is sent again; a task reported failed because its replica stopped is called
// again. Counted: calls that failed anyway, task results lost, delivered twice or to the wrong
// call, executions, and each gateway process's RSS, sampled every second. With MCP_SCALE_ROUNDS
// above 1 the same load runs again on the same processes (the kill in the first round only), so
// RSS after each round shows whether memory stays flat.
// Usage: npm run bench -- mcp-scale   (MCP_SCALE_CLIENTS=N, default 200; MCP_SCALE_TASK_S, default 3;
// MCP_SCALE_ROUNDS, default 1)
import { readFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildCli, cleanEnv, tempDir } from '../test/cli/helpers.js';
import { modernRequest, type RpcReply, resultText, type ServedGateway, startGateway } from '../test/support/mcp-servers/modern-http.js';
import { type Service, startHaproxy, startRedis, which } from '../test/support/scale-out.js';

const CLIENTS = Number(process.env.MCP_SCALE_CLIENTS ?? 200);
const TASK_S = Number(process.env.MCP_SCALE_TASK_S ?? 3);
const ROUNDS = Number(process.env.MCP_SCALE_ROUNDS ?? 1);
const ATTEMPTS = 8;

interface Tally {
  requests: number;
  retried: number;
  failedCalls: number;
  tasks: number;
  rerunAfterLostReplica: number;
  results: Map<number, number>;
  wrongResult: number;
  /** The first few failures and wrong results, as they read: what to look into. */
  samples: string[];
}

const newTally = (): Tally => ({
  requests: 0,
  retried: 0,
  failedCalls: 0,
  tasks: 0,
  rerunAfterLostReplica: 0,
  results: new Map(),
  wrongResult: 0,
  samples: [],
});

function sample(tally: Tally, what: string, value: unknown): void {
  if (tally.samples.length < 6) tally.samples.push(`${what}: ${JSON.stringify(value).slice(0, 400)}`);
}

function rssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Math.round(Number(kb) / 102.4) / 10;
  } catch {
    return Number.NaN;
  }
}

/** One request, sent again while it gets no JSON-RPC answer (the replica or the connection went away). */
async function send(url: string, tally: Tally, method: string, params: Record<string, unknown>): Promise<RpcReply | undefined> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    tally.requests++;
    try {
      const reply = await modernRequest(url, method, params);
      if (reply.body.result !== undefined || reply.body.error !== undefined) return reply;
    } catch {
      // No answer: fetch failed, or haproxy answered 502/503 with HTML (not JSON).
    }
    tally.retried++;
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
  return undefined;
}

async function shortCall(url: string, tally: Tally, dir: string): Promise<void> {
  const reply = await send(url, tally, 'tools/call', { name: 'LS', arguments: { path: dir } });
  if (reply?.body.result?.resultType !== 'complete' || reply.body.result.isError) {
    tally.failedCalls++;
    sample(tally, 'short call failed', reply?.body ?? 'no answer');
  }
}

async function taskCall(url: string, tally: Tally, id: number, runs: string, onStarted: () => void): Promise<void> {
  const command = `sleep ${TASK_S} && echo run >> ${path.join(runs, String(id))} && echo result-${id}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const reply = await send(url, tally, 'tools/call', { name: 'Bash', arguments: { command } });
    const first = reply?.body.result;
    if (!first) {
      sample(tally, 'task call failed', reply?.body ?? 'no answer');
      break;
    }
    let final: Record<string, unknown> | undefined = first;
    if (first.resultType === 'task') {
      tally.tasks++;
      onStarted();
      const taskId = first.taskId as string;
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, Number(first.pollIntervalMs ?? 1000)));
        const polled = (await send(url, tally, 'tasks/get', { taskId }))?.body.result;
        if (!polled) {
          sample(tally, 'tasks/get failed', taskId);
          final = undefined;
          break;
        }
        if (polled.status !== 'working') {
          final = polled;
          break;
        }
      }
      if (final?.status === 'failed' && String(final.statusMessage).includes('replica running this task stopped')) {
        tally.rerunAfterLostReplica++;
        continue;
      }
      final = final?.status === 'completed' ? (final.result as Record<string, unknown>) : undefined;
    }
    if (!final || final.isError) {
      sample(tally, 'task failed', final ?? 'no final state');
      break;
    }
    tally.results.set(id, (tally.results.get(id) ?? 0) + 1);
    const named = [...resultText(final).matchAll(/result-(\d+)/g)].map((match) => Number(match[1]));
    if (named.length === 0 || named.some((n) => n !== id)) {
      tally.wrongResult++;
      sample(tally, `wrong result for ${id}`, final);
    }
    return;
  }
  tally.failedCalls++;
}

async function run(label: string, url: string, pids: () => (number | undefined)[], dir: string, kill?: () => void) {
  const runs = path.join(dir, 'runs');
  mkdirSync(runs, { recursive: true });
  const tally = newTally();
  const rssBefore = pids().map(rssMb);
  const rssPeak = rssBefore.map(() => 0);
  const sampler = setInterval(() => {
    pids().forEach((pid, index) => {
      const mb = rssMb(pid);
      if (mb > rssPeak[index]) rssPeak[index] = mb;
    });
  }, 1_000);
  let started = 0;
  let killed = false;
  const onStarted = () => {
    started++;
    if (kill && !killed && started >= CLIENTS / 2) {
      killed = true;
      kill();
    }
  };
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, id) => {
      await shortCall(url, tally, dir);
      await taskCall(url, tally, id, runs, onStarted);
      await shortCall(url, tally, dir);
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  clearInterval(sampler);
  let executions = 0;
  for (let id = 0; id < CLIENTS; id++) {
    try {
      executions += readFileSync(path.join(runs, String(id)), 'utf8')
        .trim()
        .split('\n').length;
    } catch {
      // never ran to its end
    }
  }
  const delivered = [...tally.results.values()];
  return {
    label,
    clients: CLIENTS,
    seconds: Math.round(seconds * 10) / 10,
    requests: tally.requests,
    retriedRequests: tally.retried,
    failedCalls: tally.failedCalls,
    tasksStarted: tally.tasks,
    rerunAfterLostReplica: tally.rerunAfterLostReplica,
    taskResultsDelivered: delivered.length,
    lostTaskResults: CLIENTS - delivered.length,
    duplicatedTaskResults: delivered.filter((n) => n > 1).length,
    wrongResults: tally.wrongResult,
    executions,
    rssMbBefore: rssBefore,
    rssMbPeak: rssPeak,
    rssMbAfter: pids().map(rssMb),
    samples: tally.samples,
  };
}

/** The same load ROUNDS times on the same processes, each round in its own folder. */
async function rounds(label: string, url: string, pids: () => (number | undefined)[], dir: string, kill?: () => void) {
  const results = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const result = await run(`${label}, round ${round}`, url, pids, path.join(dir, `round-${round}`), round === 1 ? kill : undefined);
    console.error(JSON.stringify(result));
    results.push(result);
  }
  return results;
}

async function main(): Promise<void> {
  const missing = ['redis-server', 'haproxy'].filter((program) => !which(program));
  if (missing.length > 0) {
    console.log(JSON.stringify({ skipped: `${missing.join(' and ')} not installed` }));
    return;
  }
  const { cli, cleanup } = await buildCli();
  const env = cleanEnv(tempDir('wield-scale-home-'));
  const args = ['--task-after', '1', '--allow', 'Bash'];
  const stops: (() => Promise<void>)[] = [];
  try {
    const soloDir = tempDir('wield-scale-solo-');
    const solo = await startGateway(cli, args, { cwd: soloDir, env });
    stops.push(solo.stop);
    const one = await rounds('one process (memory store)', solo.url, () => [solo.child.pid], soloDir);
    await solo.stop();

    const dir = tempDir('wield-scale-replicas-');
    const redis: Service = await startRedis(tempDir('wield-scale-redis-'));
    stops.push(redis.stop);
    const replicas: ServedGateway[] = await Promise.all(
      [0, 1, 2].map(() => startGateway(cli, [...args, '--redis', redis.url], { cwd: dir, env })),
    );
    for (const replica of replicas) stops.push(replica.stop);
    const balancer = await startHaproxy(
      tempDir('wield-scale-haproxy-'),
      replicas.map((replica) => replica.url),
    );
    stops.push(balancer.stop);
    const three = await rounds(
      'three replicas + Redis behind haproxy, one killed mid-run',
      balancer.url,
      () =>
        replicas.map((replica) => (replica.child.exitCode === null && replica.child.signalCode === null ? replica.child.pid : undefined)),
      dir,
      () => replicas[1].child.kill('SIGKILL'),
    );
    console.log(JSON.stringify({ taskSeconds: TASK_S, results: [...one, ...three] }, null, 2));
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    cleanup();
  }
}

await main();
