// `wield replay ID|SESSION.jsonl [--json]`: re-runs a recorded session's tool calls through
// today's pipeline in a fresh temporary workspace (standing in for the recorded cwd, rebuilt from
// the files the session recorded, so the real project is never touched) and reports where
// results differ. Exit 0 when none differs in meaning; wording-only differences are shown apart.
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readSession, sessionFile, UnusableSessionError } from '../../runtime/agent/session-store.js';
import { replaySession, type CallComparison, type ReplayReport } from '../../runtime/agent/replay.js';
import { createCliRuntime } from '../runtime.js';
import type { CliFlags } from '../options.js';
import { writeOut } from '../exit.js';
import { SetupError } from '../setup-error.js';

/** Per-line warnings printed before the rest are summed up (a binary file has thousands). */
const MAX_PROBLEMS_SHOWN = 20;

export function formatComparison(comparison: CallComparison): string {
  const mark = { same: '✓', wording: '≈', differs: '✗', unrecorded: '?' }[comparison.status];
  const head = `${mark} ${comparison.toolName} ${comparison.toolUseId}: ${comparison.status}`;
  return comparison.diff ? `${head}\n${comparison.diff.trimEnd()}` : head;
}

/** `7 calls: 7 same`, with the wording-only differences, real differences and unrecorded calls when there are any. */
export function formatReport(report: ReplayReport): string {
  const parts = [`${report.same} same${report.wording > 0 ? ` (${report.wording} in other words)` : ''}`];
  if (report.differs > 0) parts.push(`${report.differs} differ`);
  if (report.unrecorded > 0) parts.push(`${report.unrecorded} without a recorded result`);
  return `${report.calls.length} calls: ${parts.join(', ')}`;
}

/** A session id (as `--resume` takes) names a file under the sessions folder; anything else is a path. */
export function replaySource(arg: string, env: NodeJS.ProcessEnv = process.env): string {
  if (existsSync(arg) || arg.includes('/') || arg.endsWith('.jsonl')) return path.resolve(arg);
  try {
    return sessionFile(arg, env);
  } catch {
    return path.resolve(arg);
  }
}

export async function runReplay(file: string, flags: CliFlags): Promise<number> {
  const source = replaySource(file);
  if (!existsSync(source)) {
    throw new SetupError(
      source.endsWith(`${path.sep}${file}.jsonl`)
        ? `No session "${file}" in ${path.dirname(source)}: pass an id wield printed (as --resume takes) or a session file.`
        : `Cannot read the session file ${file}: it does not exist. Pass a session id or a .jsonl file.`,
    );
  }
  let parsed: ReturnType<typeof readSession>;
  try {
    parsed = readSession(source);
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
