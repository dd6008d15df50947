import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type RewindSession, runRewind } from '../../src/cli/rewind-run.js';
import { readSession, SessionLog, type SessionRecord } from '../../src/runtime/agent/session-store.js';
import type { Choice } from '../../src/cli/screen.js';
import { tempDir } from './helpers.js';
import { builtinTools } from '../../src/coding/tools/index.js';

const hash = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A session whose one prompt changed a.txt from "one" to "two" (and `extra` records after it). */
function session(extra: SessionRecord[] = []): RewindSession {
  const cwd = tempDir('wield-rewind-run-cwd-');
  const log = new SessionLog(path.join(tempDir('wield-rewind-run-log-'), 's.jsonl'));
  for (const record of [
    { type: 'session', version: 1, id: 's', cwd, createdAt: 'now' },
    { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'change a' }] } },
    { type: 'file', path: 'a.txt', sha256: hash('one\n'), size: 4, content: 'one\n', encoding: 'utf8' },
    { type: 'file', path: 'a.txt', after: true, sha256: hash('two\n'), size: 4 },
    ...extra,
    { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] } },
  ] satisfies SessionRecord[])
    log.append(record);
  writeFileSync(path.join(cwd, 'a.txt'), 'two\n');
  return { log, messages: [], runtime: { session: { cwd }, rt: { resolveTool: () => undefined } } };
}

/** Answers the questions in order, recording what was shown and what was put back in the editor. */
function answers(...given: (string | ((choices: readonly Choice[]) => string))[]) {
  const asked: string[] = [];
  const choose = async (label: string, choices: readonly Choice[], intro?: string): Promise<string> => {
    asked.push(`${intro ?? ''}${label}`);
    const next = given.shift() ?? 'cancel';
    return typeof next === 'string' ? next : next(choices);
  };
  const editor: string[] = [];
  return { asked, editor, choose, restoreInput: (text: string) => editor.push(text) };
}

const fileOf = (s: RewindSession, name: string): string => readFileSync(path.join(s.runtime.session.cwd, name), 'utf8');

describe('/rewind run', () => {
  it('restores the file, rewinds the conversation and records both in the log', async () => {
    const s = session();
    s.messages = [{ role: 'user', content: [{ type: 'text', text: 'change a' }] }];
    const given = answers('1', 'both');
    expect(await runRewind({ session: s, ...given })).toBe(
      'rewound: restored 1 file, deleted 0; the conversation continues from before that prompt (its text is back in the editor)',
    );
    expect(given.asked[1]).toContain('restore a.txt (+1 -1)');
    expect(given.editor).toEqual(['change a']);
    expect(fileOf(s, 'a.txt')).toBe('one\n');
    expect(s.messages).toEqual([]);
    const tail = readSession(s.log.file).records.slice(-2);
    expect(tail).toEqual([
      { type: 'file', path: 'a.txt', after: true, sha256: hash('one\n'), size: 4 },
      { type: 'history', reason: 'rewound', messages: [] },
    ]);
  });

  it('changes nothing on Esc, or when a file changed while the person chose', async () => {
    const s = session();
    expect(await runRewind({ session: s, ...answers('cancel') })).toBe('rewind cancelled; nothing changed');
    expect(await runRewind({ session: s, ...answers('1', 'cancel') })).toBe('rewind cancelled; nothing changed');
    const meanwhile = answers('1', () => {
      writeFileSync(path.join(s.runtime.session.cwd, 'a.txt'), 'typed meanwhile\n');
      return 'code';
    });
    expect(await runRewind({ session: s, ...meanwhile })).toBe(
      'a.txt changed while you chose; nothing changed (run /rewind again to see it)',
    );
    expect(fileOf(s, 'a.txt')).toBe('typed meanwhile\n');
  });

  it('keeps a file edited outside wield when the person says so', async () => {
    const s = session([
      { type: 'file', path: 'b.txt', absent: true },
      { type: 'file', path: 'b.txt', after: true, sha256: hash('new\n'), size: 4 },
    ]);
    writeFileSync(path.join(s.runtime.session.cwd, 'b.txt'), 'new\nand by hand\n');
    const given = answers('1', 'code', 'keep');
    expect(await runRewind({ session: s, ...given })).toBe('rewound: restored 1 file, deleted 0');
    expect(given.editor).toEqual([]);
    expect(given.asked[2]).toContain('b.txt changed since wield last wrote it: overwrite?');
    expect(fileOf(s, 'a.txt')).toBe('one\n');
    expect(fileOf(s, 'b.txt')).toBe('new\nand by hand\n');
  });

  it('never writes through a folder that now leads outside the working folder', async () => {
    const outside = tempDir('wield-rewind-run-outside-');
    writeFileSync(path.join(outside, 'x.txt'), 'made\n');
    const s = session([
      { type: 'file', path: 'link/x.txt', absent: true },
      { type: 'file', path: 'link/x.txt', after: true, sha256: hash('made\n'), size: 5 },
    ]);
    symlinkSync(outside, path.join(s.runtime.session.cwd, 'link'));
    const result = await runRewind({ session: s, ...answers('1', 'code') });
    expect(result).toContain('error: link/x.txt: its folder now leads outside the working folder (a symlink); not written');
    expect(existsSync(path.join(outside, 'x.txt'))).toBe(true);
  });

  it('names the calls whose writes are not recorded: commands and writes outside the folder, not reads or recorded writes', async () => {
    const tools = builtinTools();
    const use = (id: string, name: string, input: object) => ({ type: 'tool_use' as const, id, name, input });
    const s = session([
      {
        type: 'message',
        message: {
          role: 'assistant',
          content: [
            use('1', 'Read', { file_path: 'a.txt' }),
            use('2', 'Write', { file_path: 'a.txt', content: 'two\n' }),
            use('3', 'Write', { file_path: '../elsewhere.txt', content: 'x' }),
            use('4', 'Bash', { command: 'touch made.txt' }),
          ],
        },
      },
    ]);
    s.runtime.rt = { resolveTool: (name) => tools.find((tool) => tool.name === name) };
    const given = answers('1', 'cancel');
    await runRewind({ session: s, ...given });
    expect(given.asked[1]).toContain('not undone (the log keeps no copy of it): Write(../elsewhere.txt), Bash(touch made.txt)\n');
  });

  it('says why there is nothing to rewind yet', async () => {
    const empty: RewindSession = {
      log: new SessionLog(path.join(tempDir('wield-rewind-run-log-'), 's.jsonl'), { holdUntilReply: true }),
      messages: [],
      runtime: { session: { cwd: tempDir('wield-rewind-run-cwd-') }, rt: { resolveTool: () => undefined } },
    };
    expect(await runRewind({ session: empty, ...answers() })).toBe(
      'nothing to rewind yet: the model has not answered a prompt of this session',
    );
  });
});
