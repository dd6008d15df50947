import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { type DiskFile, filesChangedSince, planRewind, recordedPrompts } from '../../../src/runtime/agent/rewind.js';
import type { SessionRecord } from '../../../src/runtime/agent/session-store.js';
import type { Message } from '../../../src/runtime/providers/types.js';

type Op = { kind: 'write'; path: string; text: string } | { kind: 'delete'; path: string } | { kind: 'read'; path: string };
type State = Map<string, string>;

const hash = (text: string): string => createHash('sha256').update(Buffer.from(text)).digest('hex');
const prompt = (text: string): SessionRecord => ({ type: 'message', message: { role: 'user', content: [{ type: 'text', text }] } });
const reply = (text: string): SessionRecord => ({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text }] } });

function stateRecord(state: State, path: string, after = false): SessionRecord {
  const text = state.get(path);
  if (text === undefined) return { type: 'file', path, absent: true, ...(after ? { after: true as const } : {}) };
  return after
    ? { type: 'file', path, after: true, sha256: hash(text), size: text.length }
    : { type: 'file', path, sha256: hash(text), size: text.length, content: text, encoding: 'utf8' };
}

/**
 * A session as the log records it (replay-capture.ts's rules): a file before the session first
 * touches it, before a call that may change it first does so in a prompt, and by hash after each
 * change. Returns the records, the state before each prompt, and the state at the end.
 */
function simulate(prompts: Op[][], initial: State): { records: SessionRecord[]; before: State[]; final: State } {
  const state = new Map(initial);
  const records: SessionRecord[] = [{ type: 'session', version: 1, id: 's', cwd: '/w', createdAt: 'now' }];
  const before: State[] = [];
  const seen = new Set<string>();
  prompts.forEach((ops, n) => {
    before.push(new Map(state));
    records.push(prompt(`prompt ${n}`));
    const recorded = new Set<string>();
    for (const op of ops) {
      const write = op.kind !== 'read';
      if (!recorded.has(op.path) && (write || !seen.has(op.path))) {
        records.push(stateRecord(state, op.path));
        recorded.add(op.path);
        seen.add(op.path);
      }
      if (op.kind === 'write') state.set(op.path, op.text);
      if (op.kind === 'delete') state.delete(op.path);
      if (write) records.push(stateRecord(state, op.path, true));
    }
    records.push(reply(`done ${n}`));
  });
  return { records, before, final: state };
}

const disk = (state: State, paths: readonly string[]): Map<string, DiskFile> =>
  new Map(paths.map((path) => [path, state.has(path) ? { data: Buffer.from(state.get(path) ?? '') } : { absent: true }]));

const noCommands = () => false;

