import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeInput, parsePermissionReply, renderPrompt } from '../../src/cli/permission-prompt.js';
import { parseQuestionReply, renderQuestion } from '../../src/cli/question-prompt.js';
import { callSummary, resultView } from '../../src/cli/summary.js';
import { formatToolTable, toolRows } from '../../src/cli/tool-table.js';
import { defineTool } from '../../src/runtime/tool/define.js';
import { z } from 'zod';
import type { ToolCallResult } from '../../src/runtime/tool/types.js';

describe('permission replies', () => {
  it('reads y, n with a message, a and A', () => {
    expect(parsePermissionReply('y')).toEqual({ kind: 'yes' });
    expect(parsePermissionReply(' Yes ')).toEqual({ kind: 'yes' });
    expect(parsePermissionReply('n')).toEqual({ kind: 'no' });
    expect(parsePermissionReply('n: use the other file')).toEqual({ kind: 'no', message: 'use the other file' });
    expect(parsePermissionReply('no not now')).toEqual({ kind: 'no', message: 'not now' });
    expect(parsePermissionReply('a')).toEqual({ kind: 'session' });
    expect(parsePermissionReply('A')).toEqual({ kind: 'project' });
    expect(parsePermissionReply('always')).toEqual({ kind: 'invalid' });
    expect(parsePermissionReply('')).toEqual({ kind: 'invalid' });
  });

  it('never reads anything other than y… as a yes (property)', () => {
    fc.assert(
      fc.property(fc.string(), (line) => {
        const reply = parsePermissionReply(line);
        if (reply.kind === 'yes') expect(line.trim().toLowerCase().startsWith('y')).toBe(true);
        if (reply.kind === 'session' || reply.kind === 'project') expect(['a', 'A']).toContain(line.trim());
      }),
    );
  });
});

describe('permission prompt view', () => {
  const decision = { behavior: 'ask' as const, reason: 'Write writes files and no rule allows it', suggestions: ['Edit(/x.txt)'] };

  it('shows a diff for Write and Edit, the command for Bash, and the reason', () => {
    const write = renderPrompt({
      toolName: 'Write',
      input: { file_path: '/p/x.txt', content: 'new\n' },
      decision,
      currentContent: 'old\n',
    });
    expect(write).toContain('-old');
    expect(write).toContain('+new');
    expect(write).toContain('Reason: Write writes files');
    expect(write).toContain('A = always (saves Edit(/x.txt))');
    const edit = describeInput({ toolName: 'Edit', input: { file_path: '/p/x', old_string: 'a', new_string: 'b' }, decision });
    expect(edit).toMatch(/-a[\s\S]*\+b/);
    expect(describeInput({ toolName: 'Bash', input: { command: 'rm -rf build' }, decision })).toBe('  $ rm -rf build');
    expect(describeInput({ toolName: 'apply_patch', input: { input: 'not a patch' }, decision })).toBe('  not a patch');
  });

  it("shows apply_patch as one diff per file, with the file's true line numbers", () => {
    const files: Record<string, string> = { 'a.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n', 'gone.txt': 'bye\n' };
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.txt',
      '@@',
      ' six',
      '-seven',
      '+SEVEN',
      '*** Add File: new.txt',
      '+hello',
      '*** Delete File: gone.txt',
      '*** Update File: missing.txt',
      '@@',
      '-x',
      '+y',
      '*** End Patch',
    ].join('\n');
    const shown = describeInput({ toolName: 'apply_patch', input: { input: patch }, decision, readFile: (file) => files[file] });
    expect(shown).toContain('  a.txt\n  @@ -4,5 +4,5 @@');
    expect(shown).toMatch(/ {2}7 -seven\n {2}7 \+SEVEN/);
    expect(shown).toMatch(/ {2}new\.txt\n {2}@@ -0,0 \+1(,1)? @@\n {2}1 \+hello/);
    expect(shown).toMatch(/ {2}gone\.txt\n {2}@@ -1(,1)? \+0,0 @@\n {2}1 -bye/);
    expect(shown).toContain('  missing.txt\n  (the patch does not apply to the file as it is now; its hunks as written)\n  @@\n  -x\n  +y');
    expect(shown).not.toContain('*** Begin Patch');
  });

  it('offers no "always" when there is no safe rule to remember', () => {
    expect(renderPrompt({ toolName: 'Bash', input: { command: 'x' }, decision: { ...decision, suggestions: [] } })).not.toContain('always');
  });
});

