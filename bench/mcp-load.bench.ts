// Load on the HTTP gateway: `wield mcp serve --http` (a real process, proxying server-everything
// over stdio) against hundreds of concurrent SDK clients, each doing initialize + three
// tools/call (one built-in, two proxied), then leaving without DELETE (abandoned sessions).
// Three rounds, each followed by idle eviction: throughput, p50/p99 latency, the gateway's RSS,
// and every call answered exactly once with its own answer. Then, in this process (so the heap can
// be collected and read): the heap one idle session holds, and what is left once it is evicted.
// Usage: npm run bench -- mcp-load   (MCP_LOAD_CLIENTS=N to change the 400 clients per round)
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { builtinTools } from '../src/coding/tools/index.js';
import { serveMcp } from '../src/runtime/mcp/serve.js';
import { allowAll } from '../src/runtime/pipeline/policies.js';
import { createRuntime } from '../src/runtime/pipeline/runtime.js';
import { ToolRegistry } from '../src/runtime/registry/registry.js';
import { createSession } from '../src/runtime/tool/session.js';
import { buildCli, cleanEnv, tempDir } from '../test/cli/helpers.js';

const CLIENTS = Number(process.env.MCP_LOAD_CLIENTS ?? 400);
const ROUNDS = Number(process.env.MCP_LOAD_ROUNDS ?? 3);
/**
 * Above the longest stall of a client between two of its requests on this loaded machine (400
 * clients in one process: up to ~14 s); with 2 s, sessions whose client had not yet sent its
 * next request were rightly closed as idle, and those clients got 404.
 */
const IDLE_TIMEOUT_S = 20;
/** The timeout plus the sweeper's period (5 s at this timeout) and a margin. */
const EVICTION_WAIT_MS = IDLE_TIMEOUT_S * 1000 + 7000;
const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return round1(Number(kb) / 1024);
}

/** CPU time (user + system) a process has used, in ms (Linux: clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function startGateway(cli: string): Promise<{ child: ChildProcess; url: string }> {
  const config = { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } };
  const args = [cli, 'mcp', 'serve', '--http', '0', '--idle-timeout', String(IDLE_TIMEOUT_S)];
  args.push('--mcp-config', JSON.stringify(config), '--allow', 'mcp__everything__echo');
  const home = tempDir('bench-mcp-load-home');
  const child = spawn(process.execPath, args, { cwd: tempDir('bench-mcp-load'), env: cleanEnv(home), stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(seen)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`gateway exited (${code}): ${seen.slice(-500)}`)));
  });
}

async function untilProxied(url: string): Promise<void> {
  const client = new Client({ name: 'probe', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  for (let i = 0; i < 200; i++) {
    if ((await client.listTools()).tools.some((tool) => tool.name === 'mcp__everything__echo')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await transport.terminateSession();
  await client.close();
}

interface ClientOutcome {
  sessionId?: string;
  connectMs?: number;
  callMs: number[];
  /** Calls answered with their own text, by call. */
  answered: number;
  errors: string[];
  /** Responses the SDK could not match to a request (a duplicate or stray answer). */
  strays: number;
}

const CALLS = [
  (tag: string) => ({ name: 'mcp__everything__echo', arguments: { message: tag }, expect: tag }),
  (tag: string) => ({ name: 'mcp__everything__echo', arguments: { message: `${tag}-2` }, expect: `${tag}-2` }),
  (_tag: string) => ({ name: 'LS', arguments: { path: '.' }, expect: '' }),
];

async function oneClient(url: string, tag: string): Promise<ClientOutcome> {
  const outcome: ClientOutcome = { callMs: [], answered: 0, errors: [], strays: 0 };
  const client = new Client({ name: tag, version: '1' });
  client.onerror = (error) => {
    if (/unknown message ID|unknown request/i.test(String(error))) outcome.strays++;
  };
  const transport = new StreamableHTTPClientTransport(new URL(url));
  try {
    let t = performance.now();
    await client.connect(transport);
    outcome.connectMs = performance.now() - t;
    outcome.sessionId = transport.sessionId;
    for (const make of CALLS) {
      const call = make(tag);
      t = performance.now();
      const result = await client.callTool({ name: call.name, arguments: call.arguments });
      outcome.callMs.push(performance.now() - t);
      const text = JSON.stringify(result.content);
      if (result.isError) outcome.errors.push(`${call.name}: ${text.slice(0, 200)}`);
      else if (!text.includes(call.expect)) outcome.errors.push(`${call.name}: another call's answer: ${text.slice(0, 200)}`);
      else outcome.answered++;
    }
  } catch (error) {
    const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : '';
    outcome.errors.push(`${String(error)}${cause}`.slice(0, 300));
  } finally {
    // Leaves without DELETE: the session stays until idle eviction.
    await transport.close();
  }
  return outcome;
}

/** Status of a request on a session left behind: 404 once it was evicted. */
async function sessionStatus(url: string, sessionId: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.text();
  return response.status;
}

/**
 * Sessions still answering once the idle timeout and one sweep have passed. Probing refreshes a
 * live session, so it is probed only once, after the wait.
 */
async function notEvictedAfterIdle(url: string, sessionIds: string[]): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, EVICTION_WAIT_MS));
  const all = await Promise.all(sessionIds.map((id) => sessionStatus(url, id)));
  return all.filter((s) => s !== 404).length;
}

function collect(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage().heapUsed;
}

