import { describe, expect, it } from 'vitest';
import { callSummary, resultView } from '../../src/cli/summary.js';
import { emptySpend, nextMode, statusLine } from '../../src/cli/slash-commands.js';

describe('result summaries', () => {
  const result = (text: string, durationMs = 10) => ({
    toolUseId: 'a',
    toolName: 'Bash',
    durationMs,
    isError: false,
    content: [{ type: 'text' as const, text }],
  });

  const lines = (text: string, durationMs?: number, waitedMs?: number) => resultView('Bash', result(text, durationMs), { waitedMs }).lines;

  it('says "no output" for a command that printed nothing, else shows its first lines', () => {
    expect(lines('(no output)\n[exit code 0]')).toEqual(['no output']);
    expect(lines('built\n[exit code 0]')).toEqual(['built']);
    expect(lines('a\nb\n')).toEqual(['a', 'b']);
  });

  it('counts the lines held back and keeps the whole output for the expand key', () => {
    const output = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    const view = resultView('Bash', result(`${output.join('\n')}\n[exit code 0]`, 1500));
    expect(view.lines).toEqual(['line 1', 'line 2', 'line 3', '… +7 lines (Ctrl-O to expand) · 1.5s']);
    expect(view.full).toEqual(output);
    expect(resultView('Bash', result('a\nb')).full).toEqual([]);
    // A line cut for the screen is shown whole on expanding.
    expect(resultView('Bash', result('x'.repeat(500))).full).toEqual(['x'.repeat(500)]);
  });

  it('leaves the time spent waiting for the person out of the duration', () => {
    expect(lines('x', 9_000, 8_400)).toEqual(['x']);
    expect(lines('x', 9_000, 6_000)).toEqual(['x · 3.0s']);
  });

  it('summarises file tools in one line with paths relative to the workspace', () => {
    const read = { ...result('     1\ta\n     2\tb'), toolName: 'Read', display: 'read /w/src/app.py' };
    expect(resultView('Read', read, { cwd: '/w' }).lines).toEqual(['Read 2 lines']);
    const paged = result('     1\ta\n\n[Showing lines 1-1 of 9 (the page is 1 lines). To read more…]');
    expect(resultView('Read', paged).lines).toEqual(['Read 1 line of 9']);
    const write = result('Created /w/src/app.py (12 lines, 200 bytes).');
    expect(resultView('Write', { ...write, display: 'created /w/src/app.py' }, { cwd: '/w' }).lines).toEqual([
      'Created src/app.py (12 lines, 200 bytes).',
    ]);
    expect(callSummary('Read', { file_path: '/w/src/app.py' }, '/w')).toBe('Read(src/app.py)');
    expect(callSummary('Read', { file_path: '/etc/hosts' }, '/w')).toBe('Read(/etc/hosts)');
    expect(callSummary('Grep', { pattern: 'x', path: '/w/src' }, '/w')).toBe('Grep(x)');
  });

  it('shows AskUserQuestion by its question and its answers, not as JSON', () => {
    const input = { questions: [{ question: 'Which database?', header: 'DB', options: [] }, { question: 'Port?' }] };
    expect(callSummary('AskUserQuestion', input)).toBe('AskUserQuestion(Which database? (+1 more))');
    const answered = result('User has answered your questions:\n"Which database?"="Postgres"\nYou can now continue.');
    expect(resultView('AskUserQuestion', answered).lines).toEqual(['"Which database?"="Postgres"']);
  });
});

describe('the status line', () => {
  it('names the model, the context used as a share of the window, and the cost', () => {
    expect(statusLine('m', { ...emptySpend(), costUsd: 0.01234, contextTokens: 24_000, contextWindow: 200_000 })).toBe(
      'm · context 12% of 200k · $0.0123',
    );
    expect(statusLine('m', { ...emptySpend(), costKnown: false })).toBe('m · cost unknown');
    expect(statusLine('m', { ...emptySpend(), costKnown: false }, 'plan')).toBe('m · cost unknown · plan mode (Shift-Tab)');
  });

  it('Shift-Tab cycles default, acceptEdits and plan; other modes go back to default', () => {
    expect([nextMode('default'), nextMode('acceptEdits'), nextMode('plan')]).toEqual(['acceptEdits', 'plan', 'default']);
    expect(nextMode('bypassPermissions')).toBe('default');
  });
});
