// AskUserQuestion takes Claude Code's input ({questions: [{question, header, options: [{label,
// description}], multiSelect}]}), shows the model exactly that schema, accepts cheap variants,
// and answers the model per question ("Which?"="A"). The terminal side shows header, labels and
// descriptions and reads single and multiple choices.
import { getEventListeners } from 'node:events';
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askUserTool, NO_ONE_TO_ASK } from '../../../src/coding/tools/ask-user.js';
import { parseQuestionReply, renderQuestion } from '../../../src/cli/question-prompt.js';
import { createTerminalQuestions, readlineAsk } from '../../../src/cli/terminal-ask.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import type { AskUser, UserQuestion } from '../../../src/runtime/tool/types.js';
import { run, workspace } from './helpers.js';
import type { Workspace } from './helpers.js';

const tool = askUserTool();
let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.cleanup());

const claudeStyle = {
  questions: [
    {
      question: 'Which?',
      header: 'Pick',
      options: [{ label: 'A', description: 'the first' }, { label: 'B' }],
      multiSelect: false,
    },
  ],
};

/** An ask-user channel that records the questions and answers with fixed replies. */
function recording(replies: string[][]): { ask: AskUser; seen: UserQuestion[][] } {
  const seen: UserQuestion[][] = [];
  return {
    seen,
    ask: async (questions) => {
      seen.push(questions);
      return replies;
    },
  };
}

describe('AskUserQuestion input', () => {
  it('accepts a Claude Code-style call and answers like Claude Code: "Which?"="A"', async () => {
    const { ask, seen } = recording([['A']]);
    const out = await run(tool, claudeStyle, ws.ctx({ askUser: ask }));
    expect(out.isError).toBeFalsy();
    expect(seen[0]).toEqual([
      {
        question: 'Which?',
        header: 'Pick',
        options: [
          { label: 'A', description: 'the first' },
          { label: 'B', description: '' },
        ],
        multiSelect: false,
      },
    ]);
    expect(out.text).toContain('"Which?"="A"');
    expect(out.text).not.toContain('not one of the options');
  });

  it('goes through the whole call path, arguments sent as a JSON string included', async () => {
    const registry = new ToolRegistry();
    registry.register(tool);
    const { ask } = recording([['B']]);
    const rt = createRuntime({ registry, session: ws.session, policy: allowAll, askUser: ask });
    const result = await runToolCall(
      { id: 'q1', name: 'AskUserQuestion', input: JSON.stringify(claudeStyle) },
      rt,
      new AbortController().signal,
    );
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('\\"Which?\\"=\\"B\\"');
  });

  it('is lenient where it costs nothing: plain-string options, no header, description, multiSelect or options', async () => {
    const { ask, seen } = recording([['pg'], ['wield']]);
    const out = await run(
      tool,
      { questions: [{ question: 'Which DB?', options: ['pg', 'sqlite'] }, { question: 'Name?' }] },
      ws.ctx({ askUser: ask }),
    );
    expect(out.isError).toBeFalsy();
    expect(seen[0]).toEqual([
      {
        question: 'Which DB?',
        header: '',
        options: [
          { label: 'pg', description: '' },
          { label: 'sqlite', description: '' },
        ],
        multiSelect: false,
      },
      { question: 'Name?', header: '', options: [], multiSelect: false },
    ]);
    expect(out.text).toBe(
      'User has answered your questions:\n"Which DB?"="pg"\n"Name?"="wield"\nYou can now continue with the user\'s answers in mind.',
    );
  });

  it('says which options were chosen for which question, several for multiSelect, and marks typed answers', async () => {
    const questions = [
      {
        question: 'Which checks?',
        header: 'Checks',
        options: [
          { label: 'lint', description: '' },
          { label: 'unit tests', description: '' },
          { label: 'e2e', description: '' },
        ],
        multiSelect: true,
      },
      {
        question: 'Which branch?',
        header: 'Branch',
        options: [
          { label: 'main', description: '' },
          { label: 'develop', description: '' },
        ],
        multiSelect: false,
      },
    ];
    const { ask } = recording([['lint', 'unit tests'], ['release/2.0']]);
    const out = await run(tool, { questions }, ws.ctx({ askUser: ask }));
    expect(out.text).toContain('"Which checks?"="lint, unit tests"\n');
    expect(out.text).toContain('"Which branch?"="release/2.0" (the user typed this answer; it is not one of the options)');
  });

  it('rejects what Claude Code rejects, with the reason', async () => {
    const ctx = ws.ctx({ askUser: recording([]).ask });
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `o${i}`, description: '' }));
    expect((await run(tool, { questions: [] }, ctx)).text).toContain('between 1 and 4 questions');
    expect((await run(tool, { questions: Array(5).fill(claudeStyle.questions[0]) }, ctx)).text).toContain('between 1 and 4 questions');
    expect((await run(tool, { questions: [{ question: 'Q?', header: 'h', options: many(5), multiSelect: false }] }, ctx)).text).toContain(
      'at most 4 options',
    );
    expect((await run(tool, { questions: [{ question: 'Q?', options: [{ label: '' }] }] }, ctx)).text).toContain(
      'option labels must be non-empty',
    );
    expect((await run(tool, { questions: [{ question: 'Q?', options: [{ description: 'no label' }] }] }, ctx)).isError).toBe(true);
  });

  it("shows the model Claude Code's schema exactly", () => {
    const schema = tool.inputJSONSchema as {
      required: string[];
      properties: {
        questions: {
          minItems: number;
          maxItems: number;
          items: {
            required: string[];
            properties: Record<string, { minItems?: number; maxItems?: number; items?: { required: string[] } }>;
          };
        };
      };
    };
    expect(schema.required).toEqual(['questions']);
    const { questions } = schema.properties;
    expect([questions.minItems, questions.maxItems]).toEqual([1, 4]);
    expect(Object.keys(questions.items.properties)).toEqual(['question', 'header', 'options', 'multiSelect']);
    expect(questions.items.required).toEqual(['question', 'header', 'options', 'multiSelect']);
    const { options } = questions.items.properties;
    expect([options.minItems, options.maxItems]).toEqual([2, 4]);
    expect(options.items?.required).toEqual(['label', 'description']);
  });

  it('says no one can answer in a non-interactive run', async () => {
    expect((await run(tool, claudeStyle, ws.ctx())).text).toBe(NO_ONE_TO_ASK);
    const nullAnswer = await run(tool, claudeStyle, ws.ctx({ askUser: async () => null }));
    expect(nullAnswer.isError).toBe(true);
    expect(nullAnswer.text).toBe(NO_ONE_TO_ASK);
  });
});

