// AskUserQuestion in the terminal: how a question is shown (its header, numbered options with
// their descriptions) and how the answer is read (an option's number, several separated by
// commas when multiSelect, or free text). Pure; the terminal is in terminal-ask.ts.
import { plainText } from './terminal-text.js';
export type QuestionReply = { ok: true; answer: string[] } | { ok: false; message: string };

/** A question as the tool passes it (UserQuestion), or written by hand: options may be plain labels, fields left out. */
export interface PromptQuestion {
  question: string;
  header?: string;
  options?: ReadonlyArray<string | { label: string; description?: string }>;
  multiSelect?: boolean;
}

function optionsOf(question: PromptQuestion): Array<{ label: string; description: string }> {
  return (question.options ?? []).map((option) =>
    typeof option === 'string' ? { label: option, description: '' } : { label: option.label, description: option.description ?? '' },
  );
}

export function renderQuestion(question: PromptQuestion): string {
  const options = optionsOf(question);
  const hint =
    options.length === 0
      ? '  (type your answer)'
      : question.multiSelect
        ? '  (choose any: numbers separated by commas, e.g. 1,3 — or type your own answer)'
        : '  (a number — or type your own answer)';
  const header = question.header?.trim() ? `[${question.header.trim()}] ` : '';
  // A description's own line breaks stay under the option, not at the margin.
  const line = (option: { label: string; description: string }, i: number) =>
    `  ${i + 1}. ${option.label}${option.description.trim() ? ` — ${option.description.trim().replace(/\s*\n\s*/g, '\n       ')}` : ''}`;
  return plainText([`? ${header}${question.question}`, ...options.map(line), hint].join('\n'));
}

/** Numbers pick options (by label); anything else is the person's own answer, taken as typed. */
export function parseQuestionReply(line: string, question: PromptQuestion): QuestionReply {
  const text = line.trim();
  if (text === '') return { ok: false, message: 'answer with a number or some text' };
  const options = optionsOf(question);
  if (options.length === 0 || !/^\d+([\s,]+\d+)*$/.test(text)) return { ok: true, answer: [text] };
  const picks = [...new Set(text.split(/[\s,]+/).map(Number))];
  if (picks.some((n) => n < 1 || n > options.length)) return { ok: false, message: `choose numbers from 1 to ${options.length}` };
  if (picks.length > 1 && !question.multiSelect) return { ok: false, message: 'choose one number' };
  return { ok: true, answer: picks.map((n) => options[n - 1].label) };
}
