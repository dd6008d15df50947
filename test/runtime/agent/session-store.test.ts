import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, readFileSync, appendFileSync, writeFileSync } from 'node:fs';
import {
  describeLines,
  loadSessionForResume,
  messagesOf,
  parseSession,
  readSession,
  recordFor,
  SessionLog,
  sessionFile,
  sessionsDir,
  UnusableSessionError,
  wieldHome,
} from '../../../src/runtime/agent/session-store.js';
import type { Message } from '../../../src/runtime/providers/types.js';

describe('session store', () => {
  it('puts sessions under WIELD_HOME/.wield/sessions and refuses ids that would escape it', () => {
    const env = { WIELD_HOME: '/tmp/h' };
    expect(wieldHome(env)).toBe('/tmp/h');
    expect(sessionsDir(env)).toBe(path.join('/tmp/h', '.wield', 'sessions'));
    expect(sessionFile('abc-1', env)).toBe(path.join('/tmp/h', '.wield', 'sessions', 'abc-1.jsonl'));
    for (const bad of ['../x', 'a/b', '', 'a b']) expect(() => sessionFile(bad, env)).toThrow(/Invalid session id/);
  });

  it('writes records as JSON lines and reads the history back, surviving a torn last line', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-store-'));
    const log = new SessionLog(path.join(dir, 'nested', 's.jsonl'));
    const user: Message = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
    const assistant: Message = { role: 'assistant', content: [{ type: 'text', text: 'hello' }] };
    log.append({ type: 'session', version: 1, id: 's', cwd: dir, createdAt: 'now' });
    log.append({ type: 'message', message: user });
    log.record({ type: 'assistant_message', message: assistant as Extract<Message, { role: 'assistant' }> });
    log.record({ type: 'text_delta', text: 'transient' });
    log.record({ type: 'permission_decided', toolUseId: 't', toolName: 'Bash', decision: { behavior: 'allow', reason: 'r' }, by: 'user' });
    appendFileSync(log.file, '{"type":"message","mess');
    const parsed = readSession(log.file);
    expect(parsed.header?.cwd).toBe(dir);
    expect(messagesOf(parsed.records)).toEqual([user, assistant]);
    expect(parsed.records.filter((r) => r.type === 'permission')).toHaveLength(1);
    expect(parsed.problems).toEqual(['line 5: not valid JSON']);
    expect(readFileSync(log.file, 'utf8')).not.toContain('transient');
  });

  it('round-trips any message through a record line (property)', () => {
    const textPart = fc.record({ type: fc.constant('text' as const), text: fc.string() });
    fc.assert(
      fc.property(fc.array(textPart, { maxLength: 3 }), (content) => {
        const message: Message = { role: 'user', content };
        const record = recordFor({ type: 'tool_results', message: message as Extract<Message, { role: 'user' }> });
        const parsed = parseSession(`${JSON.stringify(record)}\n`);
        expect(messagesOf(parsed.records)).toEqual([message]);
      }),
    );
  });

  it('reports lines that are not session records', () => {
    const parsed = parseSession('{"type":"nope"}\n\n[1]\n{"type":"session","version":1,"id":"s","cwd":"/","createdAt":"now"}\nxx');
    expect(parsed.problems).toHaveLength(3);
    expect(parsed.problemLines).toEqual([1, 3, 5]);
  });

  it('skips records of the wrong shape, naming the field, and resumes the rest', () => {
    const good = { role: 'user', content: [{ type: 'text', text: 'kept' }] };
    const lines = [
      { type: 'session', version: 1, id: 's', cwd: '/', createdAt: 'now' },
      { type: 'message', message: null },
      { type: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: 7, name: 'Read', input: {} }] } },
      { type: 'history', reason: 'compacted', messages: 'nope' },
      { type: 'message', message: good },
    ];
    const parsed = parseSession(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    expect(parsed.problemLines).toEqual([2, 3, 4]);
    expect(parsed.problems[0]).toMatch(/^line 2: a "message" record of the wrong shape \(message: /);
    expect(parsed.problems[1]).toMatch(/^line 3: a "message" record of the wrong shape \(message/);
    expect(messagesOf(parsed.records)).toEqual([good]);
  });

  it('stops saving on a full disk and says so once; the caller goes on', () => {
    const heard: string[] = [];
    const log = new SessionLog('/dev/full', { onFailure: (message) => heard.push(message) });
    const message: Message = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
    expect(() => log.append({ type: 'message', message })).not.toThrow();
    log.append({ type: 'message', message });
    expect(heard).toEqual([expect.stringMatching(/^The disk is full, so the session is no longer saved to \/dev\/full from here on/)]);
    expect(log.failure).toBe(heard[0]);
  });

  it('stops saving a record nested too deeply to encode, without throwing', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-deep-'));
    const heard: string[] = [];
    const log = new SessionLog(path.join(dir, 's.jsonl'), { onFailure: (message) => heard.push(message) });
    let input: unknown = {};
    for (let i = 0; i < 20_000; i++) input = { a: input };
    const message: Message = { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Write', input }] };
    expect(() => log.append({ type: 'message', message })).not.toThrow();
    expect(heard).toEqual([expect.stringMatching(/^A record is too deeply nested to save, so the session is no longer saved/)]);
  });

  it('names skipped lines briefly', () => {
    expect(describeLines([7])).toBe('line 7');
    expect(describeLines([3, 4, 9])).toBe('lines 3, 4 and 9');
    expect(describeLines([1, 2, 3, 4], 2)).toBe('lines 1, 2 and 2 more');
  });
});