describe('AskUserQuestion in the terminal', () => {
  const pick: UserQuestion = {
    question: 'Which database?',
    header: 'Database',
    options: [
      { label: 'Postgres', description: 'Full SQL server' },
      { label: 'SQLite', description: 'One file\nno server' },
      { label: 'MySQL', description: '' },
    ],
    multiSelect: false,
  };
  const several: UserQuestion = { ...pick, question: 'Which databases?', multiSelect: true };

  it('shows the header, the numbered labels and their descriptions', () => {
    expect(renderQuestion(pick).split('\n')).toEqual([
      '? [Database] Which database?',
      '  1. Postgres — Full SQL server',
      '  2. SQLite — One file',
      '       no server',
      '  3. MySQL',
      '  (a number — or type your own answer)',
    ]);
    expect(renderQuestion(several)).toContain('choose any: numbers separated by commas');
    expect(renderQuestion({ ...pick, header: '', options: [] }).split('\n')).toEqual(['? Which database?', '  (type your answer)']);
  });

  it('reads labels by number, several with multiSelect (commas or spaces), or free text', () => {
    expect(parseQuestionReply('2', pick)).toEqual({ ok: true, answer: ['SQLite'] });
    expect(parseQuestionReply('3, 1 3', several)).toEqual({ ok: true, answer: ['MySQL', 'Postgres'] });
    expect(parseQuestionReply('1 2', pick)).toEqual({ ok: false, message: 'choose one number' });
    expect(parseQuestionReply('DuckDB', pick)).toEqual({ ok: true, answer: ['DuckDB'] });
  });

  it('asks each question over readline and leaves no abort listener on the signal', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const rl = createInterface({ input, output, terminal: false });
    let shown = '';
    // The question itself goes out with readline's prompt; messages about answers through write.
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const ask = createTerminalQuestions({ ask: readlineAsk(rl), write: (text) => (shown += text) });
    const controller = new AbortController();
    const asking = ask([pick, several, { ...pick, question: 'Name?', header: '', options: [] }], controller.signal);
    for (const line of ['9', '1', '1,3', 'wield']) {
      await new Promise((resolve) => setImmediate(resolve));
      input.write(`${line}\n`);
    }
    expect(await asking).toEqual([['Postgres'], ['Postgres', 'MySQL'], ['wield']]);
    expect(shown).toContain('? [Database] Which database?');
    expect(shown).toContain('1. Postgres — Full SQL server');
    expect(shown).toContain('choose numbers from 1 to 3');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    rl.close();
  });

  it('stops asking when the signal aborts', async () => {
    const input = new PassThrough();
    const rl = createInterface({ input, output: new PassThrough(), terminal: false });
    const ask = createTerminalQuestions({ ask: readlineAsk(rl), write: () => undefined });
    const controller = new AbortController();
    const asking = ask([pick], controller.signal);
    controller.abort(new Error('Ctrl-C'));
    await expect(asking).rejects.toThrow('Ctrl-C');
    rl.close();
  });
});
