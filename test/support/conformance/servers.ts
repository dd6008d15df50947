// Servers for the conformance runs: server-everything over Streamable HTTP (the anchor) and
// `wield mcp serve --http` (bare, and proxying server-everything), as real processes.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

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

export async function startGateway(cli: string, cwd: string, env: NodeJS.ProcessEnv, proxyEverything: boolean): Promise<RunningServer> {
  const args = [cli, 'mcp', 'serve', '--http', '0'];
  if (proxyEverything) {
    args.push('--mcp-config', JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
  }
  const child = spawn(process.execPath, args, { cwd, env, stdio: 'pipe' });
  const server = await startUntil(child, (text) => /listening on (http:\/\/\S+)/.exec(text)?.[1], 20_000);
  if (proxyEverything) await untilTool(server.url, 'mcp__everything__echo');
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
