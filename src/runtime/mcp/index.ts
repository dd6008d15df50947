// MCP: servers' tools into the pool (client), the pool out to MCP clients (gateway).
export { McpManager, type ConnectAllOptions, type McpManagerOptions } from './manager.js';
export type { McpServerStatus, McpServerState } from './server-status.js';
export { loadMcpConfigs, type LoadMcpConfigsOptions, type LoadedMcpConfigs } from './load.js';
export {
  parseServerConfig,
  parseServerRecord,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_JOIN_TIMEOUT_MS,
  type McpServerConfig,
  type McpStdioConfig,
  type McpHttpConfig,
  type McpConfigError,
} from './config.js';
export { mcpToolName, mcpServerPrefix } from './names.js';
export { adaptMcpTool, mapCallResult, flagsFromAnnotations } from './adapt.js';
export { serveMcp, type ServeMcpOptions, type GatewayHandle, type HttpServeOptions } from './serve.js';
export { createGatewayServer, type GatewayOptions } from './gateway.js';
export {
  createResourceTools,
  listMcpResources,
  readMcpResource,
  listMcpPrompts,
  getMcpPrompt,
  type McpResourceSource,
  type McpAccessError,
  type ServerResources,
  type ServerPrompt,
} from './resources.js';
export { parseResourceReference } from './reference.js';
