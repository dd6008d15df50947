// Class 9: Unix sockets outside the sandbox reached by other system calls than socket(). A small C
// program (test/support/sandbox/unix-socket-probe.c), compiled here when a compiler is present,
// connects with io_uring and sends from a datagram socketpair; each is shown reaching a socket
// the test owns from a plain process (the hole), then refused inside the sandbox.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxWrap, sandboxStatus } from '../../../src/coding/sandbox/index.js';
import type { AllowBasis } from '../../../src/runtime/tool/types.js';
import { bash, makeFixture, runWrapped, type Fixture, type RunResult } from './helpers.js';

const PROBE_SOURCE = path.resolve('test/support/sandbox/unix-socket-probe.c');
const compiler = ['cc', 'gcc', 'clang'].find((c) => spawnSync(c, ['--version']).status === 0);
const status = await sandboxStatus();
const skip = !status.available
  ? `no sandbox: ${status.reason}`
  : !status.features.unixSocketsBlocked
    ? 'no seccomp filter on this machine'
    : compiler === undefined
      ? 'no C compiler (cc, gcc or clang) to build the probe'
      : undefined;

describe.skipIf(skip !== undefined)(`sockets by other system calls${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let f: Fixture;
  let dir: string;
  let probe: string;
  let server: net.Server;
  const received: string[] = [];
  const streamPath = (): string => path.join(dir, 'host.sock');

  const sandboxed = async (script: string, allowedBy: AllowBasis | undefined, enabled: boolean): Promise<RunResult> => {
    const wrap = createSandboxWrap({ enabled }, f.session, { home: f.home });
    const cmd = await wrap(bash(script), { ...f.ctx, allowedBy }, { command: script });
    expect(cmd.sandboxed).toBe(true);
    return runWrapped(cmd, f.ws);
  };
  const plain = (script: string): Promise<RunResult> => runWrapped({ file: 'bash', args: ['-c', script], sandboxed: false }, f.ws);

  beforeAll(async () => {
    f = makeFixture();
    // Inside the workspace, so that a contained command sees the socket and the probe: the seccomp
    // filter, not the view's absent files, must be what refuses the connection.
    dir = mkdtempSync(path.join(f.ws, 's-'));
    probe = path.join(dir, 'probe');
    const built = spawnSync(compiler as string, ['-O0', '-o', probe, PROBE_SOURCE], { encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    server = net.createServer((socket) => socket.on('data', (data) => received.push(data.toString())));
    await new Promise<void>((resolve) => server.listen(streamPath(), resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(f.base, { recursive: true, force: true });
  });

  it('io_uring: a plain process connects to the host socket; sandboxed and contained ones cannot', async () => {
    const outside = await plain(`${probe} uring ${streamPath()} from-outside`);
    expect(outside.stdout).toBe('connected\n');
    for (const [allowedBy, enabled] of [
      [undefined, true],
      ['verdict', false],
    ] as const) {
      const inside = await sandboxed(`${probe} uring ${streamPath()} from-inside`, allowedBy, enabled);
      expect(inside.stdout).toBe('');
      expect(inside.stderr).toMatch(/io_uring_setup: Operation not permitted/);
    }
    // Bounded wait for the one message that did arrive.
    for (let i = 0; i < 50 && !received.includes('from-outside'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(received).toEqual(['from-outside']);
  });

  it('a datagram socketpair: a plain process sends to a host socket path; a sandboxed one cannot', async () => {
    const receiver = async (name: string): Promise<{ socket: string; done: Promise<string> }> => {
      const socket = path.join(dir, name);
      const child = spawn(probe, ['dgram-recv', socket], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const done = new Promise<string>((resolve) => child.on('close', () => resolve(out)));
      for (let i = 0; i < 100 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 20));
      return { socket, done: done.finally(() => child.kill()) };
    };
    const open = await receiver('open.sock');
    expect((await plain(`${probe} dgram ${open.socket} hole`)).stdout).toBe('sent\n');
    expect(await open.done).toBe('got hole\n');

    const closed = await receiver('closed.sock');
    const inside = await sandboxed(`${probe} dgram ${closed.socket} leak`, undefined, true);
    expect(inside.stderr).toMatch(/socketpair: Operation not permitted/);
    // Nothing arrived: end the receiver by sending it the control message from outside.
    await plain(`${probe} dgram ${closed.socket} control`);
    expect(await closed.done).toBe('got control\n');
  });

  it('stream socket pairs still work inside (pipes between child processes)', async () => {
    const r = await sandboxed(
      `"${process.execPath}" -e "require('child_process').spawnSync('true', {stdio: 'pipe'}); console.log('ok')"`,
      undefined,
      true,
    );
    expect(r.stdout).toBe('ok\n');
  });
});
