// Types of the call path: the request, the interfaces the pipeline calls out to (permission
// policy, hooks, asking a person), and the typed events it emits.
import type { AnyTool, AskUser, AllowBasis, PermissionCheck, SessionState, ToolCallResult, ToolProgress } from '../tool/types.js';
import type { HookHandler } from '../hooks/types.js';

/** One tool call as the model sent it; input may be a JSON string or an object. */
export interface ToolCallRequest {
  id: string;
  name: string;
  input: unknown;
}

// ---------------------------------------------------------------- permissions

/** The permission modes, in the order the CLI lists them (Claude Code's names). */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export interface PermissionRequest {
  tool: AnyTool;
  input: Record<string, unknown>;
  /** The tool's own checkPermissions answer. */
  toolCheck: PermissionCheck;
  /** What PreToolUse hooks said, if anything: they may tighten, never loosen a deny or ask rule. */
  hookDecision?: { behavior: 'allow' | 'deny' | 'ask'; reason?: string };
  session: SessionState;
}

export interface PermissionDecision {
  behavior: 'allow' | 'deny' | 'ask';
  /** Shown to the person and, on deny, to the model. */
  reason: string;
  /** The rule that decided, e.g. `Bash(git log *)`, when one did. */
  rule?: string;
  /** Rules that would allow the call, offered as "always allow" and named on a no-TTY deny. */
  suggestions?: string[];
  updatedInput?: Record<string, unknown>;
  /**
   * The call reads outside the workspace: approving it lets this folder into the session's
   * workspace (a person may also save it to permissions.additionalDirectories).
   */
  addDirectory?: string;
  /** On an allow nobody was asked for: what allowed it (handed to the tool as ToolContext.allowedBy). */
  allowedBy?: AllowBasis;
}

/** Decides one call; the permissions module implements it (pure decision over rules and mode). */
export interface PermissionPolicy {
  decide(request: PermissionRequest): PermissionDecision | Promise<PermissionDecision>;
}

/** A person's answer: the same `behavior` words a policy's decision uses. */
export interface PermissionAnswer {
  behavior: 'allow' | 'deny';
  /** Message to the model on "deny". */
  message?: string;
  /** "Always" answers: rules to add for this session or persist. */
  remember?: { rules: string[]; scope: 'session' | 'project' };
}

/** Asks a person to approve a call; absent in non-interactive runs (ask → deny). */
export type AskPermission = (
  request: { tool: AnyTool; input: Record<string, unknown>; decision: PermissionDecision; toolUseId: string },
  signal: AbortSignal,
) => Promise<PermissionAnswer>;

// ---------------------------------------------------------------- events

export type ToolEvent =
  | { type: 'tool_start'; toolUseId: string; toolName: string; input: unknown }
  | { type: 'tool_progress'; toolUseId: string; toolName: string; progress: ToolProgress }
  | { type: 'permission_asked'; toolUseId: string; toolName: string; input: Record<string, unknown>; decision: PermissionDecision }
  | {
      type: 'permission_decided';
      toolUseId: string;
      toolName: string;
      decision: PermissionDecision;
      by: 'policy' | 'user' | 'hook' | 'no-tty';
    }
  | {
      type: 'hook_outcome';
      toolUseId: string;
      toolName: string;
      event: 'PreToolUse' | 'PermissionRequest' | 'PostToolUse';
      /** What the matching hooks did, the strongest first: blocked, decided, rewrote the input, replaced the result, added context, or only failed. */
      outcome: 'block' | 'allow' | 'ask' | 'deny' | 'rewrite' | 'replace' | 'context' | 'failed';
      reason?: string;
      /** Hooks that failed to run (they never block). */
      errors: string[];
    }
  /** The result was over the tool's budget: the model got head and tail, the whole text is in `file`. */
  | { type: 'result_budgeted'; toolUseId: string; toolName: string; totalChars: number; keptChars: number; file: string }
  | { type: 'tool_end'; toolUseId: string; toolName: string; result: ToolCallResult };

/** Everything a call needs from its surroundings. */
export interface RuntimeContext {
  session: SessionState;
  /** Looks a tool up by name or alias among all registered tools (loaded or deferred). */
  resolveTool(name: string): AnyTool | undefined;
  /** Names offered in "did you mean" hints. */
  toolNames(): string[];
  /**
   * For a name no registered tool has yet: waits while its source may still bring it (an MCP
   * server still connecting, up to its connect timeout) and returns it, or undefined.
   */
  waitForTool?(name: string, signal: AbortSignal): Promise<AnyTool | undefined>;
  /** Why a name no tool has is missing, when its source knows (an MCP server that failed to connect). */
  explainMissing?(name: string): string | undefined;
  policy: PermissionPolicy;
  hooks?: HookHandler[];
  askPermission?: AskPermission;
  askUser?: AskUser;
  emit?: (event: ToolEvent) => void;
}
