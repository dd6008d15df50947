// AskUserQuestion in the terminal: how a question is shown (numbered options) and how the
// answer is read (an option's number, several comma-separated when multiSelect, or free text).
// Pure; the terminal is in terminal-ask.ts.
import type { UserQuestion } from '../tool/types.js';

export type QuestionReply = { ok: true; answer: string[] } | { ok: false; message: string };

export function renderQuestion(question: UserQuestion): string {
  const options = question.options ?? [];
  const hint =
    options.length === 0
      ? '  (type your answer)'
      : question.multiSelect
        ? '  (numbers separated by commas, e.g. 1,3 — or type your own answer)'
        : '  (a number — or type your own answer)';
  return [`? ${question.question}`, ...options.map((option, i) => `  ${i + 1}. ${option}`), hint].join('\n');
}

/** Numbers pick options; anything else is the person's own answer, taken as typed. */
export function parseQuestionReply(line: string, question: UserQuestion): QuestionReply {
  const text = line.trim();
  if (text === '') return { ok: false, message: 'answer with a number or some text' };
  const options = question.options ?? [];
  if (options.length === 0 || !/^\d+(\s*,\s*\d+)*$/.test(text)) return { ok: true, answer: [text] };
  const picks = [...new Set(text.split(',').map((part) => Number(part.trim())))];
  if (picks.some((n) => n < 1 || n > options.length)) return { ok: false, message: `choose numbers from 1 to ${options.length}` };
  if (picks.length > 1 && !question.multiSelect) return { ok: false, message: 'choose one number' };
  return { ok: true, answer: picks.map((n) => options[n - 1]) };
}
