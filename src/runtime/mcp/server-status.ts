// What wield knows of one configured server (for `wield mcp list`, the session's notices and the
// gateway).
export type McpServerState = 'connecting' | 'connected' | 'disconnected' | 'failed' | 'disabled' | 'closed';

export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  state: McpServerState;
  toolCount: number;
  /** Why the server is not connected, or the last connection error. */
  error?: string;
  /** Tools the server listed but wield could not use, one line each. */
  toolErrors: string[];
  restarts: number;
  logFile?: string;
  /** The MCP revision the server speaks with wield (e.g. 2026-07-28 or 2025-11-25), once connected. */
  protocolVersion?: string;
}
