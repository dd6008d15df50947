// What a resumed session shows of its past: the last few exchanges, prompts and answers clipped
// and tool calls as one line each, so the person sees where they left off. Pure.
import type { Message } from '../runtime/providers/types.js';
import { callSummary, clip } from './summary.js';
import { plainText } from './terminal-text.js';

/** Lines of an answer kept in the recap; the rest is one "…" line. */
const ANSWER_LINES = 6;

/** The recap of the last `maxPrompts` prompts and what followed each. */
export function historyRecap(messages: readonly Message[], maxPrompts = 3, cwd?: string): string[] {
  const prompts = messages.flatMap((message, index) =>
    message.role === 'user' && message.content.some((part) => part.type === 'text') ? [index] : [],
  );
  const start = prompts.length > maxPrompts ? prompts[prompts.length - maxPrompts] : 0;
  const lines: string[] = [];
  if (start > 0) lines.push(`… ${prompts.length - maxPrompts} earlier prompt${prompts.length - maxPrompts === 1 ? '' : 's'}`);
  for (const message of messages.slice(start)) {
    if (message.role === 'user') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
      if (text.trim() !== '') lines.push(`› ${clip(text, 150)}`);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'tool_use') lines.push(`● ${callSummary(part.name, part.input, cwd)}`);
      else if (part.type === 'text' && part.text.trim() !== '') {
        const answer = plainText(part.text).trimEnd().split('\n');
        lines.push(...answer.slice(0, ANSWER_LINES));
        if (answer.length > ANSWER_LINES) lines.push('…');
      }
    }
  }
  return lines;
}
