// MCP benchmarks. (1) A 2,000-tool stdio server: milliseconds from its process being ready
// (first stderr line) to all tools usable in the registry. (2) Pipeline overhead of a call to a
// trivial stdio server through wield (McpManager + runToolCall) against a direct SDK callTool
// on its own connection to the same server, as a ratio of medians.
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import os from 'node:os';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpManager } from '../src/runtime/mcp/manager.js';
import { allowAll } from '../src/runtime/pipeline/policies.js';
import { runToolCall } from '../src/runtime/pipeline/run.js';
import { createRuntime } from '../src/runtime/pipeline/runtime.js';
import { ToolRegistry } from '../src/runtime/registry/registry.js';
import { createSession } from '../src/runtime/tool/session.js';

const SERVER = path.resolve('test/support/mcp-servers/faulty.mjs');
const TOOLS = 2000;
const CALLS = 300;
const WARMUP = 30;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function connectLargeServer(): Promise<{ readyToUsableMs: number; spawnToUsableMs: number; tools: number }> {
  const registry = new ToolRegistry();
  const manager = new McpManager();
  const logDir = path.join(os.tmpdir(), `wield-bench-mcp-${process.pid}`);
  const start = performance.now();
  manager.connectAll(
    { big: { command: process.execPath, args: [SERVER, '--tools', String(TOOLS), '--page-size', '200'] } },
    { registry, logDir },
  );
  // The server prints "faulty: ready" on stderr once it accepts messages; the log receives it.
  const { readFile } = await import('node:fs/promises');
  let readyAt = 0;
  const poll = setInterval(() => {
    void readFile(path.join(logDir, 'big.log'), 'utf8').then(
      (text) => {
        if (!readyAt && text.includes('faulty: ready')) readyAt = performance.now();
      },
      () => undefined,
    );
  }, 1);
  await manager.ready();
  const usableAt = performance.now();
  clearInterval(poll);
  const tools = registry.all().length;
  await manager.close();
  return { readyToUsableMs: Math.round(usableAt - (readyAt || usableAt)), spawnToUsableMs: Math.round(usableAt - start), tools };
}

async function callOverhead(): Promise<Record<string, number>> {
  const registry = new ToolRegistry();
  const manager = new McpManager();
  manager.connectAll({ tiny: { command: process.execPath, args: [SERVER] } }, { registry });
  await manager.ready();
  const rt = createRuntime({ registry, session: createSession({ cwd: os.tmpdir() }), policy: allowAll });
  const direct = new Client({ name: 'bench', version: '1' });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'ignore' }));
  const signal = new AbortController().signal;
  const viaPipeline: number[] = [];
  const viaSdk: number[] = [];
  for (let i = 0; i < CALLS + WARMUP; i++) {
    let t = performance.now();
    await runToolCall({ id: `b${i}`, name: 'mcp__tiny__echo', input: { text: 'x' } }, rt, signal);
    if (i >= WARMUP) viaPipeline.push(performance.now() - t);
    t = performance.now();
    await direct.callTool({ name: 'echo', arguments: { text: 'x' } });
    if (i >= WARMUP) viaSdk.push(performance.now() - t);
  }
  await direct.close();
  await manager.close();
  const pipelineMs = median(viaPipeline);
  const sdkMs = median(viaSdk);
  return {
    calls: CALLS,
    pipelineMedianMs: Number(pipelineMs.toFixed(3)),
    directSdkMedianMs: Number(sdkMs.toFixed(3)),
    overheadRatio: Number((pipelineMs / sdkMs).toFixed(3)),
    overheadMs: Number((pipelineMs - sdkMs).toFixed(3)),
  };
}

const connect = await connectLargeServer();
const overhead = await callOverhead();
console.log(JSON.stringify({ bench: 'mcp', connect2000: { ...connect, targetMs: 1000 }, callOverhead: overhead }, null, 2));
