// The Bash sandbox: bubblewrap containment for commands the permission layer lets run.
export { autoAllowsBash, DEFAULT_DENY_READ, PROTECTED_GIT_PATHS, PROTECTED_PATHS, type SandboxSettings } from './settings.js';
export { SANDBOX_CHECKED, sandboxStatus, type SandboxFeatures, type SandboxStatus } from './status.js';
export { createSandboxWrap, sandboxTempDir, type CommandBridge, type SandboxWrap, type WrapOptions, type WrappedCommand } from './wrap.js';
export { explainSandboxFailure } from './explain.js';
