// The network bridge: a small Node program that runs inside the sandbox when settings allow some
// hosts. The sandbox has no network but its own loopback, so the bridge listens there as the
// command's HTTP(S) proxy and carries every connection over one inherited pipe (`channelFd`) to
// wield, which decides what may go out (network-proxy.ts). The bridge enforces nothing: a
// command that took its place could only send frames to the same checks.
//
// Its source is generated from bridgeMain and frameCodec (Function.prototype.toString), written
// to the session's support folder (read-only inside the sandbox) and run with wield's own node,
// so it needs no file of its own in the package. Hence bridgeMain uses only its parameters.
import type * as NetModule from 'node:net';
import type * as ChildProcessModule from 'node:child_process';
import { frameCodec, type FrameCodec } from './frames.js';

export function bridgeMain(
  codec: FrameCodec,
  net: typeof NetModule,
  childProcess: typeof ChildProcessModule,
  channelFd: number,
  argv: string[],
): void {
  const channel = new net.Socket({ fd: channelFd, readable: true, writable: true });
  const sockets = new Map<number, NetModule.Socket>();
  let nextId = 1;
  const send = (type: number, id: number, payload?: Buffer): void => {
    if (!channel.destroyed) channel.write(codec.encode(type, id, payload));
  };
  const feed = codec.decoder((type, id, payload) => {
    const socket = sockets.get(id);
    if (!socket) return;
    if (type === codec.DATA) socket.write(payload);
    else if (type === codec.CLOSE) socket.end();
  });
  channel.on('data', (chunk: Buffer) => {
    if (!feed(chunk)) channel.destroy();
  });
  channel.on('error', () => undefined);
  channel.on('close', () => {
    for (const socket of sockets.values()) socket.destroy();
  });

  const server = net.createServer((socket) => {
    const id = nextId++;
    sockets.set(id, socket);
    send(codec.OPEN, id);
    socket.on('data', (chunk: Buffer) => {
      // Frames stay well under the codec's limit whatever size the reads come in.
      for (let at = 0; at < chunk.length; at += 65_536) send(codec.DATA, id, chunk.subarray(at, at + 65_536));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(id);
      send(codec.CLOSE, id);
    });
  });

  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as NetModule.AddressInfo;
    const proxy = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      http_proxy: proxy,
      https_proxy: proxy,
      ALL_PROXY: proxy,
      all_proxy: proxy,
    };
    // The command gets fds 0-3 as the bridge got them (3 is the Bash tool's side channel),
    // and not the channel: a shell closes it before running the command.
    const child = childProcess.spawn('/bin/sh', ['-c', `exec ${channelFd}>&-; exec "$@"`, 'wield-bridge', ...argv], {
      stdio: [0, 1, 2, 3],
      env,
    });
    child.on('error', (error) => {
      process.stderr.write(`wield sandbox bridge: ${error.message}\n`);
      process.exit(126);
    });
    child.on('exit', (code, signal) => {
      if (signal) process.kill(process.pid, signal);
      process.exit(code ?? 1);
    });
  });
}

/** The bridge program for `node BRIDGE -- argv...`, reading its channel from `channelFd`. */
export function bridgeSource(channelFd: number): string {
  return [
    "import net from 'node:net';",
    "import childProcess from 'node:child_process';",
    `const codec = (${frameCodec.toString()})();`,
    `(${bridgeMain.toString()})(codec, net, childProcess, ${channelFd}, process.argv.slice(2));`,
    '',
  ].join('\n');
}