describe('resuming a damaged session file', () => {
  const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

  /** A real log of two prompts, with its last `cut` bytes gone as after a crash. */
  function tornLog(cut: number): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-store-torn-'));
    const log = new SessionLog(path.join(dir, 'torn.jsonl'));
    log.append({ type: 'session', version: 1, id: 'torn', cwd: dir, createdAt: 'now' });
    log.append({ type: 'message', message: user('turn one') });
    log.append({ type: 'message', message: user('turn two') });
    const bytes = readFileSync(log.file);
    writeFileSync(log.file, bytes.subarray(0, bytes.length - cut));
    return log.file;
  }

  it('skips the torn last line with one notice naming it, and never lets it swallow the next record', () => {
    const file = tornLog(10);
    const before = readFileSync(file);
    const resumed = loadSessionForResume(file);
    expect(resumed.messages).toEqual([user('turn one')]);
    expect(resumed.notice).toMatch(/skipped 1 unreadable line \(line 3;/);
    expect(resumed.notice).toContain(file);

    const log = new SessionLog(file);
    log.append({ type: 'message', message: user('t') });
    log.append({ type: 'message', message: user('third') });
    const after = readFileSync(file);
    // The user's bytes are kept as they were; only whole lines follow them.
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.subarray(before.length).toString()).toBe(
      `\n${JSON.stringify({ type: 'message', message: user('t') })}\n${JSON.stringify({ type: 'message', message: user('third') })}\n`,
    );
    const again = loadSessionForResume(file);
    expect(again.messages).toEqual([user('turn one'), user('t'), user('third')]);
    expect(again.problemLines).toEqual([3]);
  });

  it('adds no blank line to a log that ends cleanly', () => {
    const file = tornLog(0);
    expect(loadSessionForResume(file).notice).toBeUndefined();
    new SessionLog(file).append({ type: 'message', message: user('t') });
    expect(readFileSync(file, 'utf8')).not.toContain('\n\n');
    expect(readSession(file).problems).toEqual([]);
  });

  it('refuses a file with no record at all instead of resuming it as empty', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-store-junk-'));
    const junk = path.join(dir, 'junk.jsonl');
    writeFileSync(junk, 'xx');
    expect(() => loadSessionForResume(junk)).toThrow(UnusableSessionError);
    expect(() => loadSessionForResume(junk)).toThrow(/holds no session records \(1 unreadable line\)/);
    const empty = path.join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect(() => loadSessionForResume(empty)).toThrow(/holds no session records \(it is empty\)/);
    expect(readFileSync(junk, 'utf8')).toBe('xx');
  });
});