describe('summaries', () => {
  it('summarises a call by its key argument on one line', () => {
    expect(callSummary('Bash', { command: 'ls -la\n  | head' })).toBe('Bash(ls -la | head)');
    expect(callSummary('Read', { file_path: '/a/b.ts', offset: 3 })).toBe('Read(/a/b.ts)');
    expect(callSummary('X', { n: 1 })).toBe('X({"n":1})');
    expect(callSummary('Long', { command: 'x'.repeat(300) }).length).toBeLessThanOrEqual(100);
  });

  it('shows a result by its first lines, and an error by its kind', () => {
    const base = { toolUseId: 'a', toolName: 'Read', durationMs: 1500 };
    const summary = (result: ToolCallResult) => resultView('Bash', result).lines.join('\n');
    expect(summary({ ...base, isError: false, content: [{ type: 'text', text: 'a\nb\nc' }] })).toBe('a\nb\nc · 1.5s');
    expect(summary({ ...base, isError: true, content: [{ type: 'text', text: '\nNo such file\nmore' }] })).toBe(
      'error: No such file\nmore · 1.5s',
    );
    const denial = [{ type: 'text' as const, text: 'Permission denied for Bash: no' }];
    expect(summary({ ...base, isError: true, errorKind: 'denied', content: denial })).toBe(
      'error (denied): Permission denied for Bash: no · 1.5s',
    );
    expect(summary({ ...base, isError: true, errorKind: 'tool_failed', content: denial })).toMatch(/^error: Permission/);
    expect(summary({ ...base, isError: true, errorKind: 'interrupted', content: denial })).toMatch(/^error \(interrupted\): /);
  });
});

describe('tool table', () => {
  it('evaluates flags with an empty input and survives tools that throw', () => {
    const ok = defineTool({
      name: 'Ok',
      description: '',
      inputSchema: z.object({}),
      isReadOnly: () => true,
      isConcurrencySafe: () => true,
      call: async () => '',
    });
    const odd = defineTool({
      name: 'Odd',
      description: '',
      inputSchema: z.object({}),
      isReadOnly: (input: { command?: string }) => input.command!.length > 0,
      call: async () => '',
    });
    const rows = toolRows([ok, odd], new Set(['Odd']));
    expect(rows).toEqual([
      { name: 'Ok', source: 'user', readOnly: true, concurrencySafe: true, destructive: false, deferred: false },
      { name: 'Odd', source: 'user', readOnly: false, concurrencySafe: false, destructive: false, deferred: true },
    ]);
    expect(formatToolTable(rows).split('\n')[0]).toMatch(/^NAME\s+SOURCE\s+READ-ONLY/);
    // --schemas: each row carries the schema the tool is validated against.
    expect(toolRows([ok], new Set(), true)[0].inputSchema).toEqual(ok.inputJSONSchema);
  });
});

describe('AskUserQuestion in the terminal', () => {
  const single = { question: 'Which database?', options: ['Postgres', 'SQLite', 'MySQL'] };
  const multi = { ...single, question: 'Which databases?', multiSelect: true };

  it('numbers the options and says how to answer', () => {
    expect(renderQuestion(single).split('\n')).toEqual([
      '? Which database?',
      '  1. Postgres',
      '  2. SQLite',
      '  3. MySQL',
      '  (a number — or type your own answer)',
    ]);
    expect(renderQuestion(multi)).toContain('separated by commas');
    expect(renderQuestion({ question: 'Name?' })).toContain('type your answer');
  });

  it('reads a number, comma-separated numbers when multiSelect, or free text', () => {
    expect(parseQuestionReply(' 2 ', single)).toEqual({ ok: true, answer: ['SQLite'] });
    expect(parseQuestionReply('3, 1,3', multi)).toEqual({ ok: true, answer: ['MySQL', 'Postgres'] });
    expect(parseQuestionReply('DuckDB, please', single)).toEqual({ ok: true, answer: ['DuckDB, please'] });
    expect(parseQuestionReply('42', { question: 'How many?' })).toEqual({ ok: true, answer: ['42'] });
  });

  it('asks again for numbers out of range, several numbers for one choice, or nothing', () => {
    expect(parseQuestionReply('4', single)).toEqual({ ok: false, message: 'choose numbers from 1 to 3' });
    expect(parseQuestionReply('0,1', multi).ok).toBe(false);
    expect(parseQuestionReply('1,2', single)).toEqual({ ok: false, message: 'choose one number' });
    expect(parseQuestionReply('  ', single).ok).toBe(false);
  });
});
