// What wield offers the MCP servers it connects to, beyond calling tools: elicitation (a
// server's question reaches the person through a callback the interface provides; with no one
// to ask, a refusal) and roots (the workspace folders). Sampling is not offered: a server would
// spend the user's model budget outside the permission rules, and no server here needs it.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { McpElicitation, McpElicitHandler } from './elicit.js';
import { type InputRequest, TASKS_EXTENSION } from './task-jobs.js';

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
  if (elicit)
    client.setRequestHandler('elicitation/create', async (request, ctx) =>
      elicit(elicitationOf(server, request.params), ctx.mcpReq.signal),
    );
  if (roots) client.setRequestHandler('roots/list', async () => rootList(roots()));
  return client;
}

type ElicitParams = { message: string; mode?: string; url?: string; requestedSchema?: Record<string, unknown> };

function elicitationOf(server: string, params: ElicitParams): McpElicitation {
  return params.mode === 'url'
    ? { server, message: params.message, mode: 'url', url: params.url }
    : { server, message: params.message, mode: 'form', requestedSchema: params.requestedSchema };
}

function rootList(folders: readonly string[]): { roots: { uri: string; name: string }[] } {
  return { roots: folders.map((folder) => ({ uri: pathToFileURL(folder).href, name: basename(folder) })) };
}

const elicitParamsSchema = z.looseObject({
  message: z.string(),
  mode: z.string().optional(),
  url: z.string().optional(),
  requestedSchema: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A question a 2026-07-28 task waits on (its inputRequests), answered as the same request sent
 * on its own would be: an elicitation reaches the person (declined with no one to ask), roots
 * lists the workspace; sampling is not offered, so it is refused with the reason.
 */
export async function answerInputRequest(
  features: ClientFeatures,
  server: string,
  request: InputRequest,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  if (request.method === 'roots/list' && features.roots) return rootList(features.roots());
  if (request.method !== 'elicitation/create') throw new Error(`it asked for ${request.method}, which wield does not offer`);
  if (!features.elicit) return { action: 'decline' };
  const params = elicitParamsSchema.safeParse(request.params);
  if (!params.success) throw new Error(`its elicitation/create has no message: ${JSON.stringify(request.params ?? {}).slice(0, 200)}`);
  return features.elicit(elicitationOf(server, params.data), signal);
}
