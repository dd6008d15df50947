// Shared set-up for the MCP tests: real server processes, a registry and a pipeline runtime.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import type { PermissionPolicy, RuntimeContext, ToolEvent } from '../../../src/runtime/pipeline/types.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import type { ToolCallResult } from '../../../src/runtime/tool/types.js';
import type { McpStdioConfig } from '../../../src/runtime/mcp/config.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export const FAULTY_SERVER = path.join(here, '..', '..', 'support', 'mcp-servers', 'faulty.mjs');

/** The JS entry of an npm-installed server (spawned with node, never npx: no network). */
export function serverEntry(pkg: string): string {
  return require.resolve(`${pkg}/dist/index.js`);
}

export function faultyConfig(args: string[] = [], extra: Partial<McpStdioConfig> = {}): McpStdioConfig {
  return { command: process.execPath, args: [FAULTY_SERVER, ...args], ...extra };
}

export function tempDir(label: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `wield-mcp-${label}-`));
}

export interface TestRuntime {
  registry: ToolRegistry;
  rt: RuntimeContext;
  events: ToolEvent[];
  call(name: string, input: unknown, signal?: AbortSignal): Promise<ToolCallResult>;
}

export function testRuntime(policy: PermissionPolicy, registry = new ToolRegistry()): TestRuntime {
  const dir = tempDir('session');
  const events: ToolEvent[] = [];
  const rt = createRuntime({
    registry,
    session: createSession({ cwd: dir, dir: path.join(dir, 'session') }),
    policy,
    emit: (event) => events.push(event),
  });
  let n = 0;
  return {
    registry,
    rt,
    events,
    call: (name, input, signal = new AbortController().signal) => runToolCall({ id: `call-${++n}`, name, input }, rt, signal),
  };
}

export function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

export async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Bundles an entry of test/support/mcp-servers into a file node can run (tests never run
 * TypeScript directly), with the worker threads wield starts beside it. The files go under
 * node_modules/.cache, so packages that find files next to themselves (ripgrep's binary, WASM
 * grammars) still can.
 */
export async function buildEntry(name: string): Promise<string> {
  const { build } = await import('esbuild');
  const { bundleOptions, workerEntryPoints } = await import('../../../scripts/esbuild-options.mjs');
  const outdir = path.join(here, '..', '..', '..', 'node_modules', '.cache', 'wield-mcp-tests', String(process.pid));
  await build({
    entryPoints: { [name]: path.join(here, '..', '..', 'support', 'mcp-servers', `${name}.ts`), ...workerEntryPoints },
    ...bundleOptions,
    outdir,
  });
  return path.join(outdir, `${name}.js`);
}

export const buildGatewayEntry = (): Promise<string> => buildEntry('gateway-entry');
