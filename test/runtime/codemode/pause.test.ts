// A program pauses while a person is asked about one of its calls and resumes where it stopped:
// the interpreter stays alive, so nothing before the pause runs again.
import { describe, expect, it } from 'vitest';
import type { AskPermission, PermissionAnswer, ToolEvent } from '../../../src/runtime/pipeline/types.js';
import { codeRuntime, runCode, type Effects } from './helpers.js';

/** A person who answers when the test says so; each question is announced. */
function person() {
  const questions: { tool: string; answer: (a: PermissionAnswer) => void }[] = [];
  let announce: () => void = () => undefined;
  const ask: AskPermission = (request) =>
    new Promise((resolve) => {
      questions.push({ tool: request.tool.name, answer: resolve });
      announce();
    });
  const nextQuestion = async (count: number) => {
    while (questions.length < count) await new Promise<void>((resolve) => (announce = resolve));
    return questions[count - 1];
  };
  return { ask, nextQuestion };
}

const PROGRAM = `
  let steps = 0;
  const before = JSON.parse(await tools.Lookup({ key: 'abc' }));
  steps++;
  console.log('before', before.value, steps);
  console.log(await tools.Append({ text: 'one' }));
  steps++;
  try {
    await tools.Append({ text: 'two' });
  } catch (error) {
    console.log('refused:', error.message, error.kind);
  }
  console.log(await tools.Append({ text: 'three' }));
  console.log('steps', ++steps);`;

describe('approvals inside a program', () => {
  it('pauses for the person, resumes after the answer, and repeats no side effect', async () => {
    const effects: Effects = { appended: [] };
    const { ask, nextQuestion } = person();
    const events: ToolEvent[] = [];
    const rt = codeRuntime(effects, { askPermission: ask, emit: (event) => events.push(event) });
    const running = runCode(rt, PROGRAM);

    const first = await nextQuestion(1);
    expect(first.tool).toBe('Append');
    // Paused: the lookup ran once, nothing was appended yet.
    expect(effects.appended).toEqual([]);
    expect(events.filter((e) => e.type === 'tool_end').map((e) => e.toolName)).toEqual(['Lookup']);
    first.answer({ behavior: 'allow' });

    const second = await nextQuestion(2);
    expect(effects.appended).toEqual(['one']);
    second.answer({ behavior: 'deny', message: 'not that one' });

    (await nextQuestion(3)).answer({ behavior: 'allow' });
    const { result, text } = await running;

    expect(effects.appended).toEqual(['one', 'three']);
    expect(result.isError).toBe(false);
    expect(text).toMatch(
      /^before 3 1\nappended one\nrefused: Permission denied for Append: the user declined: not that one\..* denied\nappended three\nsteps 3\n/,
    );
    expect(text).toContain('Tool calls (4): Lookup ok · Append ok · Append denied · Append ok');
    // Each inner ask was told as for any call, under the inner call's id.
    expect(events.filter((e) => e.type === 'permission_asked').map((e) => e.toolUseId)).toEqual(['prog.2', 'prog.3', 'prog.4']);
  });

  it('calls started together are asked one at a time, in the order the program made them', async () => {
    const effects: Effects = { appended: [] };
    const { ask, nextQuestion } = person();
    const running = runCode(
      codeRuntime(effects, { askPermission: ask }),
      `console.log((await Promise.all([tools.Append({ text: 'a' }), tools.Append({ text: 'b' })])).join(', '))`,
    );
    const first = await nextQuestion(1);
    first.answer({ behavior: 'allow' });
    (await nextQuestion(2)).answer({ behavior: 'allow' });
    const { text } = await running;
    expect(text).toContain('appended a, appended b');
    expect(effects.appended).toEqual(['a', 'b']);
  });

  it('stopping the run while a person is asked ends the program and runs nothing more', async () => {
    const effects: Effects = { appended: [] };
    const { ask, nextQuestion } = person();
    const stop = new AbortController();
    const running = runCode(
      codeRuntime(effects, { askPermission: ask }),
      `await tools.Append({ text: 'x' }); await tools.Append({ text: 'y' });`,
      stop.signal,
    );
    await nextQuestion(1);
    stop.abort();
    const { result } = await running;
    expect(result.errorKind).toBe('interrupted');
    expect(effects.appended).toEqual([]);
  });
});
