import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { existsSync, mkdtempSync, readFileSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  APPROVAL_NOT_GIVEN,
  compareCall,
  recordedAnswers,
  recordedTurns,
  relocate,
  restoreFiles,
  touchesOnlyInside,
} from '../../../src/runtime/agent/replay.js';
import type { SessionRecord } from '../../../src/runtime/agent/session-store.js';
import type { Message } from '../../../src/runtime/providers/types.js';
import type { AnyTool } from '../../../src/runtime/tool/types.js';

describe('replay helpers', () => {
  it('pairs each recorded call with the result recorded after it', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'a', name: 'Read', input: { file_path: '/p/x' } },
          { type: 'tool_use', id: 'b', name: 'LS', input: {} },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: 'b', toolName: 'LS', content: [{ type: 'text', text: 'x' }], isError: false }],
      },
    ];
    const turns = recordedTurns(messages);
    expect(turns).toHaveLength(1);
    expect(turns[0].map((c) => [c.call.id, c.expected?.content])).toEqual([
      ['a', undefined],
      ['b', [{ type: 'text', text: 'x' }]],
    ]);
  });

  it('relocates paths inside JSON values and back again (property)', () => {
    const word = fc.stringMatching(/^[a-z]{1,6}$/);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 4 }), word, (parts, name) => {
        const from = `/rec/${name}`;
        const to = `/tmp/ws-${name}`;
        const value = { file_path: `${from}/${parts.join('/')}`, other: parts, quote: `"${from}"` };
        const moved = relocate(value, from, to);
        expect(moved.file_path.startsWith(to)).toBe(true);
        expect(JSON.stringify(moved)).not.toContain(`${from}/`);
        expect(relocate(moved, to, from)).toEqual(value);
      }),
    );
  });

  it('compares texts and the error flag, with a diff when they differ', () => {
    const call = { id: 'a', name: 'Read', input: {} };
    const base = { toolUseId: 'a', toolName: 'Read', durationMs: 3 };
    expect(
      compareCall(
        call,
        { content: [{ type: 'text', text: 'x' }], isError: false },
        { ...base, content: [{ type: 'text', text: 'x' }], isError: false },
      ).status,
    ).toBe('same');
    const differs = compareCall(
      call,
      { content: [{ type: 'text', text: 'x' }], isError: false },
      { ...base, content: [{ type: 'text', text: 'x' }], isError: true },
    );
    expect(differs.status).toBe('differs');
    expect(differs.diff).toContain('+[error]');
    expect(compareCall(call, undefined, { ...base, content: [], isError: false }).status).toBe('unrecorded');
    // The same text with another kind differs when the recording has kinds; older recordings compare text only.
    const text = [{ type: 'text' as const, text: 'no' }];
    const denied = { content: text, isError: true, errorKind: 'denied' as const };
    const crashed = compareCall(call, denied, { ...base, content: text, isError: true, errorKind: 'tool_failed' });
    expect(crashed.status).toBe('differs');
    expect(crashed.diff).toContain('+[error: tool_failed]');
    expect(compareCall(call, denied, { ...base, content: text, isError: true, errorKind: 'denied' }).status).toBe('same');
    expect(compareCall(call, { content: text, isError: true }, { ...base, content: text, isError: true, errorKind: 'denied' }).status).toBe(
      'same',
    );
  });

  it("gives every recorded decision again where today's policy asks, and declines prompts never answered", async () => {
    const ask = recordedAnswers([
      { type: 'permission', toolUseId: 'y', toolName: 'Write', decision: { behavior: 'allow', reason: 'approved' }, by: 'user' },
      {
        type: 'permission',
        toolUseId: 'n',
        toolName: 'Write',
        decision: { behavior: 'deny', reason: 'the user declined: not now' },
        by: 'user',
      },
      // Allowed by a session rule that an "always" answer added earlier.
      { type: 'permission', toolUseId: 'p', toolName: 'Write', decision: { behavior: 'allow', reason: 'rule' }, by: 'policy' },
      {
        type: 'permission',
        toolUseId: 't',
        toolName: 'Write',
        decision: { behavior: 'deny', reason: 'no one can approve it' },
        by: 'no-tty',
      },
    ]);
    const request = (toolUseId: string) => ({
      tool: {} as AnyTool,
      input: {},
      decision: { behavior: 'ask' as const, reason: 'r' },
      toolUseId,
    });
    const signal = new AbortController().signal;
    expect(await ask(request('y'), signal)).toEqual({ behavior: 'allow' });
    // The person's own words, so the replayed denial reads as the recorded one.
    expect(await ask(request('n'), signal)).toEqual({ behavior: 'deny', message: 'not now' });
    expect(await ask(request('p'), signal)).toEqual({ behavior: 'allow' });
    expect(await ask(request('t'), signal)).toEqual({ behavior: 'deny', message: 'no one can approve it' });
    expect(await ask(request('x'), signal)).toEqual({ behavior: 'deny', message: 'no answer was recorded for this prompt' });
  });

  it('from a log written elsewhere, gives an approval again only to a file tool that stays inside the replay folder', async () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-replay-root-')));
    const outside = mkdtempSync(path.join(os.tmpdir(), 'wield-replay-outside-'));
    symlinkSync(outside, path.join(root, 'link'));
    const writer = { source: 'builtin', touchedPaths: (input: { file_path: string }) => [{ path: input.file_path, access: 'write' }] };
    const tool = writer as unknown as AnyTool;
    expect(touchesOnlyInside(tool, { file_path: 'new/dir/a.txt' }, root)).toBe(true);
    expect(touchesOnlyInside(tool, { file_path: path.join(outside, 'a') }, root)).toBe(false);
    expect(touchesOnlyInside(tool, { file_path: '../a' }, root)).toBe(false);
    // A link inside the folder that leads out of it is outside.
    expect(touchesOnlyInside(tool, { file_path: 'link/a' }, root)).toBe(false);
    // Shell and MCP tools name no paths they are held to.
    expect(touchesOnlyInside({ source: 'builtin' } as unknown as AnyTool, { file_path: 'a' }, root)).toBe(false);
    expect(touchesOnlyInside({ ...writer, source: 'mcp' } as unknown as AnyTool, { file_path: 'a' }, root)).toBe(false);

    const approved = (id: string): SessionRecord => ({
      type: 'permission',
      toolUseId: id,
      toolName: 'Bash',
      decision: { behavior: 'allow', reason: 'approved' },
      by: 'user',
    });
    const notGiven: string[] = [];
    const asked: string[] = [];
    const records = [approved('bash'), approved('inside'), approved('outside')];
    const request = (toolUseId: string, input: Record<string, unknown>, usedTool = tool) => ({
      tool: usedTool,
      input,
      decision: { behavior: 'ask' as const, reason: 'r' },
      toolUseId,
    });
    const signal = new AbortController().signal;
    const foreign = recordedAnswers(records, { own: false, workspace: root, onNotGiven: (id) => notGiven.push(id) });
    expect(await foreign(request('bash', { command: 'x' }, { source: 'builtin' } as unknown as AnyTool), signal)).toEqual({
      behavior: 'deny',
      message: APPROVAL_NOT_GIVEN,
    });
    expect(await foreign(request('inside', { file_path: 'a' }), signal)).toEqual({ behavior: 'allow' });
    expect((await foreign(request('outside', { file_path: 'link/a' }), signal)).behavior).toBe('deny');
    expect(notGiven).toEqual(['bash', 'outside']);
    // With a person at hand, they are asked instead.
    const withPerson = recordedAnswers(records, {
      own: false,
      workspace: root,
      askPerson: async (req) => {
        asked.push(req.toolUseId);
        return { behavior: 'deny', message: 'no' };
      },
    });
    await withPerson(request('outside', { file_path: 'link/a' }), signal);
    expect(asked).toEqual(['outside']);
    // One's own log: given again as recorded.
    expect(await recordedAnswers(records, { own: true })(request('outside', { file_path: 'link/a' }), signal)).toEqual({
      behavior: 'allow',
    });
  });

  it('restores files with their times; from a log written elsewhere, nothing inside .git and nothing outside', () => {
    const file = (rel: string): SessionRecord => ({ type: 'file', path: rel, content: `${rel}\n`, mtimeMs: 1_700_000_000_000 });
    const records = [file('a.txt'), file('.git/config'), file('sub/.git/hooks/post-checkout'), file('../escape')];
    const foreign = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-restore-')));
    expect(restoreFiles(records, foreign, false).restored).toBe(1);
    expect(existsSync(path.join(foreign, '.git'))).toBe(false);
    expect(existsSync(path.join(foreign, 'sub', '.git'))).toBe(false);
    expect(existsSync(path.join(path.dirname(foreign), 'escape'))).toBe(false);
    expect(statSync(path.join(foreign, 'a.txt')).mtimeMs).toBe(1_700_000_000_000);
    const own = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-restore-')));
    expect(restoreFiles(records, own).restored).toBe(3);
    expect(readFileSync(path.join(own, '.git', 'config'), 'utf8')).toBe('.git/config\n');
  });

  it('an error of the same kind in other words is a wording difference, not a real one', () => {
    const call = { id: 'a', name: 'Bash', input: {} };
    const base = { toolUseId: 'a', toolName: 'Bash', durationMs: 3 };
    const denied = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true });
    const wording = compareCall(call, denied('Permission denied: no one can approve it'), {
      ...base,
      ...denied('Permission denied: declined'),
    });
    expect(wording.status).toBe('wording');
    expect(wording.diff).toContain('+Permission denied: declined');
    // Success turned into an error, or a changed successful result: real differences.
    expect(compareCall(call, { content: [{ type: 'text', text: 'x' }], isError: false }, { ...base, ...denied('x') }).status).toBe(
      'differs',
    );
    expect(
      compareCall(
        call,
        { content: [{ type: 'text', text: 'x' }], isError: false },
        { ...base, content: [{ type: 'text', text: 'y' }], isError: false },
      ).status,
    ).toBe('differs');
  });
});
