// What wield offers the MCP servers it connects to, beyond calling tools: elicitation (a
// server's question reaches the person through a callback the interface provides; with no one
// to ask, a refusal) and roots (the workspace folders). Sampling is not offered: a server would
// spend the user's model budget outside the permission rules, and no server here needs it.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import type { McpElicitHandler } from './elicit.js';
import { TASKS_EXTENSION } from './task-jobs.js';

export interface ClientFeatures {
  elicit?: McpElicitHandler;
  /** The workspace folders, offered as roots. */
  roots?: () => readonly string[];
  /** Declare the Tasks extension: long calls may come back as tasks (run as background jobs). */
  tasks?: boolean;
}

export function createClient(
  info: { name: string; version: string },
  features: ClientFeatures,
  server: string,
  negotiation: VersionNegotiationMode = 'auto',
): Client {
  const client = new Client(info, {
    // 'auto': 2026-07-28 where the server speaks it (probed with server/discover), else 2025-11-25.
    versionNegotiation: { mode: negotiation },
    capabilities: {
      ...(features.elicit ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}),
      ...(features.roots ? { roots: { listChanged: false } } : {}),
      ...(features.tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
    },
  });
  const { elicit, roots } = features;
  if (elicit) {
    client.setRequestHandler('elicitation/create', async (request, ctx) => {
      const params = request.params;
      return params.mode === 'url'
        ? elicit({ server, message: params.message, mode: 'url', url: params.url }, ctx.mcpReq.signal)
        : elicit({ server, message: params.message, mode: 'form', requestedSchema: params.requestedSchema }, ctx.mcpReq.signal);
    });
  }
  if (roots) {
    client.setRequestHandler('roots/list', async () => ({
      roots: roots().map((folder) => ({ uri: pathToFileURL(folder).href, name: basename(folder) })),
    }));
  }
  return client;
}