describe('rewind plan', () => {
  const path = fc.constantFrom('a.txt', 'src/b.ts', 'c.md');
  const text = fc.array(fc.constantFrom('x', 'y', 'z\n', '\n'), { maxLength: 6 }).map((parts) => parts.join(''));
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('write' as const), path, text }),
    fc.record({ kind: fc.constant('delete' as const), path }),
    fc.record({ kind: fc.constant('read' as const), path }),
  );
  const initial = fc.dictionary(path, text).map((entries) => new Map(Object.entries(entries)));

  it('puts the files back as they were before the chosen prompt (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 5 }), { minLength: 1, maxLength: 5 }), initial, fc.nat(), (ops, start, pick) => {
        const { records, before, final } = simulate(ops, start);
        const prompts = recordedPrompts(records);
        expect(prompts).toHaveLength(ops.length);
        const chosen = prompts[pick % prompts.length];
        const changed = filesChangedSince(records, chosen);
        const plan = planRewind({ records, prompt: chosen, current: disk(final, changed), untracked: noCommands });
        expect(plan.cannot).toEqual([]);
        expect(plan.files.every((file) => !file.changedOutside)).toBe(true);
        const restored = new Map(final);
        for (const file of plan.files) {
          if (file.content === undefined) restored.delete(file.path);
          else restored.set(file.path, file.content.toString('utf8'));
        }
        expect(restored).toEqual(before[chosen.index]);
      }),
    );
  });

  it('flags exactly the files edited outside wield since its last write, and restores only what wield changed (property)', () => {
    const edits = fc.array(fc.record({ path, text: fc.option(text, { nil: undefined }) }), { maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(fc.array(op, { maxLength: 5 }), { minLength: 1, maxLength: 4 }),
        initial,
        edits,
        fc.nat(),
        (ops, start, outside, pick) => {
          const { records, before, final } = simulate(ops, start);
          const lastWritten = new Map(final);
          // Edited by hand after the session's last prompt.
          const now = new Map(final);
          for (const edit of outside) {
            if (edit.text === undefined) now.delete(edit.path);
            else now.set(edit.path, edit.text);
          }
          const chosen = recordedPrompts(records)[pick % ops.length];
          const changed = filesChangedSince(records, chosen);
          const plan = planRewind({ records, prompt: chosen, current: disk(now, changed), untracked: noCommands });
          for (const file of plan.files) expect(file.changedOutside).toBe(now.get(file.path) !== lastWritten.get(file.path));
          // Which files wield changed since the prompt: a write op that changed the value.
          const touched = new Set<string>();
          const state = new Map(before[chosen.index]);
          for (const prompt of ops.slice(chosen.index))
            for (const o of prompt) {
              const was = state.get(o.path);
              if (o.kind === 'write') state.set(o.path, o.text);
              if (o.kind === 'delete') state.delete(o.path);
              if (state.get(o.path) !== was) touched.add(o.path);
            }
          const restored = new Map(now);
          for (const file of plan.files) {
            if (file.content === undefined) restored.delete(file.path);
            else restored.set(file.path, file.content.toString('utf8'));
          }
          for (const file of ['a.txt', 'src/b.ts', 'c.md'])
            expect(restored.get(file)).toBe(touched.has(file) ? before[chosen.index].get(file) : now.get(file));
        },
      ),
    );
  });

  it('counts lines, says which files changed outside wield since, and deletes what did not exist', () => {
    const { records } = simulate(
      [
        [
          { kind: 'write', path: 'a.txt', text: 'one\ntwo\nthree\n' },
          { kind: 'write', path: 'new.txt', text: 'fresh\n' },
        ],
      ],
      new Map([['a.txt', 'one\n']]),
    );
    const [first] = recordedPrompts(records);
    const current = new Map<string, DiskFile>([
      ['a.txt', { data: Buffer.from('one\ntwo\nthree\n') }],
      ['new.txt', { data: Buffer.from('fresh\nedited by hand\n') }],
    ]);
    const plan = planRewind({ records, prompt: first, current, untracked: noCommands });
    expect(plan.files).toEqual([
      { path: 'a.txt', content: Buffer.from('one\n'), added: 0, removed: 2, changedOutside: false },
      { path: 'new.txt', added: 0, removed: 2, changedOutside: true },
    ]);
  });

  it('leaves out a file a call left as it was (a failed write), even when it was edited by hand since', () => {
    const records: SessionRecord[] = [
      prompt('first'),
      { type: 'file', path: 'a.txt', sha256: hash('same\n'), size: 5, content: 'same\n', encoding: 'utf8' },
      { type: 'file', path: 'a.txt', after: true, sha256: hash('same\n'), size: 5 },
    ];
    const [first] = recordedPrompts(records);
    expect(filesChangedSince(records, first)).toEqual([]);
    const current = new Map<string, DiskFile>([['a.txt', { data: Buffer.from('by hand\n') }]]);
    expect(planRewind({ records, prompt: first, current, untracked: noCommands }).files).toEqual([]);
  });

  it('names the commands that ran since, and files whose earlier content was not kept', () => {
    const records: SessionRecord[] = [
      prompt('first'),
      {
        type: 'message',
        message: {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'make build' } },
            { type: 'tool_use', id: 'b2', name: 'Bash', input: { command: 'rm -rf /' } },
            { type: 'tool_use', id: 'w1', name: 'Write', input: { file_path: '../outside.txt', content: 'x' } },
            { type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: 'a.txt' } },
          ],
        },
      },
      { type: 'tool_end', toolUseId: 'b2', toolName: 'Bash', isError: true, errorKind: 'denied', durationMs: 1 },
      { type: 'file', path: 'big.bin', sha256: 'old', size: 9_000_000 },
      { type: 'file', path: 'big.bin', after: true, sha256: 'new', size: 9_000_001 },
      { type: 'file', path: 'lost.txt', after: true, absent: true },
    ];
    const plan = planRewind({
      records,
      prompt: recordedPrompts(records)[0],
      current: new Map([['big.bin', { data: Buffer.from('now') }]]),
      untracked: (call) => call.name === 'Bash' || (call.name === 'Write' && JSON.stringify(call.input).includes('..')),
    });
    expect(plan.files).toEqual([]);
    expect(plan.cannot).toEqual([
      "big.bin: its earlier content was not kept (9000000 bytes, over the session's recording limits), so it stays as it is",
      "lost.txt: its earlier state was not recorded (the session's record limit was reached)",
      'what these calls since then wrote is not undone (the log keeps no copy of it): Bash(make build), Write(../outside.txt)',
    ]);
  });

  it('lists prompts without tool results or Stop hook feedback, and gives the conversation before the chosen one', () => {
    const results: Message = {
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 't', toolName: 'Read', content: [{ type: 'text', text: 'x' }], isError: false }],
    };
    const records: SessionRecord[] = [
      prompt('first'),
      reply('one'),
      { type: 'message', message: results },
      { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'A Stop hook asked…' }] }, origin: 'stop_hook' },
      { type: 'history', reason: 'compacted', messages: [{ role: 'user', content: [{ type: 'text', text: 'summary' }] }] },
      prompt('second'),
      reply('two'),
    ];
    const prompts = recordedPrompts(records);
    expect(prompts.map((p) => [p.text, p.at])).toEqual([
      ['first', 0],
      ['second', 5],
    ]);
    const plan = planRewind({ records, prompt: prompts[1], current: new Map(), untracked: noCommands });
    expect(plan.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'summary' }] }]);
    expect(planRewind({ records, prompt: prompts[0], current: new Map(), untracked: noCommands }).messages).toEqual([]);
  });
});
