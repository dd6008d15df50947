// wield/coding — the coding agent, whole (createCodingAgent) or in parts: built-in tools, the Bash
// analyser, the permission engine and its path guard, settings files, command hooks and the sandbox.
export * from './tools/index.js';
import { loadBashAnalyzer } from './bash/index.js';

export { analyzeBash, loadBashAnalyzer, matchBashRule, type BashAnalysis } from './bash/index.js';
export { guardPath } from './permissions/paths.js';
export { checkAddress, resolveAndCheck, hostAllowed } from '../runtime/network/guard.js';
export { createPolicy, decideCall, type WieldPolicy } from './permissions/engine.js';
export { readDenyPredicate } from './permissions/read-deny.js';
export { parseRule, formatRule } from './permissions/rules.js';
export { loadSettings, trustProject, type WieldSettings } from './settings/load.js';
export { persistRule } from './settings/persist.js';
export { hooksFromSettings } from './hooks/settings.js';
export { runCommandHook } from './hooks/command.js';
export { buildSystemPrompt } from '../runtime/agent/system-prompt.js';
export * from './sandbox/index.js';
export { createCodingAgent, contextOptions, type CodingAgent, type CodingAgentOptions } from './agent/create.js';
export { createCodingRuntime, type CodingRuntime, type CodingRuntimeOptions } from './agent/runtime.js';

// The Bash tool's flags (isReadOnly, isConcurrencySafe, isDestructive) need the parser's WASM; it is
// loaded on import (~40–60 ms) so they are right from the first call, with no set-up step to know
// about. The CLI does not import this file: it loads the parser beside its other start-up work.
await loadBashAnalyzer();
