// Clearing old tool results: when, which ones, and the stub that replaces each. Pure.
// Clearing changes an early part of the history, so the cached prefix is written again from the
// first cleared result on: every result kept after it is billed at the cache-write rate (1.25×)
// instead of the read rate (0.1×). It therefore runs in large steps: only once the context
// reaches TRIGGER of the window, and then down to TARGET, well below it. The last KEEP_TURNS are
// protected while the context can still get down to the target; when they hold too much, the
// protection shrinks to the newest turns that allow it, never below MIN_KEEP_TURNS (the batch
// being added and the turn the model just acted on). A step that stops above the target and frees
// less than MIN_STEP of the window is not taken: it would rebuild the prefix for little and fire
// again a turn or two later (compaction handles that context).
// Measured (BENCHMARKS.md, 40 Reads of ~25k-token files, 200k window): clearing whatever took the
// context under the trigger kept three turns (~75k tokens) above a 50k target, so each clearing
// freed one or two results: 19 clearings in 41 requests, 2.05M billed input tokens. These rules:
// 12 clearings, 1.87M; with minKeepTurns 1 (only the batch being added is sure to stay), 13 and
// 1.39M, since nothing large is kept after the cleared results to be written again.
import type { Message } from '../providers/types.js';
import { messageTokens } from './tokens.js';

export interface ClearingPolicy {
  /** Share of the window at which clearing runs. */
  trigger: number;
  /** Share of the window clearing brings the context down to. */
  target: number;
  /**
   * Assistant turns whose results are kept, the newest (whose results are being added) included,
   * as long as the context can still get down to the target.
   */
  keepTurns: number;
  /** Turns never cleared, however large: 2 is the batch being added and the turn before it. */
  minKeepTurns: number;
  /**
   * Share of the window a clearing that cannot reach the target must free to be worth rebuilding
   * the cached prefix (one that reaches it frees at least trigger − target).
   */
  minStep: number;
}

export const DEFAULT_CLEARING: ClearingPolicy = { trigger: 0.5, target: 0.25, keepTurns: 3, minKeepTurns: 2, minStep: 0.3 };

/** Marks a result already cleared, so it is never cleared (or spilled) twice. */
export const CLEARED_PREFIX = '[Cleared to save context:';

/** A result smaller than this frees next to nothing once its stub (~60 tokens) replaces it. */
const MIN_CLEARABLE_TOKENS = 100;

export interface ResultRef {
  messageIndex: number;
  partIndex: number;
  toolUseId: string;
  toolName: string;
  /** Estimated tokens the result takes now. */
  tokens: number;
}

function isCleared(part: Extract<Message['content'][number], { type: 'tool_result' }>): boolean {
  const first = part.content[0];
  return part.content.length === 1 && first?.type === 'text' && first.text.startsWith(CLEARED_PREFIX);
}

/** Index of the first message of the last `keepTurns` assistant turns (everything from there is kept). */
export function keptFrom(messages: readonly Message[], keepTurns: number): number {
  if (keepTurns <= 0) return messages.length;
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'assistant' && ++seen >= keepTurns) return i;
  }
  return 0;
}

/** Results that could be cleared, oldest first. */
function clearable(messages: readonly Message[]): ResultRef[] {
  const refs: ResultRef[] = [];
  messages.forEach((message, messageIndex) => {
    if (message.role !== 'user') return;
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'tool_result' || isCleared(part)) return;
      const tokens = messageTokens({ role: 'user', content: [part] });
      if (tokens >= MIN_CLEARABLE_TOKENS)
        refs.push({ messageIndex, partIndex, toolUseId: part.toolUseId, toolName: part.toolName, tokens });
    });
  });
  return refs;
}

export interface ClearingInput {
  /** The history up to the assistant turn whose results are being added (not yet in it). */
  messages: readonly Message[];
  /** The context's tokens with the incoming batch added. */
  contextTokens: number;
  window: number;
}

export type ClearingDecision =
  | { clear: false; reason: 'under_trigger' | 'step_too_small'; freeableTokens: number }
  | {
      clear: true;
      /** Oldest first. */
      results: ResultRef[];
      freedTokens: number;
      /** The last assistant turns whose results stay, the one whose results are being added included. */
      protectedTurns: number;
    };

/** Whether to clear now, and which results: see the rules at the top of this file. */
export function decideClearing(input: ClearingInput, policy: ClearingPolicy = DEFAULT_CLEARING): ClearingDecision {
  const { messages, contextTokens, window } = input;
  if (contextTokens < window * policy.trigger) return { clear: false, reason: 'under_trigger', freeableTokens: 0 };
  const goal = contextTokens - window * policy.target;
  const refs = clearable(messages);
  const freeable = (turns: number): ResultRef[] => {
    const end = keptFrom(messages, turns);
    return refs.filter((ref) => ref.messageIndex < end);
  };
  const sum = (list: readonly ResultRef[]) => list.reduce((total, ref) => total + ref.tokens, 0);
  // The newest assistant turn is in `messages`, its results are the incoming batch: turns = 1
  // protects only those.
  const least = Math.max(1, policy.minKeepTurns);
  let turns = Math.max(least, policy.keepTurns);
  while (turns > least && sum(freeable(turns)) < goal) turns--;
  const candidates = freeable(turns);
  const results: ResultRef[] = [];
  let freed = 0;
  for (const ref of candidates) {
    if (freed >= goal) break;
    results.push(ref);
    freed += ref.tokens;
  }
  const reached = contextTokens - freed <= window * policy.target;
  if (!reached && freed < window * policy.minStep) return { clear: false, reason: 'step_too_small', freeableTokens: sum(candidates) };
  return { clear: true, results, freedTokens: freed, protectedTurns: turns };
}

/** The call as one short line: `Read {"file_path":"src/a.ts"}`. */
export function callLine(name: string, input: unknown): string {
  const json = JSON.stringify(input) ?? '';
  return `${name} ${json.length > 200 ? `${json.slice(0, 199)}…` : json}`;
}

export function clearedStub(call: string, file: string): string {
  return `${CLEARED_PREFIX} ${call} — the full result is saved in ${file}; read it with Read {"file_path": ${JSON.stringify(file)}} if you need it again.]`;
}

/** The history with each chosen result replaced by its stub; `files` holds each one's spill file by tool-use id. */
export function withCleared(messages: readonly Message[], chosen: readonly ResultRef[], files: ReadonlyMap<string, string>): Message[] {
  const inputs = new Map<string, unknown>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const part of message.content) if (part.type === 'tool_use') inputs.set(part.id, part.input);
  }
  const out = [...messages];
  for (const ref of chosen) {
    const message = out[ref.messageIndex];
    const file = files.get(ref.toolUseId);
    if (message.role !== 'user' || file === undefined) continue;
    const content = message.content.map((part, i) =>
      i === ref.partIndex && part.type === 'tool_result'
        ? { ...part, content: [{ type: 'text' as const, text: clearedStub(callLine(ref.toolName, inputs.get(ref.toolUseId)), file) }] }
        : part,
    );
    out[ref.messageIndex] = { role: 'user', content };
  }
  return out;
}
