// /rewind's effects: read the session log and the files, ask (the prompt, then code and/or
// conversation, then about files changed outside wield), write atomically, and record a
// conversation rewind in the log so a resume continues from it. The decisions are in
// runtime/agent/rewind.ts and the words in rewind-view.ts.
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { atomicWrite } from '../coding/tools/fs-util.js';
import { afterRecord } from '../runtime/agent/replay-capture.js';
import { type DiskFile, filesChangedSince, planRewind, recordedPrompts, type UntrackedCall } from '../runtime/agent/rewind.js';
import { readSession, type SessionRecord } from '../runtime/agent/session-store.js';
import { isRecord } from '../runtime/util/record.js';
import { messageOf } from '../runtime/util/message.js';
import type { AgentSession } from './agent-session.js';
import {
  answerOf,
  CANCEL,
  doneText,
  outsideChoices,
  pickedPrompt,
  previewText,
  promptChoices,
  scopeChoices,
  shownPrompts,
} from './rewind-view.js';
import type { Choice } from './screen.js';

/** What /rewind needs of the session: its log, its history and where its tools run. */
export interface RewindSession {
  log: Pick<AgentSession['log'], 'saved' | 'failure' | 'file' | 'append'>;
  messages: AgentSession['messages'];
  runtime: { session: { cwd: string }; rt: Pick<AgentSession['runtime']['rt'], 'resolveTool'> };
}

export interface RewindContext {
  session: RewindSession;
  /** One answer from the person among `choices` (Esc gives the escape one). */
  choose: (label: string, choices: readonly Choice[], intro?: string) => Promise<string>;
  /** Puts text in the editor: the prompt a conversation rewind took back, to edit and send again. */
  restoreInput: (text: string) => void;
}

const NOTHING_CHANGED = 'rewind cancelled; nothing changed';

/** The path a record names, inside cwd; undefined for one that would leave it (a hand-edited log). */
function inside(cwd: string, file: string): string | undefined {
  const abs = path.resolve(cwd, file);
  const rel = path.relative(cwd, abs);
  return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : abs;
}

/** Whether a path's nearest existing folder resolves (through symlinks) outside cwd: never written then. */
function leavesFolder(cwd: string, abs: string): boolean {
  let dir = path.dirname(abs);
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  try {
    const rel = path.relative(realpathSync(cwd), realpathSync(dir));
    return rel.startsWith('..') || path.isAbsolute(rel);
  } catch {
    return true;
  }
}

