// Code mode: the RunCode tool and the pieces a builder may want on their own.
export { createRunCodeTool, RUN_CODE_NAME, type RunCodeInput, type RunCodeOptions, type RunCodeOutput } from './tool.js';
export { DEFAULT_LIMITS, type ProgramLimits } from './types.js';
export type { LedgerEntry } from './bridge.js';
