// Clearing old tool results: which ones, and the stub that replaces each. Pure.
// Clearing changes an early part of the history, so the cached prefix from there on is written
// again; it therefore runs rarely and in large steps: past TRIGGER of the window, results are
// cleared oldest first until the context is down to TARGET, never those of the last KEEP_TURNS.
import type { Message } from '../providers/types.js';
import { messageTokens } from './tokens.js';

export interface ClearingPolicy {
  /** Share of the window past which clearing runs. */
  trigger: number;
  /** Share of the window clearing brings the context down to (when enough is old enough). */
  target: number;
  /** Assistant turns at the end whose results are never cleared. */
  keepTurns: number;
}

export const DEFAULT_CLEARING: ClearingPolicy = { trigger: 0.5, target: 0.25, keepTurns: 3 };

/** Marks a result already cleared, so it is never cleared (or spilled) twice. */
export const CLEARED_PREFIX = '[Cleared to save context:';

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
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'assistant' && ++seen >= keepTurns) return i;
  }
  return 0;
}

/** The results to clear, oldest first, or none when the context is under the trigger. */
export function chooseResultsToClear(
  messages: readonly Message[],
  contextTokens: number,
  window: number,
  policy: ClearingPolicy = DEFAULT_CLEARING,
): ResultRef[] {
  if (contextTokens <= window * policy.trigger) return [];
  const toFree = contextTokens - window * policy.target;
  const end = keptFrom(messages, policy.keepTurns);
  const chosen: ResultRef[] = [];
  let freed = 0;
  for (let m = 0; m < end && freed < toFree; m++) {
    const message = messages[m];
    if (message.role !== 'user') continue;
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'tool_result' || isCleared(part) || freed >= toFree) return;
      const tokens = messageTokens({ role: 'user', content: [part] });
      // A result smaller than its stub frees nothing.
      if (tokens < 100) return;
      chosen.push({ messageIndex: m, partIndex, toolUseId: part.toolUseId, toolName: part.toolName, tokens });
      freed += tokens;
    });
  }
  return chosen;
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
