// The gateway driven by the official inspector CLI, over HTTP and over stdio.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcp, type GatewayHandle } from '../../../src/runtime/mcp/serve.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { askForShout, gatewayRegistry } from '../../support/mcp-servers/gateway-tools.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { buildGatewayEntry, tempDir } from './helpers.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const INSPECTOR = path.join(path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'index.js');

async function inspector(args: string[]): Promise<unknown> {
  // The CLI looks for its package.json relative to the working directory, so run it from its own folder.
  const { stdout } = await run(process.execPath, [INSPECTOR, ...args], { timeout: 20_000, cwd: path.dirname(INSPECTOR) });
  return JSON.parse(stdout);
}

let gateway: GatewayHandle;
let entry: string;
beforeAll(async () => {
  const registry = gatewayRegistry();
  const rt = createRuntime({ registry, session: createSession({ cwd: tempDir('insp') }), policy: askForShout });
  gateway = await serveMcp({ registry, rt, transport: { http: { port: 0 } }, deferral: false });
  entry = await buildGatewayEntry();
});
afterAll(async () => {
  await gateway.close();
});

describe('inspector CLI against the gateway', () => {
  it('lists tools over HTTP', async () => {
    const listed = (await inspector([gateway.url as string, '--transport', 'http', '--method', 'tools/list'])) as {
      tools: { name: string; annotations?: unknown }[];
    };
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['Echo', 'Shout']);
  });

  it('calls a tool over HTTP, and a call needing approval is denied with the reason', async () => {
    const ok = (await inspector([
      gateway.url as string,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'Echo',
      '--tool-arg',
      'text=inspected',
    ])) as {
      content: { text: string }[];
      isError?: boolean;
    };
    expect(ok.content[0].text).toBe('inspected');
    const denied = (await inspector([
      gateway.url as string,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'Shout',
      '--tool-arg',
      'text=x',
    ])) as {
      content: { text: string }[];
      isError?: boolean;
    };
    expect(denied.isError).toBe(true);
    expect(denied.content[0].text).toContain('Shout is not allowed by any rule');
  });

  it('lists and calls over stdio', async () => {
    const listed = (await inspector([process.execPath, entry, 'deny', '--method', 'tools/list'])) as { tools: { name: string }[] };
    expect(listed.tools).toHaveLength(2);
    const denied = (await inspector([
      process.execPath,
      entry,
      'deny',
      '--method',
      'tools/call',
      '--tool-name',
      'Echo',
      '--tool-arg',
      'text=x',
    ])) as {
      content: { text: string }[];
      isError?: boolean;
    };
    expect(denied.isError).toBe(true);
    expect(denied.content[0].text).toContain('deny-all policy');
  });
});
