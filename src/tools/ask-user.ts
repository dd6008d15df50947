// AskUserQuestion: asks the person through the runtime's ask-user channel (the CLI prompt or
// an SDK callback); in a non-interactive run it says no one can answer.
import { z } from 'zod';
import { defineTool } from '../tool/define.js';
import { ToolError } from '../tool/types.js';

export const askUserInput = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1, 'each question must be non-empty text'),
        options: z.array(z.string().min(1, 'options must be non-empty strings')).max(10, 'give at most 10 options per question').optional(),
        multiSelect: z.boolean().optional(),
      }),
      { error: 'questions must be an array of {question, options?, multiSelect?}' },
    )
    .min(1, 'questions must hold between 1 and 4 questions')
    .max(4, 'questions must hold between 1 and 4 questions'),
});
export type AskUserInput = z.infer<typeof askUserInput>;

export interface AskUserOutput {
  answers: Array<{ question: string; answer: string[] }>;
}

export const NO_ONE_TO_ASK =
  'No one can answer questions in this non-interactive run. Decide yourself: proceed with the most reasonable assumption, state it in your reply, and continue.';

export function askUserTool() {
  return defineTool<AskUserInput, AskUserOutput>({
    name: 'AskUserQuestion',
    source: 'builtin',
    searchHint: 'ask user question clarify choose option',
    description:
      'Asks the user one to four questions, each optionally with choices (multiSelect allows several). Use it when a decision really needs the user; ' +
      'in non-interactive runs it returns an error and you must decide yourself.',
    prompt: 'Ask the user only when you cannot reasonably decide yourself; offer concrete options.',
    inputSchema: askUserInput,
    isReadOnly: () => true,
    interruptBehavior: () => 'cancel',
    async call(input, ctx) {
      if (!ctx.askUser) throw new ToolError(NO_ONE_TO_ASK);
      const answers = await ctx.askUser(input.questions, ctx.signal);
      if (answers === null) throw new ToolError(NO_ONE_TO_ASK);
      return { answers: input.questions.map((q, i) => ({ question: q.question, answer: answers[i] ?? [] })) };
    },
    toModel: (output) => ({
      content: [
        {
          type: 'text',
          text: output.answers.map((a) => `Q: ${a.question}\nA: ${a.answer.length ? a.answer.join(', ') : '(no answer)'}`).join('\n\n'),
        },
      ],
    }),
  });
}
