// Bad programs end with a clear result naming the line and the cause, never a hung or crashed run.
import { describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { runProgram } from '../../../src/runtime/codemode/interpreter.js';
import { DEFAULT_LIMITS, type ProgramHost } from '../../../src/runtime/codemode/types.js';
import { newInterpreter } from '../../../src/runtime/codemode/quickjs.js';
import { codeRuntime, runCode } from './helpers.js';

const TIGHT = { cpuMs: 300, memoryBytes: 16 * 1024 * 1024, deadlineMs: 60_000 };

describe('bad programs', () => {
  const rt = codeRuntime({ appended: [] }, {}, TIGHT);
  it.each([
    ['a syntax error', 'const a = 1;\nlet x = ;', /The program failed at line 2: SyntaxError: unexpected token/],
    ['a thrown error', '\n\nnull.foo', /The program failed at line 3: TypeError: cannot read property 'foo' of null/],
    ['a thrown non-error', 'throw 42', /The program failed: Error: uncaught 42/],
    [
      'an uncaught failed call',
      '\nawait tools.Danger({})',
      /The program failed at line 2: a tool call failed and the program did not catch it: .*Danger is never allowed/,
    ],
    ['an endless loop', 'let n = 0;\nwhile (true) n++;', /ran its own code for more than 300 ms of CPU/],
    ['an endless chain of promise jobs', 'for (;;) await null;', /ran its own code for more than 300 ms of CPU/],
    ['a memory blow-up', 'const a = [];\nfor (;;) a.push(new Array(1 << 16).fill(a.length));', /ran out of memory \(its limit is 16 MB\)/],
    [
      'array buffers, which the heap limit does not count',
      'const a = [];\nfor (;;) a.push(new ArrayBuffer(1 << 20));',
      /ran out of memory/,
    ],
    ['a huge string', "'x'.repeat(2 ** 29)", /(ran out of memory|RangeError)/],
    [
      'a recursion without end',
      'function f(n) { return f(n + 1) + 1 }\nf(0)',
      /The program failed at line 1: RangeError: Maximum call stack size exceeded/,
    ],
    ['an await on what never settles', 'await new Promise(() => {})', /awaits a promise nothing can settle/],
    ['a timer', 'await new Promise((r) => setTimeout(r, 10))', /line 1: ReferenceError: setTimeout is not defined/],
    ['an error whose message getter loops', 'throw { get message() { for (;;) {} } }', /The program failed: Error: uncaught/],
  ])('%s', async (_, code, expected) => {
    const { result, text } = await runCode(rt, code);
    expect(result.isError).toBe(true);
    expect(result.errorKind).toBe('tool_failed');
    expect(text).toMatch(expected);
    expect(text).toMatch(/Tool calls/);
  });

  it('keeps what was printed before the failure, and the ledger of calls made', async () => {
    const { text } = await runCode(rt, "console.log('first');\nawait tools.Lookup({ key: 'k' });\nundefinedName;");
    expect(text).toBe('first\n\nThe program failed at line 3: ReferenceError: undefinedName is not defined\n\nTool calls (1): Lookup ok');
  });

  it('an empty program is invalid input, as any bad input is', async () => {
    const { result, text } = await runCode(rt, '   ');
    expect(result.errorKind).toBe('invalid_input');
    expect(text).toMatch(/code must not be empty/);
  });

  it('prints the returned value and says when nothing was printed', async () => {
    expect((await runCode(rt, 'return { a: 1 }')).text).toBe('{"a":1}\n\nTool calls: none.');
    expect((await runCode(rt, 'const a = 1')).text).toMatch(/printed nothing: return results with console.log/);
  });

  it('waits for calls the program started without awaiting them', async () => {
    const effects = { appended: [] as string[] };
    const yes = codeRuntime(effects, { askPermission: async () => ({ behavior: 'allow' }) });
    const { text } = await runCode(yes, "tools.Append({ text: 'late' }); console.log('done')");
    expect(effects.appended).toEqual(['late']);
    expect(text).toContain('Tool calls (1): Append ok');
  });
});

describe('limits', () => {
  const settleLater = (): Promise<never> => new Promise(() => undefined);
  const hostWith = (waitedMs: () => number, release: Promise<void>): ProgramHost => ({
    signal: new AbortController().signal,
    waitedMs,
    call: async () => {
      await release;
      return { ok: true, text: 'done' };
    },
  });

  it('the deadline stops a program whose call outlasts it', async () => {
    const run = await runProgram(
      await newInterpreter(64 * 1024 * 1024),
      'await tools.Slow({})',
      hostWith(() => 0, settleLater()),
      { ...DEFAULT_LIMITS, deadlineMs: 20 },
    );
    expect(run.end).toEqual({ kind: 'deadline' });
  });

  it("a person's thinking time does not count against the deadline", async () => {
    const started = performance.now();
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    // All time so far was a person's: the program's own clock never moves.
    const running = runProgram(
      await newInterpreter(64 * 1024 * 1024),
      'console.log(await tools.Ask({}))',
      hostWith(() => performance.now() - started, released),
      {
        ...DEFAULT_LIMITS,
        deadlineMs: 1,
      },
    );
    setTimeout(release, 30);
    const run = await running;
    expect(run.end).toEqual({ kind: 'completed' });
    expect(run.output).toBe('done\n');
  });

  it('programs run one after another under one signal leave no listener on it', async () => {
    const signal = new AbortController().signal;
    const host: ProgramHost = { signal, waitedMs: () => 0, call: async () => ({ ok: true, text: 'done' }) };
    for (let i = 0; i < 12; i++) await runProgram(await newInterpreter(64 * 1024 * 1024), 'await tools.A({})', host, DEFAULT_LIMITS);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('output past the limit is cut and said so', async () => {
    const rt = codeRuntime({ appended: [] }, {}, { maxOutputChars: 100 });
    const { text } = await runCode(rt, "for (let i = 0; i < 100; i++) console.log('line ' + i)");
    expect(text).toMatch(/^line 0\n/);
    expect(text).toContain('[output cut at 100 characters]');
  });
});
