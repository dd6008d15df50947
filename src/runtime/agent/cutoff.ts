// Replies that stop short: cut off at the output-token limit, or refused. Pure decisions about
// what such a reply means for its tool calls and for the run.
import type { ToolCallRequest } from '../pipeline/types.js';
import type { StopReason } from '../providers/types.js';
import type { ToolCallResult } from '../tool/types.js';
import type { AgentStopReason } from './events.js';
import { cutOffContent, syntheticResult } from '../results/errors.js';

/** Whether streamed arguments are one whole JSON value ('' counts: a call with no arguments). */
export function isCompleteJSON(raw: string): boolean {
  if (raw.trim() === '') return true;
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
}

/** A call whose arguments were not whole JSON when it finished streaming (see releaseHeld). */
export interface HeldCall {
  call: ToolCallRequest;
  complete: boolean;
}

/**
 * The calls held until the reply's stop reason was known. Cut off at the token limit, a call
 * with incomplete arguments must not run (JSON repair would run half a Write); it gets a result
 * that says so. Otherwise every held call runs, and the pipeline repairs what it can.
 */
export function releaseHeld(held: readonly HeldCall[], stopReason: StopReason): { run: ToolCallRequest[]; cutOff: ToolCallResult[] } {
  const run: ToolCallRequest[] = [];
  const cutOff: ToolCallResult[] = [];
  for (const { call, complete } of held) {
    if (stopReason === 'max_tokens' && !complete) cutOff.push(syntheticResult(call, cutOffContent(call.name)));
    else run.push(call);
  }
  return { run, cutOff };
}

export type ReplyEnd = { stopReason: Extract<AgentStopReason, 'end_turn' | 'max_tokens' | 'refusal'>; error?: string };

/**
 * How the run ends after a reply that asked for no tools. A cut-off or refused reply is not a
 * finished answer, so it is reported as such (the CLI exits 1); other stops count as the end.
 */
export function endOfReply(stopReason: StopReason): ReplyEnd {
  if (stopReason === 'max_tokens') {
    return { stopReason, error: "The model's reply was cut off at its output-token limit (max_tokens): the answer is incomplete." };
  }
  if (stopReason === 'refusal') {
    return {
      stopReason,
      error: 'The model declined to answer or a content filter stopped the reply (refusal): the answer is incomplete or empty.',
    };
  }
  return { stopReason: 'end_turn' };
}
