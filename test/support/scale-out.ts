// The scaled-out gateway's other parts, as real processes on loopback: Debian's redis-server
// (no persistence, in a temp folder) and haproxy (round-robin, no stickiness).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import path from 'node:path';

/** The path of a program on PATH, or undefined (the tests that need it then skip, saying why). */
export function which(program: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Service {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function stopper(child: ChildProcess): () => Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
}

/** redis-server on a free loopback port, saving nothing; resolves once it accepts connections. */
export async function startRedis(dir: string): Promise<Service> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, port, stop: stopper(child) };
}

/** Resolves once something accepts TCP connections on the port. */
async function listening(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before listening on ${port}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** haproxy in front of the gateways: HTTP, round-robin (sticky only for 2025-era sessions); the MCP URL through it. */
export async function startHaproxy(dir: string, backends: readonly string[]): Promise<Service> {
  const port = await freePort();
  // Health checks take a dead replica out of the rotation within about a second.
  const servers = backends.map((url, i) => `  server g${i} ${new URL(url).host} check inter 1s fall 1`);
  const config = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 120s',
    '  timeout server 120s',
    // A replica that is gone: its requests go to the next one (idempotent or not yet sent).
    '  retries 2',
    '  option redispatch',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend gateways',
    'backend gateways',
    '  balance roundrobin',
    // 2026-07-28 requests carry no session: any replica. A 2025-era session lives in the replica
    // that made it, so requests naming one go back there.
    '  stick-table type string len 64 size 100k expire 30m',
    '  stick match req.hdr(mcp-session-id)',
    '  stick store-response res.hdr(mcp-session-id)',
    ...servers,
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, `${config}\n`);
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  await listening(port, child);
  return { url: `http://127.0.0.1:${port}${new URL(backends[0]).pathname}`, port, stop: stopper(child) };
}
