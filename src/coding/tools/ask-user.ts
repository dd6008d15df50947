// AskUserQuestion: asks the person through the runtime's ask-user channel (the CLI prompt or
// an SDK callback); in a non-interactive run it says no one can answer.
//
// The input is Claude Code's, so models already know it: questions (1-4), each {question,
// header (a chip of at most 12 characters), options: 2-4 of {label, description}, multiSelect}.
// Source: Claude Agent SDK docs, "Handle approvals and user input" (AskUserQuestion's fields),
// https://platform.claude.com/docs/en/agent-sdk/user-input, and the tool's input schema as
// shipped in @anthropic-ai/claude-agent-sdk. The model is shown exactly that schema; validation
// also takes what costs nothing to accept: an option given as a plain string, a missing header,
// description or multiSelect, and no options at all (a free-text question).
import { z } from 'zod';
import { defineTool } from '../../runtime/tool/define.js';
import { jsonSchemaOf } from '../../runtime/tool/json-schema.js';
import { ToolError } from '../../runtime/tool/types.js';
import type { UserQuestion } from '../../runtime/tool/types.js';

const MAX_QUESTIONS = 4;
const MAX_OPTIONS = 4;

/** Claude Code's schema: what the model is shown. */
const shownInput = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().describe('The complete question to ask, clear and specific, ending with a question mark'),
        header: z.string().describe('A very short label shown with the question (max 12 characters), e.g. "Auth method"'),
        options: z
          .array(
            z.object({
              label: z.string().describe('The choice as the user sees it (1-5 words)'),
              description: z.string().describe('What this choice means or what happens if it is chosen'),
            }),
          )
          .min(2)
          .max(MAX_OPTIONS)
          .describe('2-4 distinct choices; the user can always type an answer of their own instead'),
        multiSelect: z.boolean().describe('true lets the user choose several options'),
      }),
    )
    .min(1)
    .max(MAX_QUESTIONS)
    .describe('Questions to ask the user (1-4)'),
});

const option = z.preprocess(
  (value) => (typeof value === 'string' ? { label: value } : value),
  z.object(
    {
      label: z.string().min(1, 'option labels must be non-empty'),
      description: z.string().default(''),
    },
    { error: 'each option must be {label, description}' },
  ),
);

/** What validation accepts: Claude Code's shape, with the lenient extras above. */
export const askUserInput = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1, 'each question must be non-empty text'),
        header: z.string().default(''),
        options: z.array(option).max(MAX_OPTIONS, `give at most ${MAX_OPTIONS} options per question`).default([]),
        multiSelect: z.boolean().default(false),
      }),
      { error: 'questions must be an array of {question, header, options, multiSelect}' },
    )
    .min(1, `questions must hold between 1 and ${MAX_QUESTIONS} questions`)
    .max(MAX_QUESTIONS, `questions must hold between 1 and ${MAX_QUESTIONS} questions`),
});
export type AskUserInput = z.output<typeof askUserInput>;

export interface AskUserOutput {
  answers: Array<{ question: UserQuestion; answer: string[] }>;
}

export const NO_ONE_TO_ASK =
  'No one can answer questions in this non-interactive run. Decide yourself: proceed with the most reasonable assumption, state it in your reply, and continue.';

/** One line per question, as Claude Code answers: `"Which?"="A"`, several choices joined by ", ". */
export function formatAnswers(output: AskUserOutput): string {
  const lines = output.answers.map(({ question, answer }) => {
    const asked = JSON.stringify(question.question);
    if (answer.length === 0) return `${asked}: no answer`;
    const labels = new Set(question.options.map((o) => o.label));
    const own = question.options.length > 0 && answer.some((a) => !labels.has(a));
    return `${asked}=${JSON.stringify(answer.join(', '))}${own ? ' (the user typed this answer; it is not one of the options)' : ''}`;
  });
  return ['User has answered your questions:', ...lines, "You can now continue with the user's answers in mind."].join('\n');
}

export function askUserTool() {
  return defineTool<AskUserInput, AskUserOutput>({
    name: 'AskUserQuestion',
    source: 'builtin',
    searchHint: 'ask user question clarify choose option',
    description:
      'Asks the user one to four multiple-choice questions, each with a short header and 2-4 options (label and description); ' +
      'multiSelect allows several choices, and the user can always type an answer of their own. Use it when a decision really needs the user; ' +
      'in non-interactive runs it returns an error and you must decide yourself.',
    prompt:
      'Ask the user only when you cannot reasonably decide yourself; offer concrete options. If you recommend one, put it first and end its label with "(Recommended)".',
    inputSchema: askUserInput,
    inputJSONSchema: jsonSchemaOf(shownInput, 'AskUserQuestion'),
    isReadOnly: () => true,
    interruptBehavior: () => 'cancel',
    async call(input, ctx) {
      if (!ctx.askUser) throw new ToolError(NO_ONE_TO_ASK);
      const answers = await ctx.askUser(input.questions, ctx.signal);
      if (answers === null) throw new ToolError(NO_ONE_TO_ASK);
      return { answers: input.questions.map((question, i) => ({ question, answer: answers[i] ?? [] })) };
    },
    toModel: (output) => ({ content: [{ type: 'text', text: formatAnswers(output) }] }),
  });
}
