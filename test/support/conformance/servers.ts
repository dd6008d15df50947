// Servers for the conformance runs: server-everything over Streamable HTTP (the anchor), the
// reference fixture (reference-server.mjs) over Streamable HTTP, and `wield mcp serve --http`
// (bare, proxying server-everything, and proxying the fixture), as real processes.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FIXTURE = fileURLToPath(new URL('./reference-server.mjs', import.meta.url));

/** An MCP server the gateway proxies, and a tool of it whose listing says it has connected. */
export interface Backend {
  name: string;
  config: Record<string, unknown>;
  /** The tool's name as the gateway lists it. */
  probe: string;
  /** Further `wield mcp serve` flags. */
  flags?: string[];
}

export const EVERYTHING_BACKEND: Backend = {
  name: 'everything',
  config: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
  probe: 'mcp__everything__echo',
};

/**
 * The fixture behind the gateway: its tools and prompts keep their own names (the suite calls
 * them by name), all listed (none deferred), allowed without asking.
 */
export const FIXTURE_BACKEND: Backend = {
  name: 'fixture',
  config: { command: process.execPath, args: [FIXTURE, 'stdio'], alwaysLoad: true },
  probe: 'test_simple_text',
  flags: ['--upstream-names', '--allow', 'mcp__fixture'],
};

export interface RunningServer {
  url: string;
  stop(): void;
}

/** A port nothing listens on now (the OS picks it, then it is released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a process and waits (bounded) for a line on stderr that `found` turns into a URL. */
function startUntil(child: ChildProcess, found: (text: string) => string | undefined, timeoutMs: number): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server did not start in time; it said: ${seen.slice(-500)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const url = found(seen);
      if (url) {
        clearTimeout(timer);
        resolve({ url, stop: () => child.kill('SIGTERM') });
      }
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${seen.slice(-500)}`)));
  });
}

export async function startEverythingHttp(): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'pipe' });
  return startUntil(child, (text) => (text.includes('listening') ? `http://localhost:${port}/mcp` : undefined), 20_000);
}

export async function startFixtureHttp(): Promise<RunningServer> {
  const child = spawn(process.execPath, [FIXTURE, 'http', '0'], { stdio: 'pipe' });
  return startUntil(child, (text) => /listening on (http:\/\/\S+)/.exec(text)?.[1], 20_000);
}

export async function startGateway(cli: string, cwd: string, env: NodeJS.ProcessEnv, backend?: Backend): Promise<RunningServer> {
  const args = [cli, 'mcp', 'serve', '--http', '0', ...(backend?.flags ?? [])];
  if (backend) args.push('--mcp-config', JSON.stringify({ mcpServers: { [backend.name]: backend.config } }));
  const child = spawn(process.execPath, args, { cwd, env, stdio: 'pipe' });
  const server = await startUntil(child, (text) => /listening on (http:\/\/\S+)/.exec(text)?.[1], 20_000);
  if (backend) await untilTool(server.url, backend.probe);
  return server;
}

/** Waits until the gateway lists a proxied tool (its server connects in the background). */
async function untilTool(url: string, name: string): Promise<void> {
  const client = new Client({ name: 'probe', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    for (let i = 0; i < 100; i++) {
      if ((await client.listTools()).tools.some((tool) => tool.name === name)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${name} never appeared`);
  } finally {
    await client.close();
  }
}