/** Heap per idle session of the gateway over the built-in pool, in this process (needs --expose-gc). */
async function heapPerSession(sessions: number): Promise<Record<string, number>> {
  const registry = new ToolRegistry();
  for (const tool of builtinTools()) registry.register(tool);
  const rt = createRuntime({ registry, session: createSession({ cwd: tempDir('bench-mcp-heap') }), policy: allowAll });
  const gateway = await serveMcp({ registry, rt, transport: { http: { port: 0, idleTimeoutMs: 10_000, maxSessions: sessions } } });
  const url = gateway.url as string;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  const open = async (): Promise<void> => {
    const init = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'heap', version: '1' } },
      }),
    });
    await init.text();
    const id = init.headers.get('mcp-session-id') as string;
    const done = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    await done.text();
  };
  await Promise.all(Array.from({ length: 20 }, open));
  const start = performance.now();
  while (gateway.sessionCount() > 0 && performance.now() - start < 30_000) await new Promise((resolve) => setTimeout(resolve, 250));
  const before = collect();
  for (let i = 0; i < sessions; i += 50) await Promise.all(Array.from({ length: Math.min(50, sessions - i) }, open));
  const held = gateway.sessionCount();
  const withSessions = collect();
  while (gateway.sessionCount() > 0 && performance.now() - start < 90_000) await new Promise((resolve) => setTimeout(resolve, 250));
  const after = collect();
  await gateway.close();
  return {
    sessions: held,
    heapPerIdleSessionKb: Math.round((withSessions - before) / held / 1024),
    // A constant (caches, compiled code), not a part per session: it does not grow with the count.
    heapLeftAfterEvictionMb: round1((after - before) / 2 ** 20),
  };
}

const { cli, cleanup } = await buildCli();
const { child, url } = await startGateway(cli);
const pid = child.pid as number;
try {
  await untilProxied(url);
  // Warm-up: a few clients so the first round does not pay for compiling the gateway's code.
  await Promise.all(Array.from({ length: 10 }, (_, i) => oneClient(url, `warm${i}`)));
  await new Promise((resolve) => setTimeout(resolve, EVICTION_WAIT_MS));
  // Baseline: one client alone, 30 proxied calls in sequence.
  const alone = new Client({ name: 'alone', version: '1' });
  const aloneTransport = new StreamableHTTPClientTransport(new URL(url));
  await alone.connect(aloneTransport);
  const aloneMs: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await alone.callTool({ name: 'mcp__everything__echo', arguments: { message: `alone${i}` } });
    aloneMs.push(performance.now() - t);
  }
  await aloneTransport.terminateSession();
  await alone.close();
  const rounds: Record<string, unknown>[] = [];
  const rss: Record<string, number> = { beforeMb: rssMb(pid) };
  for (let round = 1; round <= ROUNDS; round++) {
    const start = performance.now();
    const [gatewayCpu, clientsCpu] = [cpuMs(pid), ownCpuMs()];
    const outcomes = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => oneClient(url, `r${round}c${i}`)));
    const wallMs = performance.now() - start;
    // Where the time went: the gateway's CPU per client (initialize + 3 calls) against the load
    // generator's own (400 SDK clients in this process), on the same 2 cores.
    const cpu = {
      gatewayCpuMsPerClient: round1((cpuMs(pid) - gatewayCpu) / CLIENTS),
      clientsCpuMsPerClient: round1((ownCpuMs() - clientsCpu) / CLIENTS),
    };
    rss[`round${round}AllSessionsOpenMb`] = rssMb(pid);
    const calls = outcomes.flatMap((o) => o.callMs);
    const connects = outcomes.flatMap((o) => (o.connectMs === undefined ? [] : [o.connectMs]));
    const errors = outcomes.flatMap((o) => o.errors);
    const ids = outcomes.flatMap((o) => (o.sessionId ? [o.sessionId] : []));
    const notEvicted = await notEvictedAfterIdle(url, ids);
    rss[`round${round}AfterEvictionMb`] = rssMb(pid);
    rounds.push({
      round,
      clients: CLIENTS,
      calls: CLIENTS * CALLS.length,
      answeredOnceWithOwnAnswer: outcomes.reduce((n, o) => n + o.answered, 0),
      strayResponses: outcomes.reduce((n, o) => n + o.strays, 0),
      errors: errors.length,
      firstErrors: [...new Set(errors)].slice(0, 3),
      wallMs: Math.round(wallMs),
      callsPerSecond: Math.round((calls.length / wallMs) * 1000),
      callP50Ms: round1(percentile(calls, 50)),
      callP99Ms: round1(percentile(calls, 99)),
      initializeP50Ms: round1(percentile(connects, 50)),
      initializeP99Ms: round1(percentile(connects, 99)),
      ...cpu,
      sessionsLeftBehind: ids.length,
      notEvictedAfterIdle: notEvicted,
      checkedAfterMs: EVICTION_WAIT_MS,
    });
  }
  console.log(
    JSON.stringify(
      {
        gateway: 'wield mcp serve --http 0 (proxying server-everything)',
        idleTimeoutS: IDLE_TIMEOUT_S,
        oneClientAloneCallP50Ms: round1(percentile(aloneMs, 50)),
        rounds,
        rss,
        inProcess: await heapPerSession(CLIENTS),
      },
      null,
      2,
    ),
  );
  const bad = rounds.filter(
    (r) => r.errors !== 0 || r.strayResponses !== 0 || r.answeredOnceWithOwnAnswer !== r.calls || r.notEvictedAfterIdle !== 0,
  );
  if (bad.length > 0) process.exitCode = 1;
} finally {
  child.kill('SIGTERM');
  cleanup();
}
