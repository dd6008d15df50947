// Every error result the runtime writes itself, built in one place: the kind a program switches
// on (tool/types.ts ErrorKind) beside the text the model reads, so the two never drift apart.
import type { ErrorKind, ToolCallResult, ToolResultContent } from '../tool/types.js';

/** A result that ends a call in an error, with its kind. */
export interface ErrorContent extends ToolResultContent {
  isError: true;
  errorKind: ErrorKind;
}

export function errorContent(kind: ErrorKind, message: string): ErrorContent {
  return { content: [{ type: 'text', text: message }], isError: true, errorKind: kind };
}

/** The call was stopped while it ran. */
export const INTERRUPTED = 'Interrupted by the user: this call was stopped before it finished. Its effects, if any, may be partial.';
/** The call never started. */
export const INTERRUPTED_BEFORE_RUN = 'Interrupted by the user before this call ran.';

export const interruptedWhileRunning = (): ErrorContent => errorContent('interrupted', INTERRUPTED);
export const interruptedBeforeRun = (): ErrorContent => errorContent('interrupted', INTERRUPTED_BEFORE_RUN);

/** The model's reply failed mid-turn: its calls that had no result yet never get one from a tool. */
export function modelFailedContent(detail: string): ErrorContent {
  return errorContent('interrupted', `Not run: the model's reply failed before the turn finished (${detail}).`);
}

/** The reply hit the output-token limit while the model wrote this call's arguments. */
export function cutOffContent(toolName: string): ErrorContent {
  return errorContent(
    'cut_off',
    `Not run: your reply was cut off at the output-token limit while you were writing the arguments of this ${toolName} call, ` +
      'so they are incomplete and nothing was run. Send the call again, smaller: e.g. split a large Write into a Write ' +
      'of the first part followed by Edit calls that add the rest.',
  );
}

/** An internal error lost the result (the one-result-per-call guarantee still holds). */
export function resultLostContent(detail: string): ErrorContent {
  return errorContent('result_lost', `The result of this call was lost to an internal error (${detail}).`);
}

/** A result for a call no pipeline run answered (cut off, interrupted, lost). */
export function syntheticResult(call: { id: string; name: string }, error: ErrorContent): ToolCallResult {
  return { toolUseId: call.id, toolName: call.name, content: error.content, isError: true, errorKind: error.errorKind, durationMs: 0 };
}
