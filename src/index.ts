// wield — the runtime tier: define tools, pool them, run calls through the pipeline, drive a model.
// The coding agent's parts live in 'wield/coding', MCP in 'wield/mcp', ToolSearch in 'wield/search'.
export {
  ToolError,
  type AnyTool,
  type ContentBlock,
  type ErrorKind,
  type JSONSchema,
  type PermissionCheck,
  type Tool,
  type ToolCallResult,
  type ToolContext,
  type ToolResultContent,
  type UserQuestion,
} from './runtime/tool/types.js';
export { defineTool, READ_ONLY, type ToolDefinition } from './runtime/tool/define.js';
export { createSession, type SessionOptions } from './runtime/tool/session.js';
export { ToolRegistry, type PoolOptions } from './runtime/registry/registry.js';
export { toolSpec } from './runtime/registry/spec.js';
export type {
  AskPermission,
  PermissionDecision,
  PermissionMode,
  PermissionPolicy,
  RuntimeContext,
  ToolCallRequest,
  ToolEvent,
} from './runtime/pipeline/types.js';
export type { HookEventName, HookHandler, HookInput, HookOutcome } from './runtime/hooks/types.js';
export { runToolCall } from './runtime/pipeline/run.js';
export { createRuntime, type AgentRuntime, type RuntimeOptions } from './runtime/pipeline/runtime.js';
export { allowAll, denyAll } from './runtime/pipeline/policies.js';
export { runBatch, type BatchOptions } from './runtime/scheduler/batch.js';
export type { Message, ModelProvider, ProviderName, Usage } from './runtime/providers/types.js';
export { createProvider, DEFAULT_MODELS, type ProviderOptions } from './runtime/providers/index.js';
export { runAgent, type RunAgentOptions } from './runtime/agent/loop.js';
export type { AgentEvent, AgentResult, AgentStopReason } from './runtime/agent/events.js';
export {
  compactHistory,
  type CompactHistoryOptions,
  type CompactionOutcome,
  type ContextOptions,
} from './runtime/agent/context-run.js';
export { contextWindowFor, KNOWN_MODELS, type ModelFacts, type ModelPrice } from './runtime/context/models.js';
export { costUsd, type PriceOverrides, type UsageTotals } from './runtime/context/pricing.js';
export { SessionLog, readSession } from './runtime/agent/session-store.js';
export { replaySession } from './runtime/agent/replay.js';
export { recordToolContent } from './runtime/telemetry/tracer.js';
export {
  createRunCodeTool,
  DEFAULT_LIMITS as RUN_CODE_LIMITS,
  RUN_CODE_NAME,
  type LedgerEntry,
  type ProgramLimits,
  type RunCodeOptions,
  type RunCodeOutput,
} from './runtime/codemode/index.js';
