// Finding a command's processes by their mark: one pass over /proc serves a whole turn of the
// event loop (an exit storm reads it once, not once per command), and what that pass found is
// read again before it is reported or signalled, since it may have ended within the turn.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MARK_VAR, markedProcesses, newMark, signalMarked } from '../../../src/runtime/util/process-mark.js';

const started: number[] = [];

function startMarked(mark: string) {
  const child = spawn('sleep', ['30'], { env: { ...process.env, [MARK_VAR]: mark }, stdio: 'ignore' });
  if (child.pid !== undefined) started.push(child.pid);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited };
}

/** Until /proc shows the mark: spawn returns before the exec that sets the environment. */
async function visible(mark: string): Promise<void> {
  while (markedProcesses(mark).length === 0) await nextTurn();
}

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  vi.restoreAllMocks();
});

describe.skipIf(process.platform !== 'linux')('marked processes', () => {
  it('reads /proc once per turn however many commands look, and afresh on the next turn', async () => {
    const mark = newMark();
    startMarked(mark);
    await visible(mark);
    await nextTurn();
    const reads = vi.spyOn(fs, 'readdirSync');
    for (let i = 0; i < 50; i++) expect(markedProcesses(mark)).toHaveLength(1);
    expect(reads).toHaveBeenCalledTimes(1);
    await nextTurn();
    markedProcesses(mark);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('a process that ended within the turn is neither reported nor signalled, though the turn saw it', async () => {
    const mark = newMark();
    const { child, exited } = startMarked(mark);
    await visible(mark);
    await nextTurn();
    const before = markedProcesses(mark);
    expect(before.map((p) => p.pid)).toEqual([child.pid]);
    // Killed within this turn: the turn's snapshot still lists it (node reaps it only on a later
    // turn, so it is a zombie meanwhile), and the re-read must drop it.
    process.kill(child.pid as number, 'SIGKILL');
    const deadline = Date.now() + 10_000;
    let still = markedProcesses(mark);
    while (still.length > 0 && Date.now() < deadline) still = markedProcesses(mark);
    expect(still).toEqual([]);
    expect(signalMarked(mark, 'SIGTERM')).toBe(0);
    await exited;
  });
});
