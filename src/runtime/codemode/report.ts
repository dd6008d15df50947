// What a program returns to the model: what it printed, how it ended when it did not finish (with
// the line and the cause), and a one-line ledger of its tool calls. Pure.
import type { ToolResultContent } from '../tool/types.js';
import type { LedgerEntry } from './bridge.js';
import type { ProgramEnd, ProgramLimits, ProgramRun } from './types.js';

/** Groups of consecutive equal calls listed; the rest are counted. */
const MAX_LEDGER_GROUPS = 30;

export function endText(end: ProgramEnd, limits: ProgramLimits): string | undefined {
  switch (end.kind) {
    case 'completed':
      return undefined;
    case 'error': {
      const where = end.line === undefined ? '' : ` at line ${end.line}`;
      const cause =
        end.name === 'ToolError' ? `a tool call failed and the program did not catch it: ${end.message}` : `${end.name}: ${end.message}`;
      return `The program failed${where}: ${cause}`;
    }
    case 'cpu':
      return `Stopped: the program ran its own code for more than ${limits.cpuMs} ms of CPU (an endless loop?).`;
    case 'memory':
      return `Stopped: the program ran out of memory (its limit is ${Math.round(limits.memoryBytes / 1024 / 1024)} MB).`;
    case 'deadline':
      return `Stopped: the program ran past its ${Math.round(limits.deadlineMs / 1000)} s deadline (time waiting for a person not counted); calls still running were stopped.`;
    case 'stalled':
      return 'Stopped: the program awaits a promise nothing can settle (no tool call is running). Await tool calls; there are no timers.';
    case 'aborted':
      return 'Interrupted: the program was stopped before it finished.';
  }
}

/** `Read ok ×3 · Bash denied`: consecutive equal calls grouped. */
export function ledgerText(ledger: readonly LedgerEntry[]): string {
  if (ledger.length === 0) return 'Tool calls: none.';
  const groups: { label: string; count: number }[] = [];
  for (const entry of ledger) {
    const label = `${entry.tool} ${entry.outcome}`;
    const last = groups.at(-1);
    if (last?.label === label) last.count++;
    else groups.push({ label, count: 1 });
  }
  const shown = groups.slice(0, MAX_LEDGER_GROUPS).map((group) => (group.count > 1 ? `${group.label} ×${group.count}` : group.label));
  const hidden = groups.slice(MAX_LEDGER_GROUPS).reduce((sum, group) => sum + group.count, 0);
  if (hidden > 0) shown.push(`… ${hidden} more`);
  return `Tool calls (${ledger.length}): ${shown.join(' · ')}`;
}

export function reportRun(run: ProgramRun, ledger: readonly LedgerEntry[], limits: ProgramLimits): ToolResultContent {
  const parts: string[] = [];
  const printed = run.output.replace(/\n$/, '');
  if (printed !== '') parts.push(printed);
  if (run.outputTruncated) parts.push(`[output cut at ${limits.maxOutputChars.toLocaleString('en-US')} characters]`);
  const ended = endText(run.end, limits);
  if (ended) parts.push(ended);
  else if (printed === '') parts.push('(the program printed nothing: return results with console.log)');
  parts.push(ledgerText(ledger));
  return { content: [{ type: 'text', text: parts.join('\n\n') }], isError: ended !== undefined };
}
