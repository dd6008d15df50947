// The 2026-07-28 revision on the wire, for what the SDK client does not send (Tasks, replayed or
// forged requestState, broken envelopes): plain fetch with the headers and `_meta` envelope the
// revision asks for; and `wield mcp serve --http` as a child process, found by its own words.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';

export const MODERN = '2026-07-28';
export const TASKS = 'io.modelcontextprotocol/tasks';
export const TASK_CAPABILITIES = { elicitation: { form: {} }, extensions: { [TASKS]: {} } };

export interface RpcReply {
  status: number;
  body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
}

export interface ModernPostOptions {
  capabilities?: Record<string, unknown>;
  /** Replaces the whole envelope (to send a broken one). */
  meta?: unknown;
  version?: string;
  headers?: Record<string, string>;
}

let nextId = 1;

/** One 2026-07-28 request (no session, no initialize); the reply as status and parsed JSON. */
export async function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: ModernPostOptions = {},
): Promise<RpcReply> {
  const version = options.version ?? MODERN;
  const meta = options.meta ?? {
    [PROTOCOL_VERSION_META_KEY]: version,
    [CLIENT_CAPABILITIES_META_KEY]: options.capabilities ?? TASK_CAPABILITIES,
    [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
  };
  // The revision mirrors the method and the name (tool or task id) into headers (SEP-2243).
  const name = typeof params.name === 'string' ? params.name : typeof params.taskId === 'string' ? params.taskId : undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } }),
  });
  return { status: response.status, body: (await response.json()) as RpcReply['body'] };
}

export interface ServedGateway {
  url: string;
  child: ChildProcessByStdio<null, Readable, Readable>;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `wield mcp serve --http 0 …`; resolves with its URL once it says it is listening. */
export function startGateway(cli: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ServedGateway> {
  const child = spawn(process.execPath, [cli, 'mcp', 'serve', '--http', '0', ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /listening on (\S+)/.exec(stderr)?.[1];
      if (url) resolve({ url, child, stderr: () => stderr, stop });
    });
    child.once('exit', (code) => reject(new Error(`wield mcp serve exited (${code}) before listening:\n${stderr}`)));
  });
}

/** The text blocks of a tool result, joined. */
export function resultText(result: Record<string, unknown> | undefined): string {
  const content = (result?.content ?? []) as { type: string; text?: string }[];
  return content.map((block) => block.text ?? '').join('\n');
}
