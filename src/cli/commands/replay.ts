// `wield replay SESSION.jsonl [--json]`: re-runs a recorded session's tool calls through
// today's pipeline in a fresh temporary workspace (standing in for the recorded cwd, so the
// real project is never touched) and reports where results differ. Exit 0 when none differ.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readSession, UnusableSessionError } from '../../runtime/agent/session-store.js';
import { replaySession, type CallComparison, type ReplayReport } from '../../runtime/agent/replay.js';
import { createCliRuntime } from '../runtime.js';
import type { CliFlags } from '../options.js';
import { writeOut } from '../exit.js';
import { SetupError } from '../setup-error.js';

/** Per-line warnings printed before the rest are summed up (a binary file has thousands). */
const MAX_PROBLEMS_SHOWN = 20;

export function formatComparison(comparison: CallComparison): string {
  const mark = comparison.status === 'same' ? '✓' : comparison.status === 'differs' ? '✗' : '?';
  const head = `${mark} ${comparison.toolName} ${comparison.toolUseId}: ${comparison.status}`;
  return comparison.diff ? `${head}\n${comparison.diff.trimEnd()}` : head;
}

export function formatReport(report: ReplayReport): string {
  return `${report.calls.length} calls: ${report.same} same, ${report.differs} differ, ${report.unrecorded} without a recorded result`;
}

export async function runReplay(file: string, flags: CliFlags): Promise<number> {
  let parsed: ReturnType<typeof readSession>;
  try {
    parsed = readSession(path.resolve(file));
  } catch (error) {
    throw new SetupError(`Cannot read the session file ${file}: ${(error as Error).message}`);
  }
  const shown = parsed.problems.slice(0, MAX_PROBLEMS_SHOWN);
  if (parsed.problems.length > shown.length) shown.push(`${parsed.problems.length - shown.length} more unreadable lines`);
  for (const problem of shown) process.stderr.write(`wield: ${file}: ${problem}\n`);
  // Nothing to compare is not "0 differ": a file of garbage must not pass as a clean replay.
  if (parsed.records.length === 0) throw new SetupError(`${new UnusableSessionError(file, parsed).message} Nothing to replay.`);
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'wield-replay-')));
  const runtime = await createCliRuntime({ cwd: workspace, flags });
  const controller = new AbortController();
  const onSigint = (): void => controller.abort(new Error('interrupted by the user'));
  process.on('SIGINT', onSigint);
  try {
    const report = await replaySession({
      records: parsed.records,
      workspace,
      rt: runtime.rt,
      signal: controller.signal,
      onCall: flags.json ? undefined : (comparison) => process.stdout.write(`${formatComparison(comparison)}\n`),
    });
    await writeOut(flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
    return report.differs > 0 ? 1 : 0;
  } finally {
    process.off('SIGINT', onSigint);
    await runtime.close();
    await rm(workspace, { recursive: true, force: true });
  }
}
