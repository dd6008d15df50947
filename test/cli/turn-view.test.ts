import { describe, expect, it } from 'vitest';
import { createTurnView, progressText, Spinner } from '../../src/cli/turn-view.js';

describe('tool progress on the spinner line', () => {
  it('shows the latest output line, else the message or the count', () => {
    expect(progressText({ output: 'a\nb\n\n', message: '4 bytes of output' })).toBe('b');
    expect(progressText({ message: '12 bytes of output' })).toBe('12 bytes of output');
    expect(progressText({ progress: 3, total: 10 })).toBe('3/10');
    expect(progressText({})).toBeUndefined();
    expect(progressText({ output: 'x'.repeat(200) })?.length).toBeLessThanOrEqual(60);
  });
});

describe('the turn view', () => {
  const view = () => {
    const lines: string[] = [];
    const turn = createTurnView({
      write: (text) => lines.push(text),
      line: (text) => lines.push(text),
      color: false,
      markdown: () => undefined,
      readFile: () => 'a\nb\nc\n',
      spinner: new Spinner(() => undefined, false),
    });
    return { lines, turn };
  };
  const result = (durationMs: number) => ({
    toolUseId: 't',
    toolName: 'Edit',
    durationMs,
    isError: false,
    content: [{ type: 'text' as const, text: 'ok' }],
  });
  const input = { file_path: '/p/f', old_string: 'b', new_string: 'B' };

  it('shows the diff after an edit nobody was asked about, with true line numbers', () => {
    const { lines, turn } = view();
    turn.onEvent({ type: 'tool_start', toolUseId: 't', toolName: 'Edit', input });
    turn.onEvent({ type: 'tool_end', toolUseId: 't', toolName: 'Edit', result: result(20) });
    expect(lines.join('\n')).toContain('@@ -1,3 +1,3 @@');
    expect(lines.join('\n')).toContain('+B');
  });

  it('shows no second diff after an approved edit, and leaves the approval wait out of the duration', () => {
    const { lines, turn } = view();
    const decision = { behavior: 'ask' as const, reason: 'r' };
    turn.onEvent({ type: 'tool_start', toolUseId: 't', toolName: 'Edit', input });
    turn.onEvent({ type: 'permission_asked', toolUseId: 't', toolName: 'Edit', input, decision });
    const until = performance.now() + 1200;
    while (performance.now() < until) {
      // the person reads the prompt
    }
    turn.onEvent({
      type: 'permission_decided',
      toolUseId: 't',
      toolName: 'Edit',
      decision: { behavior: 'allow', reason: 'y' },
      by: 'user',
    });
    turn.onEvent({ type: 'tool_end', toolUseId: 't', toolName: 'Edit', result: result(1250) });
    const text = lines.join('\n');
    expect(text).not.toContain('@@');
    expect(text).toMatch(/⎿ ok$/m);
  });

  it('puts a result under its call, naming the call again when other lines came between', () => {
    const { lines, turn } = view();
    const bash = (id: string, command: string) => ({ type: 'tool_start' as const, toolUseId: id, toolName: 'Bash', input: { command } });
    const end = (id: string, text: string) => ({
      type: 'tool_end' as const,
      toolUseId: id,
      toolName: 'Bash',
      result: { toolUseId: id, toolName: 'Bash', durationMs: 5, isError: false, content: [{ type: 'text' as const, text }] },
    });
    turn.onEvent(bash('1', 'echo one'));
    turn.onEvent(end('1', 'one'));
    turn.onEvent(bash('2', 'echo two'));
    turn.onEvent(bash('3', 'echo three'));
    turn.onEvent(end('2', 'two'));
    expect(lines).toEqual(['● Bash(echo one)', '  ⎿ one', '● Bash(echo two)', '● Bash(echo three)', '● Bash(echo two)', '  ⎿ two']);
  });

  it("shows a program's calls as they happen, indented under it, and leaves the person's wait out of the program's time", () => {
    const { lines, turn } = view();
    const start = (id: string, toolName: string, input: Record<string, unknown>) =>
      turn.onEvent({ type: 'tool_start', toolUseId: id, toolName, input });
    const end = (id: string, toolName: string, text: string, durationMs = 5) =>
      turn.onEvent({
        type: 'tool_end',
        toolUseId: id,
        toolName,
        result: { toolUseId: id, toolName, durationMs, isError: false, content: [{ type: 'text' as const, text }] },
      });
    start('p', 'RunCode', { code: 'const a = await tools.Read({file_path: "a"})' });
    start('p.1', 'Read', { file_path: 'a' });
    end('p.1', 'Read', '     1\talpha');
    start('p.2', 'Bash', { command: 'touch x' });
    const decision = { behavior: 'ask' as const, reason: 'r' };
    turn.onEvent({ type: 'permission_asked', toolUseId: 'p.2', toolName: 'Bash', input: { command: 'touch x' }, decision });
    const until = performance.now() + 1200;
    while (performance.now() < until) {
      // the person reads the prompt
    }
    turn.onEvent({
      type: 'permission_decided',
      toolUseId: 'p.2',
      toolName: 'Bash',
      decision: { behavior: 'allow', reason: 'y' },
      by: 'user',
    });
    end('p.2', 'Bash', 'done');
    end('p', 'RunCode', 'Tool calls (2): Read ok · Bash ok', 1300);
    expect(lines).toEqual([
      '● RunCode(const a = await tools.Read({file_path: "a"}))',
      '  ● Read(a)',
      '    ⎿ Read 1 line',
      '  ● Bash(touch x)',
      '  ● Bash(touch x)',
      '    ⎿ done',
      '● RunCode(const a = await tools.Read({file_path: "a"}))',
      // 1300 ms less the 1.2 s the person took: no duration shown for a result this quick.
      '  ⎿ Tool calls (2): Read ok · Bash ok',
    ]);
  });
});
