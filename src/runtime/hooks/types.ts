// What a hook is: the events it attaches to, what it is given and what it may answer. Below the
// pipeline, which runs hooks at its stages; settings files and command hooks build these.
import type { ToolResultContent } from '../tool/types.js';

/** The events a hook can attach to (Claude Code's names; settings files list hooks under them). */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'PermissionRequest', 'UserPromptSubmit', 'Stop'] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export interface HookInput {
  hook_event_name: HookEventName;
  session_id: string;
  cwd: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  /** PostToolUse: the result the model would get. */
  tool_response?: ToolResultContent;
  /** UserPromptSubmit: the prompt. */
  prompt?: string;
  /** Stop: true when the agent already continued because of a Stop hook (avoid loops). */
  stop_hook_active?: boolean;
}

/** A hook's answer, normalised from Claude Code's JSON protocol or a programmatic hook. */
export interface HookOutcome {
  /** Stop the call (PreToolUse) or mark the result blocked (PostToolUse), with a reason for the model. */
  block?: { reason: string };
  permissionDecision?: 'allow' | 'deny' | 'ask';
  permissionDecisionReason?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  /** PostToolUse: replace the result the model gets. */
  replaceResult?: ToolResultContent;
  /** Stop the agent altogether (Claude Code's `continue: false`), with a reason for the person. */
  halt?: { reason: string };
}

export interface HookHandler {
  event: HookEventName;
  /** Tool-name matcher: exact, `a|b`, or a regex; absent or `*` matches all. */
  matcher?: string;
  /** For logs and error messages. */
  name?: string;
  run(input: HookInput, signal: AbortSignal): Promise<HookOutcome>;
}
