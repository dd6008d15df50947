// Public library surface of wield.
export * from './tool/types.js';
export * from './tool/define.js';
export { createSession, type SessionOptions } from './tool/session.js';
export { ToolRegistry, type PoolOptions } from './registry/registry.js';
export * from './pipeline/types.js';
export { runToolCall } from './pipeline/run.js';
export { createRuntime, type RuntimeOptions } from './pipeline/runtime.js';
export { createBatch, runBatch, DEFAULT_MAX_CONCURRENCY, type Batch, type BatchOptions } from './scheduler/batch.js';
export { applyBudget, splitHeadTail } from './results/budget.js';
export { spillText } from './results/spill.js';
export { allowAll, denyAll } from './permissions/policies.js';
export * from './providers/types.js';
export {
  createProvider,
  resolveProviderConfig,
  sanitizeSchema,
  DEFAULT_MODELS,
  PROVIDER_NAMES,
  type ProviderOptions,
  type ResolvedProviderConfig,
} from './providers/index.js';
export * from './tools/index.js';
export { guardPath } from './permissions/paths.js';
export { checkAddress, resolveAndCheck, hostAllowed } from './permissions/network.js';
export { analyzeBash, loadBashAnalyzer, matchBashRule, type BashAnalysis } from './permissions/bash/index.js';
export * from './sandbox/index.js';
export * from './mcp/index.js';
export { createPolicy, decideCall, type WieldPolicy } from './permissions/engine.js';
export { loadSettings, trustProject, type WieldSettings } from './permissions/settings.js';
export { persistRule } from './permissions/persist.js';
export { readDenyPredicate } from './permissions/read-deny.js';
export { parseRule, formatRule } from './permissions/rules.js';
export { hooksFromSettings } from './hooks/settings.js';
export { runCommandHook } from './hooks/command.js';
export { matchesTool } from './hooks/matcher.js';
export { runHooks } from './hooks/run.js';
export { runAgent, DEFAULT_MAX_TURNS, type RunAgentOptions } from './agent/loop.js';
export { toolSpec } from './registry/spec.js';
export type { AgentEvent, AgentResult, AgentStopReason } from './agent/events.js';
export { buildSystemPrompt } from './agent/system-prompt.js';
export { SessionLog, readSession, messagesOf } from './agent/session-store.js';
export { repairHistory } from './agent/history.js';
export { replaySession } from './agent/replay.js';
export { ToolIndex, type SearchHit, type SearchResult } from './search/tool-index.js';
export { createToolSearchTool } from './search/tool.js';
export { selectToolsForRequest, CORE_TOOL_NAMES, type DeferralOptions, type ToolSelection } from './search/defer.js';
export { createEmbeddingReranker, type Reranker } from './search/rerank.js';
export { discoveredToolNames } from './search/result-text.js';
