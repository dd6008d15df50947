// Typed events of the agent loop, for UIs, session logs and stream-json output.
import type { ToolEvent } from '../pipeline/types.js';
import type { AssistantPart, Message, StopReason, UserPart, Usage } from '../providers/types.js';
import type { UsageTotals } from '../context/pricing.js';

export type AssistantMessage = { role: 'assistant'; content: AssistantPart[] };
export type UserMessage = { role: 'user'; content: UserPart[] };

/**
 * Why the loop ended. Only `end_turn` is a finished answer. `max_tokens`: the last reply was cut
 * off at the output-token limit; `refusal`: the model declined or a content filter stopped it
 * (OpenAI content_filter) — the same names as the turn_end event's stopReason.
 */
export type AgentStopReason = 'end_turn' | 'max_tokens' | 'refusal' | 'max_turns' | 'aborted' | 'error' | 'blocked';

export interface AgentResult {
  /** The whole history, every tool_use paired with exactly one tool_result. */
  messages: Message[];
  /** Text of the last assistant reply. */
  answer: string;
  /** Model requests made. */
  turns: number;
  toolCalls: number;
  /** The run's tokens, summed over its requests (compaction requests included). */
  usage: UsageTotals;
  /** USD at list price (see context/models.ts), or undefined when the model's price is unknown. */
  costUsd?: number;
  context: ContextSummary;
  stopReason: AgentStopReason;
  /** Set whenever stopReason is not 'end_turn' or 'aborted': what went wrong, for a person. */
  error?: string;
}

export interface ContextSummary {
  /** The window planned with, in tokens. */
  window: number;
  /** The history's size at the end: the provider's last count plus an estimate since. */
  tokens: number;
  compactions: number;
  /** Old tool results replaced by stubs. */
  cleared: number;
  /** Tokens the summarising requests took (part of usage too). */
  compactionUsage: UsageTotals;
}

export type CompactionReason = 'threshold' | 'prompt_too_long';

export type AgentEvent =
  | { type: 'turn_start'; turn: number }
  /** A user message the loop adds to the history: the prompt as sent, or a Stop hook's feedback. */
  | { type: 'user_message'; message: UserMessage; origin: 'prompt' | 'stop_hook' }
  | { type: 'text_delta'; text: string }
  /** What UserPromptSubmit or Stop hooks did (blocked, halted, added context), or that they failed to run. */
  | {
      type: 'loop_hook';
      event: 'UserPromptSubmit' | 'Stop';
      outcome: 'block' | 'halt' | 'context' | 'failed';
      reason?: string;
      /** Hooks that failed to run (they never block). */
      errors: string[];
    }
  /**
   * A tool call's arguments finished streaming; it is handed to the scheduler now, or, when they
   * are not whole JSON, once the reply's stop reason is known (cut off: not run, see cutoff.ts).
   */
  | { type: 'tool_call'; id: string; name: string; input: unknown }
  | { type: 'assistant_message'; message: AssistantMessage }
  /** The user message of tool_result parts appended after a turn's calls. */
  | { type: 'tool_results'; message: UserMessage }
  /**
   * After each reply: its usage, the run's total, the context's size against its window, and the
   * run's cost so far (undefined when the model's price is unknown) — what a status line shows.
   */
  | {
      type: 'usage';
      turn: number;
      usage: Usage;
      total: UsageTotals;
      contextTokens: number;
      contextWindow: number;
      costUsd?: number;
      turnCostUsd?: number;
    }
  /** Old tool results were replaced by stubs naming their spill files; `messages` is the history now. */
  | { type: 'context_cleared'; turn: number; cleared: number; messages: Message[]; contextTokens: number }
  /** The older turns were summarised; `messages` is the compacted history the run continues from. */
  | { type: 'context_compacted'; turn: number; reason: CompactionReason; messages: Message[]; summarised: number; contextTokens: number }
  | { type: 'context_compaction_failed'; turn: number; reason: CompactionReason; message: string }
  | { type: 'turn_end'; turn: number; stopReason: StopReason; toolCalls: number }
  /**
   * The reply broke off, stalled or was refused as overloaded; it is asked for again after
   * `delayMs`. What streamed of it so far (text, calls) is dropped; read-only calls it started
   * are stopped, and no other call of it ran.
   */
  | { type: 'model_retry'; attempt: number; maxRetries: number; delayMs: number; reason: string }
  | { type: 'error'; message: string }
  /** Something a person should know that does not stop the run (e.g. the session log stopped saving). */
  | { type: 'notice'; message: string }
  | { type: 'done'; result: AgentResult }
  | ToolEvent;
