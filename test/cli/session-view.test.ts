// The pure parts of prompt input, slash commands, the session picker and the resume recap.
import { describe, expect, it } from 'vitest';
import { historyRecap } from '../../src/cli/history-view.js';
import { looksLikeCommand, promptFromArgs, withPipedInput } from '../../src/cli/prompt-input.js';
import { formatSessionList, pickSession, type SessionEntry } from '../../src/cli/session-list.js';
import { helpText, readSlashLine } from '../../src/cli/slash-commands.js';
import type { Message } from '../../src/runtime/providers/types.js';

describe('prompt input', () => {
  it('joins -p text and words; piped text follows the prompt', () => {
    expect(promptFromArgs(undefined, [])).toBeUndefined();
    expect(promptFromArgs(true, [])).toBeUndefined();
    expect(promptFromArgs('explain', [])).toBe('explain');
    expect(promptFromArgs(true, ['fix', 'the bug'])).toBe('fix the bug');
    expect(withPipedInput('explain', 'log\n')).toBe('explain\n\nlog\n');
    expect(withPipedInput(undefined, 'log')).toBe('log');
    expect(withPipedInput('explain', '  \n')).toBe('explain');
  });

  it('reads only a lone word as a possible command', () => {
    const close = (word: string) => (word === 'serch' ? ['search'] : []);
    expect(looksLikeCommand(['serch', 'weather'], close)).toEqual(['search']);
    expect(looksLikeCommand(['serch the docs'], close)).toEqual([]);
    expect(looksLikeCommand([], close)).toEqual([]);
  });
});

describe('slash commands', () => {
  it('reads commands, keeps paths as prompts, and makes unknown names a local error', () => {
    expect(readSlashLine('/help')).toEqual({ kind: 'command', name: 'help', args: '' });
    expect(readSlashLine('/quit')).toEqual({ kind: 'command', name: 'exit', args: '' });
    expect(readSlashLine('  /model  gpt ')).toEqual({ kind: 'command', name: 'model', args: 'gpt' });
    expect(readSlashLine('/etc/hosts looks wrong')).toEqual({ kind: 'prompt' });
    expect(readSlashLine('fix /help')).toEqual({ kind: 'prompt' });
    const unknown = readSlashLine('/hepl');
    expect(unknown).toEqual({ kind: 'unknown', message: expect.stringMatching(/^unknown command \/hepl \(did you mean \/help\?\)/) });
    expect(readSlashLine('/constructor').kind).toBe('unknown');
    expect(helpText()).toMatch(/\/clear +forget the conversation/);
  });
});

describe('session picker', () => {
  const entries: SessionEntry[] = [
    { id: 'b2', file: '/s/b2.jsonl', updatedAt: '2026-12-01T19:50:12.000Z', firstPrompt: 'fix the bug' },
    { id: 'a1', file: '/s/a1.jsonl', updatedAt: '2026-11-30T08:01:00.000Z', firstPrompt: '' },
  ];
  it('lists newest first with numbers and reads a number or an id', () => {
    expect(formatSessionList(entries, true)).toBe(' 1. 2026-12-01 19:50  b2  fix the bug\n 2. 2026-11-30 08:01  a1  (no prompt yet)');
    expect(pickSession(entries, ' 2 ')?.id).toBe('a1');
    expect(pickSession(entries, 'b2')?.id).toBe('b2');
    expect(pickSession(entries, '3')).toBeUndefined();
    expect(pickSession(entries, 'zz')).toBeUndefined();
  });
});

describe('resume recap', () => {
  const prompt = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
  const answer = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
  it('shows the last prompts, their tool calls and clipped answers', () => {
    const messages: Message[] = [
      prompt('first'),
      answer('one'),
      prompt('second'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', toolName: 'Read', content: [], isError: false }] },
      answer(Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join('\n')),
    ];
    expect(historyRecap(messages, 1)).toEqual([
      '… 1 earlier prompt',
      '› second',
      '● Read(a.ts)',
      ...Array.from({ length: 6 }, (_, i) => `line ${i + 1}`),
      '…',
    ]);
    expect(historyRecap(messages)).toEqual(expect.arrayContaining(['› first', 'one']));
  });
});
