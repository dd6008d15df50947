// Replay: re-runs a recorded session's tool calls through today's pipeline and reports where
// results differ — a regression test for tools and policies. Calls run in a workspace folder
// that stands in for the recorded cwd (paths in inputs and results are mapped across), rebuilt
// from the files the session recorded; the person's recorded permission and question answers
// are given again (approvals only from a log this installation wrote, see session-key.ts), and
// calls the person interrupted are interrupted again. The policy itself is today's. Results are
// compared by meaning: an error of the same kind in other words is reported apart from a real
// difference, and a call whose result cannot be compared here is marked so.
import { mkdirSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { AnyTool, AskUser, ContentBlock, ErrorKind, ToolCallResult } from '../tool/types.js';
import type { AskPermission, RuntimeContext, ToolCallRequest } from '../pipeline/types.js';
import type { Message } from '../providers/types.js';
import { declineMessageOf } from '../pipeline/permission.js';
import { runBatch } from '../scheduler/batch.js';
import { deadline } from '../util/deadline.js';
import { textBlocks, toolUses } from './history.js';
import { INTERRUPTED } from '../results/errors.js';
import type { SessionRecord } from './session-store.js';
import { recordedMessages } from './session-store.js';

export interface RecordedResult {
  content: ContentBlock[];
  isError: boolean;
  /** Absent in sessions recorded before results carried a kind. */
  errorKind?: ErrorKind;
}

export interface RecordedCall {
  call: ToolCallRequest;
  expected?: RecordedResult;
}

/**
 * same: the same text; wording: an error of the same kind in other words; differs: a real
 * difference; skipped: not compared (`reason` says why: an approval not given again, a result
 * this folder cannot reproduce).
 */
export type CallStatus = 'same' | 'wording' | 'differs' | 'unrecorded' | 'skipped';

export interface CallComparison {
  toolUseId: string;
  toolName: string;
  status: CallStatus;
  expected?: RecordedResult;
  actual: RecordedResult;
  /** Unified diff of recorded vs replayed text, when they differ (in meaning or in wording). */
  diff?: string;
  /** Why a skipped call was not compared. */
  reason?: string;
}

export interface ReplayReport {
  calls: CallComparison[];
  /** Calls whose results mean the same, whatever their wording (`wording` of them differ in words). */
  same: number;
  wording: number;
  differs: number;
  unrecorded: number;
  skipped: number;
}

/** The tool calls of each assistant message, with the results recorded for them. */
export function recordedTurns(messages: readonly Message[]): RecordedCall[][] {
  const turns: RecordedCall[][] = [];
  messages.forEach((message, index) => {
    const uses = toolUses(message);
    if (uses.length === 0) return;
    const next = messages[index + 1];
    const results = next?.role === 'user' ? next.content : [];
    turns.push(
      uses.map((use) => {
        const found = results.find((part) => part.type === 'tool_result' && part.toolUseId === use.id);
        const expected = found?.type === 'tool_result' ? recorded(found) : undefined;
        return { call: { id: use.id, name: use.name, input: use.input }, expected };
      }),
    );
  });
  return turns;
}

/** Replaces every occurrence of `from` in the strings of a JSON value (keys included). */
export function relocate<T>(value: T, from: string, to: string): T {
  if (from === '' || from === to) return value;
  return JSON.parse(JSON.stringify(value).split(jsonInner(from)).join(jsonInner(to))) as T;
}

/** A string as it appears inside a JSON string literal (so escapes match). */
function jsonInner(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

export interface AnswerOptions {
  /** The log was written by this installation (session-key.ts): its recorded approvals count. */
  own: boolean;
  /** The replay folder: a file edit there changes only the throwaway copy, so its approval counts from any log. */
  workspace?: string;
  /** Asks the person where a recorded approval does not count; absent, such prompts are declined. */
  askPerson?: AskPermission;
  /** Told of each approval declined because it does not count. */
  onNotGiven?: (toolUseId: string) => void;
}

/** Why an approval from a log written elsewhere was not given again, with no one to ask. */
export const APPROVAL_NOT_GIVEN =
  'its recorded approval is not given again, as the session file was not written by wield on this machine (replay it in a terminal to answer)';

/**
 * The recorded permission decisions, given again where today's policy asks: the person's answer,
 * or what the run decided without one (no terminal, a hook, a session rule an "always" answer
 * added). A prompt with nothing recorded is declined. A recorded approval counts only from a log
 * this installation wrote, or for a built-in file tool that touches nothing outside the replay
 * folder; others go to the person, or are declined.
 */
export function recordedAnswers(records: readonly SessionRecord[], options: AnswerOptions = { own: true }): AskPermission {
  const decisions = new Map<string, Extract<SessionRecord, { type: 'permission' }>>();
  for (const record of records) if (record.type === 'permission') decisions.set(record.toolUseId, record);
  return async (request, signal) => {
    const recorded = decisions.get(request.toolUseId);
    if (!recorded) return { behavior: 'deny', message: 'no answer was recorded for this prompt' };
    if (recorded.decision.behavior !== 'allow') {
      const reason = recorded.decision.reason;
      return { behavior: 'deny', message: recorded.by === 'user' ? declineMessageOf(reason) : reason };
    }
    if (options.own || (options.workspace !== undefined && touchesOnlyInside(request.tool, request.input, options.workspace)))
      return { behavior: 'allow' };
    if (options.askPerson) return options.askPerson(request, signal);
    options.onNotGiven?.(request.toolUseId);
    return { behavior: 'deny', message: APPROVAL_NOT_GIVEN };
  };
}

/** A built-in tool whose every effect is a path it names (Write, Edit…), all of them inside `root` (a real path), links resolved. */
export function touchesOnlyInside(tool: AnyTool, input: unknown, root: string): boolean {
  if (tool.source !== 'builtin' || !tool.touchedPaths) return false;
  let paths: string[];
  try {
    paths = tool.touchedPaths(input, { cwd: root }).map((entry) => entry.path);
  } catch {
    return false;
  }
  return paths.length > 0 && paths.every((file) => isInside(realPathOf(path.resolve(root, file)), root));
}

/** The real path of a file that may not exist yet: its nearest existing folder resolved, the rest appended. */
function realPathOf(file: string): string {
  const rest: string[] = [];
  for (let probe = file; ; probe = path.dirname(probe)) {
    try {
      return path.join(realpathSync(probe), ...rest.reverse());
    } catch {
      if (path.dirname(probe) === probe) return file;
      rest.push(path.basename(probe));
    }
  }
}

function isInside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The person's recorded answers to questions, given again in the order they were asked. */
export function recordedQuestions(records: readonly SessionRecord[]): AskUser {
  const queue = records.filter((record): record is Extract<SessionRecord, { type: 'answer' }> => record.type === 'answer');
  return async (questions) => {
    const texts = questions.map((question) => question.question);
    const at = queue.findIndex((entry) => entry.questions.join('\n') === texts.join('\n'));
    if (at < 0) return null;
    const [entry] = queue.splice(at, 1);
    return entry.answers;
  };
}

/**
 * Writes the recorded files into the workspace standing for the recorded cwd. From a log written
 * elsewhere (`own` false), nothing inside a `.git` folder: a planted config (core.fsmonitor, a
 * pager) would make a git command that only reads run a program of the file's author.
 */
export function restoreFiles(records: readonly SessionRecord[], workspace: string, own = true): { restored: number; missing: string[] } {
  let restored = 0;
  const missing: string[] = [];
  // A file's first record is its state before the session touched it; later ones are for /rewind.
  const done = new Set<string>();
  for (const record of records) {
    if (record.type !== 'file' || record.after || done.has(record.path)) continue;
    done.add(record.path);
    if (record.absent) continue;
    const target = path.resolve(workspace, record.path);
    const rel = path.relative(workspace, target);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue; // a hand-edited log cannot write outside
    if (!own && rel.split(path.sep).includes('.git')) continue;
    if (record.content === undefined) {
      missing.push(record.path);
      continue;
    }
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, Buffer.from(record.content, record.encoding ?? 'utf8'));
    // Written one after another, the files would list newest first in the order they were restored.
    if (record.mtimeMs !== undefined) utimesSync(target, record.mtimeMs / 1000, record.mtimeMs / 1000);
    restored += 1;
  }
  return { restored, missing };
}

/**
 * What a result means, as far as the comparison goes: success, or the kind of error. Sessions
 * recorded before results carried an errorKind tell only an interruption apart, by its text.
 */
function kindOf(result: RecordedResult, byErrorKind: boolean): string {
  if (!result.isError) return 'ok';
  if (byErrorKind) return result.errorKind ?? 'tool_failed';
  return textBlocks(result.content).includes(INTERRUPTED) ? 'interrupted' : 'error';
}

function recorded(result: RecordedResult): RecordedResult {
  return { content: result.content, isError: result.isError, ...(result.errorKind ? { errorKind: result.errorKind } : {}) };
}

export function compareCall(call: ToolCallRequest, expected: RecordedResult | undefined, actual: ToolCallResult): CallComparison {
  const actualResult = recorded(actual);
  const base = { toolUseId: call.id, toolName: call.name, expected, actual: actualResult };
  if (!expected) return { ...base, status: 'unrecorded' };
  // Kinds are compared when the recording has them: a denial that became a crash differs even if the texts match.
  const withKind = expected.errorKind !== undefined;
  const before = resultText(expected, withKind);
  const after = resultText(actualResult, withKind);
  if (before === after) return { ...base, status: 'same' };
  const diff = createTwoFilesPatch('recorded', 'replayed', before, after, undefined, undefined, { context: 2 });
  // An error of the same kind is the same outcome told in other words (a denial from no terminal
  // and from a recorded answer); a successful result whose text changed is a real difference.
  const sameMeaning = expected.isError && kindOf(expected, withKind) === kindOf(actualResult, withKind);
  return { ...base, status: sameMeaning ? 'wording' : 'differs', diff };
}

function resultText(result: RecordedResult, withKind: boolean): string {
  const head = !result.isError ? '' : withKind ? `[error: ${result.errorKind ?? 'no kind'}]\n` : '[error]\n';
  return `${head}${textBlocks(result.content)}\n`;
}

/** Calls the person interrupted are interrupted again after this long at most (a `sleep 30` must not run 30 s). */
export const MAX_INTERRUPT_WAIT_MS = 2000;

/** How long the batch of a recorded turn may run when one of its calls was interrupted. */
function interruptAfter(turn: readonly RecordedCall[], records: readonly SessionRecord[]): number | undefined {
  const interrupted = turn.filter(
    (entry) => entry.expected && kindOf(entry.expected, entry.expected.errorKind !== undefined) === 'interrupted',
  );
  if (interrupted.length === 0) return undefined;
  const ids = new Set(interrupted.map((entry) => entry.call.id));
  const durations = records.flatMap((record) => (record.type === 'tool_end' && ids.has(record.toolUseId) ? [record.durationMs] : []));
  return Math.round(Math.min(MAX_INTERRUPT_WAIT_MS, Math.max(50, ...durations)));
}

export interface ReplayOptions {
  records: readonly SessionRecord[];
  /** The folder the calls run in, standing for the recorded cwd. */
  workspace: string;
  /** Today's runtime for the workspace (policy, hooks, tools); askPermission is replaced. */
  rt: RuntimeContext;
  signal: AbortSignal;
  /** Whose log this is (see AnswerOptions); own unless said otherwise. */
  own?: boolean;
  /** Asks the person where a recorded approval does not count (a log from elsewhere). */
  askPerson?: AskPermission;
  /**
   * Why a call's result cannot be reproduced in the replay folder (a git command, with no
   * repository there), or undefined: a call so named is reported skipped rather than differing.
   */
  notComparable?: (call: ToolCallRequest, workspace: string) => string | undefined;
  onCall?: (comparison: CallComparison) => void;
}

export async function replaySession(options: ReplayOptions): Promise<ReplayReport> {
  const recordedCwd = options.records.find((record) => record.type === 'session')?.cwd ?? options.workspace;
  restoreFiles(options.records, options.workspace, options.own ?? true);
  // Questions are answered from the log only where a person answered them; a run that had no one
  // to ask (-p) is replayed without anyone to ask, as it ran.
  const answered = options.records.some((record) => record.type === 'answer');
  const notGiven = new Set<string>();
  const rt: RuntimeContext = {
    ...options.rt,
    askPermission: recordedAnswers(options.records, {
      own: options.own ?? true,
      workspace: options.workspace,
      askPerson: options.askPerson,
      onNotGiven: (id) => notGiven.add(id),
    }),
    askUser: answered ? recordedQuestions(options.records) : undefined,
  };
  const calls: CallComparison[] = [];
  for (const turn of recordedTurns(recordedMessages(options.records))) {
    const moved = relocate(turn, recordedCwd, options.workspace);
    const wait = interruptAfter(turn, options.records);
    const limit = wait === undefined ? undefined : deadline(options.signal, wait);
    const results = await runBatch(
      moved.map((entry) => entry.call),
      rt,
      { signal: limit?.signal ?? options.signal },
    ).finally(() => limit?.clear());
    moved.forEach((entry, index) => {
      const compared = compareCall(entry.call, entry.expected, results[index]);
      const reason = notGiven.has(entry.call.id)
        ? APPROVAL_NOT_GIVEN
        : compared.status === 'same' || compared.status === 'unrecorded'
          ? undefined
          : options.notComparable?.(entry.call, options.workspace);
      const comparison: CallComparison = reason === undefined ? compared : { ...compared, status: 'skipped', reason };
      calls.push(comparison);
      options.onCall?.(comparison);
    });
  }
  const count = (...statuses: CallStatus[]): number => calls.filter((call) => statuses.includes(call.status)).length;
  return {
    calls,
    same: count('same', 'wording'),
    wording: count('wording'),
    differs: count('differs'),
    unrecorded: count('unrecorded'),
    skipped: count('skipped'),
  };
}
