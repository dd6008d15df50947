// What a server tells the client unasked: tool list changes (handled as they arrive), resource,
// prompt and log notifications (forwarded), and 2026-07-28's subscriptions/listen stream.
import type { Client, Transport } from '@modelcontextprotocol/client';
import type { UpstreamEvent } from './gateway-upstream.js';
import { wrapTaskHandle } from './task-jobs.js';
import { messageOf } from '../util/message.js';

type LogLine = (line: string) => void;

/**
 * tools/list_changed starts the new listing as the message arrives, not in the SDK's handler
 * (run a microtask later, a race with the answer to a call that arrived just after it, lost
 * in about half of `-p` runs). callTool then waits for that listing before returning.
 */
export function watchToolChanges(client: Client, transport: Transport, onToolsChanged: () => void): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/tools/list_changed') onToolsChanged();
    else if (client.getProtocolEra() === 'modern') deliver?.(wrapTaskHandle(message) as typeof message, extra);
    else deliver?.(message, extra);
  };
}

/**
 * 2026-07-28 has no unsolicited notifications: changes come on a subscriptions/listen stream,
 * whose notifications reach the same handlers (and the interception above). A server that
 * refuses it still serves its tools; the refusal is logged.
 */
export function listenForChanges(client: Client, logLine: LogLine): void {
  const changes = client.getServerCapabilities();
  const filter = {
    ...(changes?.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(changes?.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(changes?.resources?.listChanged ? { resourcesListChanged: true } : {}),
  };
  if (Object.keys(filter).length === 0) return;
  client.listen(filter).catch((error: unknown) => logLine(`subscriptions/listen refused: ${messageOf(error)}`));
}

export function forwardNotifications(client: Client, server: string, emit: (event: UpstreamEvent) => void, logLine: LogLine): void {
  client.setNotificationHandler('notifications/resources/updated', (n) => emit({ kind: 'resource-updated', uri: n.params.uri }));
  client.setNotificationHandler('notifications/resources/list_changed', () => emit({ kind: 'resources-changed' }));
  client.setNotificationHandler('notifications/prompts/list_changed', () => emit({ kind: 'prompts-changed' }));
  client.setNotificationHandler('notifications/message', (n) => {
    const { level, data, logger } = n.params;
    logLine(`log ${level}${logger ? ` ${logger}` : ''}: ${typeof data === 'string' ? data : JSON.stringify(data)}`);
    emit({ kind: 'log', server, level, data });
  });
}
