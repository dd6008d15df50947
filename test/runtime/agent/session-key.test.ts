// Signed session logs: a log verifies only as written by the key that wrote it, whole and in order.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sessionKey, sessionKeyFile, verifyChain } from '../../../src/runtime/agent/session-key.js';
import { readSession, type SessionRecord, SessionLog } from '../../../src/runtime/agent/session-store.js';

const temp = (): string => mkdtempSync(path.join(os.tmpdir(), 'wield-key-'));

const records: SessionRecord[] = [
  { type: 'session', version: 1, id: 's', cwd: '/p', createdAt: '2026-01-01T00:00:00.000Z' },
  { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'go' }] } },
  { type: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls' } }] } },
  { type: 'permission', toolUseId: 't', toolName: 'Bash', decision: { behavior: 'allow', reason: 'approved' }, by: 'user' },
];

function written(key: Buffer | undefined, log = path.join(temp(), 's.jsonl')): string {
  const writer = new SessionLog(log, { key });
  for (const record of records) writer.append(record);
  return log;
}

describe('session signing', () => {
  it('keeps one private key per installation', () => {
    const home = temp();
    expect(sessionKey(home, false)).toBeUndefined();
    expect(existsSync(sessionKeyFile(home))).toBe(false);
    const key = sessionKey(home);
    expect(key?.length).toBe(32);
    expect(sessionKey(home)?.equals(key as Buffer)).toBe(true);
    expect(statSync(sessionKeyFile(home)).mode & 0o777).toBe(0o600);
  });

  it('verifies a log as written, with records read back unchanged, and a resumed log continuing the chain', () => {
    const key = sessionKey(temp());
    const file = written(key);
    const parsed = readSession(file);
    expect(parsed.records).toEqual(records);
    expect(verifyChain(parsed.records, parsed.macs, key)).toBe(true);
    // A second writer (a resume) chains on from the file's last record.
    new SessionLog(file, { key }).append({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'more' }] } });
    const resumed = readSession(file);
    expect(verifyChain(resumed.records, resumed.macs, key)).toBe(true);
  });

  it('rejects another key, no key, and a log changed, cut, reordered or added to', () => {
    const key = sessionKey(temp());
    const file = written(key);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const check = (text: string, withKey: Buffer | undefined = key): boolean => {
      writeFileSync(file, text);
      const parsed = readSession(file);
      return verifyChain(parsed.records, parsed.macs, withKey);
    };
    expect(check(`${lines.join('\n')}\n`, sessionKey(temp()))).toBe(false);
    expect(verifyChain(readSession(file).records, readSession(file).macs, undefined)).toBe(false);
    expect(check(`${lines.join('\n').replace('"ls"', '"rm -rf ~"')}\n`)).toBe(false);
    expect(check(`${lines.slice(1).join('\n')}\n`)).toBe(false);
    expect(check(`${[lines[0], lines[2], lines[1], lines[3]].join('\n')}\n`)).toBe(false);
    expect(check(`${[...lines, JSON.stringify(records[3])].join('\n')}\n`)).toBe(false);
    expect(check(readFileSync(written(undefined), 'utf8'))).toBe(false);
  });

  it('holds a new log until the model answers: a run that fails first writes nothing', () => {
    const file = path.join(temp(), 'held.jsonl');
    const log = new SessionLog(file, { holdUntilReply: true });
    log.append(records[0]);
    log.append(records[1]);
    expect(log.saved).toBe(false);
    expect(existsSync(file)).toBe(false);
    log.append(records[2]);
    expect(log.saved).toBe(true);
    expect(readSession(file).records).toEqual(records.slice(0, 3));
  });
});
