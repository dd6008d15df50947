// wield's end of the network bridge (bridge.ts): every connection a sandboxed command opens to
// its proxy arrives here as a stream of frames, and is served as an HTTP proxy client would be —
// `CONNECT host:port` (HTTPS and any TCP) or a plain request with an absolute URL — but only to
// hosts in sandbox.network.allowedHosts. Everything from the sandbox is untrusted input: a
// malformed frame stream closes the bridge, a malformed request gets an HTTP error, and
// nothing thrown here can reach the rest of wield.
import dns from 'node:dns';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { hostAllowed, linkLocalOrMetadata } from '../../runtime/network/guard.js';
import { frameCodec } from './frames.js';
import { parseProxyRequest, type ProxyTarget } from './proxy-request.js';

const codec = frameCodec();
/** A request head larger than this is refused (ample for any real proxy request). */
const MAX_HEAD_BYTES = 64 * 1024;

export interface BridgeOptions {
  allowedHosts: readonly string[];
  /** Resolves a host name (tests inject one). */
  lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
}

const systemLookup = (host: string) => dns.promises.lookup(host, { all: true, verbatim: true });

/** Serves one bridge's channel until it closes. */
export function serveBridge(channel: Duplex, options: BridgeOptions): void {
  const streams = new Map<number, ProxyStream>();
  /** False when the pipe to the sandbox is full: the caller pauses until `whenDrained` calls back. */
  const send = (type: number, id: number, payload?: Buffer): boolean => channel.destroyed || channel.write(codec.encode(type, id, payload));
  // One 'drain' listener for all paused connections, however many there are.
  const waiting = new Set<() => void>();
  const whenDrained = (resume: () => void): void => void waiting.add(resume);
  channel.on('drain', () => {
    const resumes = [...waiting];
    waiting.clear();
    for (const resume of resumes) resume();
  });
  const feed = codec.decoder((type, id, payload) => {
    if (type === codec.OPEN) {
      if (!streams.has(id)) streams.set(id, new ProxyStream(id, send, whenDrained, () => streams.delete(id), options));
      return;
    }
    const stream = streams.get(id);
    if (type === codec.DATA) stream?.receive(payload);
    else stream?.closeFromSandbox();
  });
  channel.on('data', (chunk: Buffer) => {
    if (!feed(chunk)) channel.destroy();
  });
  channel.on('error', () => undefined);
  channel.on('close', () => {
    for (const stream of streams.values()) stream.closeFromSandbox();
  });
}

/** One proxied connection: first the request head, then bytes both ways. */
class ProxyStream {
  private head: Buffer = Buffer.alloc(0);
  private upstream?: net.Socket;
  private state: 'head' | 'connecting' | 'open' | 'closed' = 'head';
  /** Bytes the sandbox sent while the upstream connection was being made. */
  private early: Buffer[] = [];

  constructor(
    private readonly id: number,
    private readonly send: (type: number, id: number, payload?: Buffer) => boolean,
    private readonly whenDrained: (resume: () => void) => void,
    private readonly forget: () => void,
    private readonly options: BridgeOptions,
  ) {}

  receive(data: Buffer): void {
    if (this.state === 'open') this.upstream?.write(data);
    else if (this.state === 'connecting') this.early.push(data);
    else if (this.state === 'head') this.readHead(data);
  }

  closeFromSandbox(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.upstream?.end();
    this.forget();
  }

  private readHead(data: Buffer): void {
    this.head = Buffer.concat([this.head, data]);
    const end = this.head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (this.head.length > MAX_HEAD_BYTES) this.refuse(431, 'Request Header Fields Too Large', 'the request head is over 64 KB');
      return;
    }
    const parsed = parseProxyRequest(this.head.subarray(0, end + 4).toString('latin1'));
    const rest = this.head.subarray(end + 4);
    if (!parsed.ok) {
      this.refuse(400, 'Bad Request', parsed.reason);
      return;
    }
    if (!hostAllowed(parsed.target.host, this.options.allowedHosts)) {
      this.refuse(
        403,
        'Forbidden',
        `${parsed.target.host} is not in sandbox.network.allowedHosts (${this.options.allowedHosts.join(', ')})`,
      );
    }
    this.state = 'connecting';
    void this.connect(parsed.target, rest);
  }

  private async connect(target: ProxyTarget, rest: Buffer): Promise<void> {
    const address = await this.resolve(target.host);
    if (this.state !== 'connecting') return;
    if (typeof address !== 'string') return this.refuse(403, 'Forbidden', address.refused);
    const upstream = net.connect({ host: address, port: target.port });
    this.upstream = upstream;
    upstream.on('connect', () => {
      if (this.state !== 'connecting') return upstream.destroy();
      this.state = 'open';
      if (target.kind === 'connect') this.send(codec.DATA, this.id, Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n'));
      else upstream.write(target.forwardHead);
      for (const chunk of [rest, ...this.early]) if (chunk.length > 0) upstream.write(chunk);
      this.early = [];
    });
    upstream.on('data', (chunk: Buffer) => {
      // A download faster than the sandbox reads waits in the upstream socket, not in wield's memory.
      if (!this.send(codec.DATA, this.id, chunk)) {
        upstream.pause();
        this.whenDrained(() => upstream.resume());
      }
    });
    upstream.on('error', (error) => {
      if (this.state === 'connecting') this.refuse(502, 'Bad Gateway', `cannot connect to ${target.host}:${target.port}: ${error.message}`);
    });
    upstream.on('close', () => this.finish());
  }

  /** The address to connect to, or why the host is refused (cloud metadata, link-local). */
  private async resolve(host: string): Promise<string | { refused: string }> {
    let answers: { address: string }[];
    try {
      answers = net.isIP(host) ? [{ address: host }] : await (this.options.lookup ?? systemLookup)(host);
    } catch (error) {
      return { refused: `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
    }
    if (answers.length === 0) return { refused: `${host} has no addresses` };
    for (const { address } of answers) {
      const bad = linkLocalOrMetadata(address);
      if (bad) return { refused: `${host}: ${bad}, which is never reachable from the sandbox` };
    }
    return answers[0].address;
  }

  private refuse(status: number, text: string, reason: string): void {
    const body = `wield sandbox: ${reason}\n`;
    const response = `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    this.send(codec.DATA, this.id, Buffer.from(response));
    this.finish();
  }

  private finish(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.upstream?.destroy();
    this.send(codec.CLOSE, this.id);
    this.forget();
  }
}