/** The files as they are now, or the error that stopped reading one. */
function readCurrent(cwd: string, files: readonly string[]): { ok: true; current: Map<string, DiskFile> } | { ok: false; message: string } {
  const current = new Map<string, DiskFile>();
  for (const file of files) {
    const abs = inside(cwd, file);
    if (abs === undefined) continue;
    try {
      current.set(file, { data: readFileSync(abs) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { ok: false, message: `cannot read ${file}: ${messageOf(error)}` };
      current.set(file, { absent: true });
    }
  }
  return { ok: true, current };
}

function same(a: DiskFile | undefined, b: DiskFile | undefined): boolean {
  if (a === undefined || b === undefined || a.absent || b.absent) return a?.absent === true && b?.absent === true;
  return a.data.equals(b.data);
}

/**
 * A call whose writes the log does not record: a tool that may change something without naming
 * a file inside cwd it writes (a shell command, a write outside the folder, a tool gone since).
 */
function untrackedFor(session: RewindSession): (call: UntrackedCall) => boolean {
  const cwd = session.runtime.session.cwd;
  return (call) => {
    const tool = session.runtime.rt.resolveTool(call.name);
    if (!tool) return true;
    const input = isRecord(call.input) ? call.input : {};
    try {
      const writes = tool.touchedPaths?.(input, { cwd }).filter((entry) => entry.access === 'write') ?? [];
      if (writes.length > 0) return writes.some((entry) => inside(cwd, entry.path) === undefined);
      return !tool.isReadOnly(input);
    } catch {
      return true;
    }
  };
}

export async function runRewind(ctx: RewindContext): Promise<string> {
  const { session } = ctx;
  // Typed rather than keyed, `2` and Enter is still the second choice.
  const choose = async (label: string, choices: readonly Choice[], intro?: string): Promise<string> =>
    answerOf(choices, await ctx.choose(label, choices, intro));
  if (!session.log.saved) return 'nothing to rewind yet: the model has not answered a prompt of this session';
  if (session.log.failure !== undefined) return `cannot rewind: ${session.log.failure}`;
  let records: SessionRecord[];
  try {
    records = readSession(session.log.file).records;
  } catch (error) {
    return `cannot rewind: the session log could not be read (${messageOf(error)})`;
  }
  const shown = shownPrompts(recordedPrompts(records));
  if (shown.length === 0) return 'nothing to rewind: this session has no prompt yet';
  const answer = await choose(
    'Rewind to before which prompt? (a number, ↑↓ Enter; Esc cancels) › ',
    promptChoices(shown),
    'Earlier prompts of this session, most recent first:\n',
  );
  const prompt = pickedPrompt(shown, answer);
  if (prompt === undefined)
    return answer === CANCEL ? NOTHING_CHANGED : `no prompt ${JSON.stringify(answer.trim())} in the list; ${NOTHING_CHANGED}`;

  const cwd = session.runtime.session.cwd;
  const read = readCurrent(cwd, filesChangedSince(records, prompt));
  if (!read.ok) return `cannot rewind: ${read.message}`;
  const plan = planRewind({ records, prompt, current: read.current, untracked: untrackedFor(session) });
  const scope = await choose('Rewind what? (a number, ↑↓ Enter; Esc cancels) › ', scopeChoices(plan), `${previewText(plan)}\n`);
  if (scope !== 'both' && scope !== 'code' && scope !== 'conversation') return NOTHING_CHANGED;

  let files = scope === 'conversation' ? [] : plan.files;
  const outside = files.filter((file) => file.changedOutside);
  if (outside.length > 0) {
    const names = outside.map((file) => file.path).join(', ');
    const choice = await choose(
      `${names} changed since wield last wrote ${outside.length === 1 ? 'it' : 'them'}: overwrite? › `,
      outsideChoices(),
    );
    if (choice === 'keep') files = files.filter((file) => !file.changedOutside);
    else if (choice !== 'overwrite') return NOTHING_CHANGED;
  }

  // The files are read again: one changed while the person chose would be overwritten unseen.
  const again = readCurrent(
    cwd,
    files.map((file) => file.path),
  );
  const moved = files.filter((file) => !same(again.ok ? again.current.get(file.path) : undefined, read.current.get(file.path)));
  if (moved.length > 0)
    return `${moved.map((file) => file.path).join(', ')} changed while you chose; nothing changed (run /rewind again to see it)`;

  let restored = 0;
  let deleted = 0;
  const failed: string[] = [];
  for (const file of files) {
    const abs = inside(cwd, file.path);
    if (abs === undefined) continue;
    if (leavesFolder(cwd, abs)) {
      failed.push(`${file.path}: its folder now leads outside the working folder (a symlink); not written`);
      continue;
    }
    try {
      if (file.content === undefined) {
        rmSync(abs, { force: true });
        deleted += 1;
      } else {
        await atomicWrite(abs, file.content);
        restored += 1;
      }
    } catch (error) {
      failed.push(`${file.path}: ${messageOf(error)}`);
    }
    // As after a call's change: a later /rewind tells this state from an outside edit.
    const after = afterRecord(cwd, abs);
    if (after) session.log.append(after);
  }
  const conversation = scope !== 'code';
  if (conversation) {
    session.messages = plan.messages;
    // Recorded, so a resume continues from the rewound conversation.
    session.log.append({ type: 'history', reason: 'rewound', messages: plan.messages });
    ctx.restoreInput(prompt.text);
  }
  return doneText(restored, deleted, failed, conversation);
}
