// What the session says when it makes room in the context: which old tool results were cleared
// (and where each is saved whole), what a compaction summarised, what /clear forgot, and how to
// read each back (Ctrl-O, the saved files, the session log). Pure.
import type { Message } from '../runtime/providers/types.js';
import { CLEARED_PREFIX } from '../runtime/context/clearing.js';
import type { CompactionReason } from '../runtime/agent/events.js';
import { plainText } from './terminal-text.js';

/** A line for the transcript, and what the expand key shows after it. */
export interface ContextNotice {
  line: string;
  detail: { summary: string; lines: string[] };
}

/** `[Cleared to save context: Read {...} — the full result is saved in FILE; …]` */
const STUB = /^\[Cleared to save context: (.*) — the full result is saved in (.+?); read it with/s;

/** Every cleared result's stub in the history, by tool-use id: the call and where its result is saved. */
export function clearedResults(messages: readonly Message[]): Map<string, { call: string; file: string }> {
  const found = new Map<string, { call: string; file: string }>();
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type !== 'tool_result') continue;
      const first = part.content[0];
      if (first?.type !== 'text' || !first.text.startsWith(CLEARED_PREFIX)) continue;
      const stub = STUB.exec(first.text);
      if (stub) found.set(part.toolUseId, { call: stub[1], file: stub[2] });
    }
  }
  return found;
}

/**
 * Old results just replaced by stubs (the ones `known` did not hold yet; it is updated); the
 * detail lists every result cleared so far.
 */
export function clearedNotice(messages: readonly Message[], known: Set<string>, logFile: string): ContextNotice {
  const all = [...clearedResults(messages)];
  const fresh = all.filter(([id]) => !known.has(id));
  for (const [id] of fresh) known.add(id);
  const count = fresh.length;
  const tools = countBy(fresh.map(([, stub]) => stub.call.split(' ')[0]));
  return {
    line:
      `◇ context: ${count} old tool result${count === 1 ? '' : 's'} cleared to save room (${tools}); ` +
      'the model sees a note naming each saved file instead · Ctrl-O lists them',
    detail: {
      summary: `the ${all.length} tool results cleared so far`,
      lines: [
        ...all.map(([, stub]) => `${plainText(stub.call)}\n    saved in ${plainText(stub.file)}`),
        `(the session log keeps the whole conversation: ${logFile})`,
      ],
    },
  };
}

const REASONS: Record<CompactionReason, string> = {
  threshold: 'the context neared its window',
  prompt_too_long: 'the provider refused the request as too long',
};

/** The older turns were summarised (automatically, or by /compact when `reason` is undefined). */
export function compactedNotice(
  summarised: number,
  messages: readonly Message[],
  logFile: string,
  reason?: CompactionReason,
): ContextNotice {
  const why = reason ? ` (${REASONS[reason]})` : '';
  const first = messages[0]?.content[0];
  const summary = first?.type === 'text' ? first.text : '';
  return {
    line:
      `◇ context: ${summarised} older message${summarised === 1 ? '' : 's'} summarised${why}; the last turns are kept verbatim · ` +
      `Ctrl-O shows the summary the model now sees; the whole conversation stays in ${logFile}`,
    detail: { summary: 'the summary the model sees now', lines: plainText(summary).split('\n') },
  };
}

/** /clear: what was forgotten, and where it still is. */
export function clearedConversationText(forgotten: number, logFile: string): string {
  return (
    `◇ conversation cleared: ${forgotten} message${forgotten === 1 ? '' : 's'} forgotten, the next prompt starts fresh; ` +
    `they stay in the session log: ${logFile}`
  );
}

/** `2 Read, 1 Bash` */
function countBy(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${n} ${name}`).join(', ');
}
