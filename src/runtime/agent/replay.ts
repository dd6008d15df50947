// Replay: re-runs a recorded session's tool calls through today's pipeline and reports where
// results differ — a regression test for tools and policies. Calls run in a workspace folder
// that stands in for the recorded cwd (paths in inputs and results are mapped across), and the
// person's recorded permission answers are given again; the policy itself is today's.
import { createTwoFilesPatch } from 'diff';
import type { ContentBlock, ToolCallResult } from '../tool/types.js';
import type { AskPermission, RuntimeContext, ToolCallRequest } from '../pipeline/types.js';
import type { Message } from '../providers/types.js';
import { runBatch } from '../scheduler/batch.js';
import { textBlocks, toolUses } from './history.js';
import type { SessionRecord } from './session-store.js';
import { messagesOf } from './session-store.js';

export interface RecordedResult {
  content: ContentBlock[];
  isError: boolean;
}

export interface RecordedCall {
  call: ToolCallRequest;
  expected?: RecordedResult;
}

export type CallStatus = 'same' | 'differs' | 'unrecorded';

export interface CallComparison {
  toolUseId: string;
  toolName: string;
  status: CallStatus;
  expected?: RecordedResult;
  actual: RecordedResult;
  /** Unified diff of recorded vs replayed text, when they differ. */
  diff?: string;
}

export interface ReplayReport {
  calls: CallComparison[];
  same: number;
  differs: number;
  unrecorded: number;
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
        const expected = found?.type === 'tool_result' ? { content: found.content, isError: found.isError } : undefined;
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

/** The person's recorded answers to permission prompts, given again; unrecorded asks are denied. */
export function recordedAnswers(records: readonly SessionRecord[]): AskPermission {
  const answers = new Map<string, boolean>();
  for (const record of records) {
    if (record.type === 'permission' && record.by === 'user') answers.set(record.toolUseId, record.decision.behavior === 'allow');
  }
  return async (request) => {
    const allow = answers.get(request.toolUseId);
    return allow
      ? { allow: true }
      : { allow: false, message: allow === false ? 'declined when recorded' : 'no answer was recorded for this prompt' };
  };
}

export function compareCall(call: ToolCallRequest, expected: RecordedResult | undefined, actual: ToolCallResult): CallComparison {
  const actualResult = { content: actual.content, isError: actual.isError };
  const base = { toolUseId: call.id, toolName: call.name, expected, actual: actualResult };
  if (!expected) return { ...base, status: 'unrecorded' };
  const before = resultText(expected);
  const after = resultText(actualResult);
  if (before === after) return { ...base, status: 'same' };
  return {
    ...base,
    status: 'differs',
    diff: createTwoFilesPatch('recorded', 'replayed', before, after, undefined, undefined, { context: 2 }),
  };
}

function resultText(result: RecordedResult): string {
  return `${result.isError ? '[error]\n' : ''}${textBlocks(result.content)}\n`;
}

export interface ReplayOptions {
  records: readonly SessionRecord[];
  /** The folder the calls run in, standing for the recorded cwd. */
  workspace: string;
  /** Today's runtime for the workspace (policy, hooks, tools); askPermission is replaced. */
  rt: RuntimeContext;
  signal: AbortSignal;
  onCall?: (comparison: CallComparison) => void;
}

export async function replaySession(options: ReplayOptions): Promise<ReplayReport> {
  const recordedCwd = options.records.find((record) => record.type === 'session')?.cwd ?? options.workspace;
  const rt: RuntimeContext = { ...options.rt, askPermission: recordedAnswers(options.records) };
  const calls: CallComparison[] = [];
  for (const turn of recordedTurns(messagesOf(options.records))) {
    const moved = relocate(turn, recordedCwd, options.workspace);
    const results = await runBatch(
      moved.map((entry) => entry.call),
      rt,
      { signal: options.signal },
    );
    moved.forEach((entry, index) => {
      const comparison = compareCall(entry.call, entry.expected, results[index]);
      calls.push(comparison);
      options.onCall?.(comparison);
    });
  }
  const count = (status: CallStatus): number => calls.filter((call) => call.status === status).length;
  return { calls, same: count('same'), differs: count('differs'), unrecorded: count('unrecorded') };
}
