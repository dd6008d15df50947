// The transport to one MCP server: a child process over stdio, or Streamable HTTP through the
// network guard, with OAuth when the server asks for it (oauth.ts).
import { createFetchWithInit, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { isHttpConfig, type McpServerConfig } from './config.js';
import { guardedFetch } from './guarded-fetch.js';
import type { McpOAuthProvider } from './oauth.js';
import { inArrivalOrder } from './ordered-transport.js';

export interface TransportOptions {
  onStderr: (text: string) => void;
  oauth?: McpOAuthProvider;
}

export function createClientTransport(name: string, config: McpServerConfig, options: TransportOptions): Transport {
  if (isHttpConfig(config)) {
    const fetch = guardedFetch({ server: name, url: config.url, allowedHosts: config.allowedHosts });
    const requestInit = { headers: config.headers ?? {} };
    return inArrivalOrder(
      new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit,
        // The provider's own discovery sends what the SDK's does: through this fetch, these headers.
        fetch: options.oauth ? options.oauth.observe(fetch, createFetchWithInit(fetch, requestInit)) : fetch,
        // Redirects are left to the guarded fetch, which checks each hop's host (the SDK's own
        // policy would refuse every redirect off the origin, allowed hosts included).
        redirectPolicy: 'follow',
        ...(options.oauth ? { authProvider: options.oauth } : {}),
      }),
    );
  }
  // Only the SDK's safe environment subset is inherited: API keys in our environment are not
  // the server's business unless its entry passes them in `env`.
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    env: { ...getDefaultEnvironment(), ...config.env },
    cwd: config.cwd,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => options.onStderr(chunk.toString('utf8')));
  return inArrivalOrder(transport);
}
