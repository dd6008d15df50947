// An MCP server's status as `wield mcp list` and the session's notices read it, for decision tests.
import type { McpServerStatus } from '../../src/runtime/mcp/server-status.js';

export function serverStatus(name: string, state: McpServerStatus['state'], more: Partial<McpServerStatus> = {}): McpServerStatus {
  return { name, transport: 'stdio', state, toolCount: 0, toolErrors: [], restarts: 0, ...more };
}
