import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, readFileSync, appendFileSync } from 'node:fs';
import { messagesOf, parseSession, readSession, recordFor, SessionLog, sessionFile, sessionsDir, wieldHome } from '../../src/agent/session-store.js';
import type { Message } from '../../src/providers/types.js';

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
    expect(parseSession('{"type":"nope"}\n[1]\n').problems).toHaveLength(2);
  });
});
