// The local callback listener of an authorization nobody waits for any more is closed at once,
// not at its 5-minute timeout: after a refused step-up's second authorization, and when the
// connection closes during an authorization. The proof is that the callback port can be bound.
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../src/runtime/tool/types.js';
import { closers, connection, FOLLOWING_BROWSER, legacyServer, metadataAt, realMcpServer } from './oauth-servers.js';
import { until } from './helpers.js';

const browser = process.env.BROWSER;
afterAll(async () => {
  if (browser === undefined) delete process.env.BROWSER;
  else process.env.BROWSER = browser;
  await Promise.allSettled(closers.map((close) => close()));
});

/** Whether 127.0.0.1:port can be listened on (the listener that had it is gone). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = http.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function callbackPort(notices: string[]): number {
  const url = /authorize in the browser: (\S+)/.exec(notices.at(-1) ?? '')?.[1];
  return Number(new URL(new URL(url ?? '').searchParams.get('redirect_uri') ?? '').port);
}

function toolContext(): ToolContext {
  return { signal: new AbortController().signal, onProgress: () => undefined } as unknown as ToolContext;
}

describe('an abandoned authorization', () => {
  it('releases the callback port once a step-up is refused again', async () => {
    process.env.BROWSER = FOLLOWING_BROWSER;
    // The first authorization (connect) and the step-up complete; the one after the second 403 does not.
    const server = await legacyServer((origin) => metadataAt(`${origin}/oauth`), {
      upstream: await realMcpServer(),
      completes: 2,
      refuseCalls: true,
    });
    const notices: string[] = [];
    const conn = connection(server.url, notices);
    await conn.start();
    expect(conn.status().state).toBe('connected');
    await expect(conn.callTool('Echo', { text: 'hi' }, toolContext())).rejects.toThrow(/Unauthorized/);
    // Connect, step-up, and the one started by the second 403, which nobody waits for.
    expect(notices).toHaveLength(3);
    expect(await portFree(callbackPort(notices))).toBe(true);
  }, 30_000);

  it('releases the callback port when the connection closes while the person is away', async () => {
    process.env.BROWSER = FOLLOWING_BROWSER;
    const server = await legacyServer((origin) => metadataAt(`${origin}/oauth`), { completes: 0 });
    const notices: string[] = [];
    const conn = connection(server.url, notices);
    const started = conn.start();
    await until(() => server.requests.some((line) => line.startsWith('GET /oauth/authorize')));
    const port = callbackPort(notices);
    expect(await portFree(port)).toBe(false);
    await conn.close();
    await started;
    expect(conn.status().state).toBe('closed');
    expect(await portFree(port)).toBe(true);
  }, 30_000);
});
