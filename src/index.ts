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
export { parseRule, formatRule } from './permissions/rules.js';
export { hooksFromSettings } from './hooks/settings.js';
export { runCommandHook } from './hooks/command.js';
export { matchesTool } from './hooks/matcher.js';
export { runHooks } from './hooks/run.js';
