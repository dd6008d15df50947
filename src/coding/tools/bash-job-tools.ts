// BashOutput and KillShell (Claude Code's names and parameters): read and stop the background
// jobs Bash started with `run_in_background`. Neither asks: a job runs under the permission its
// Bash call was given, and reading or stopping it does nothing that call did not already allow.
// Deny rules still apply (`KillShell` denied whole is never offered).
import { z } from 'zod';
import { defineTool } from '../../runtime/tool/define.js';
import type { BashJobs, JobRead } from './bash-jobs.js';
import { leftRunningNote } from './bash.js';

const bashOutputInput = z.object({
  bash_id: z.string().min(1, 'bash_id must be the id Bash gave when it started the job (e.g. "bash_1")'),
  filter: z
    .string()
    .optional()
    .describe('A regular expression: only lines matching it are shown; the others are consumed (not shown by later reads)'),
});
type BashOutputInput = z.infer<typeof bashOutputInput>;

const killShellInput = z.object({
  shell_id: z.string().min(1, 'shell_id must be the id Bash gave when it started the job (e.g. "bash_1")'),
});
type KillShellInput = z.infer<typeof killShellInput>;

function stateLine(read: JobRead): string {
  if (read.state === 'running') return '[still running]';
  if (read.state === 'killed') return '[stopped; the command and its child processes were killed]';
  if (read.spawnError) return `[the shell could not start: ${read.spawnError}]`;
  if (read.timedOut) return '[timed out; the command and its child processes were killed]';
  if (read.signal) return `[ended: killed by ${read.signal}]`;
  return `[ended: exit code ${read.exitCode ?? 'unknown'}]`;
}

/** What the model reads of one read of a job. */
export function formatJobRead(read: JobRead): string {
  const parts = [read.output.trimEnd() || '(no new output)'];
  if (read.droppedChars > 0) {
    const where = read.spillFile
      ? `the whole output is in ${read.spillFile} (Read or Grep it)`
      : 'read more often, or print less (e.g. through grep)';
    parts.push(`[${read.droppedChars.toLocaleString('en-US')} earlier characters were not kept for this read; ${where}]`);
  }
  if (read.filteredLines > 0)
    parts.push(`[${read.filteredLines} line${read.filteredLines === 1 ? '' : 's'} not matching the filter left out]`);
  parts.push(stateLine(read));
  if (read.leftRunning.length > 0) parts.push(`[${leftRunningNote(read.leftRunning)}]`);
  if (read.note) parts.push(`[${read.note}]`);
  return parts.join('\n');
}

function compileFilter(filter: string | undefined): RegExp | undefined {
  return filter === undefined ? undefined : new RegExp(filter);
}

export function bashOutputTool(jobs: BashJobs) {
  return defineTool<BashOutputInput, JobRead>({
    name: 'BashOutput',
    source: 'builtin',
    searchHint: 'background job shell output read poll status',
    description:
      'Reads what a background job (Bash with "run_in_background": true) printed since the last read, and whether it is still running or how it ended. ' +
      'Returns at once; call again later for more.',
    inputSchema: bashOutputInput,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    validateInput(input) {
      try {
        compileFilter(input.filter);
        return { ok: true };
      } catch (error) {
        return { ok: false, message: `filter is not a valid regular expression: ${(error as Error).message}` };
      }
    },
    checkPermissions: () => ({ behavior: 'allow', message: 'reads a job this session started, under the permission it was started with' }),
    call: async (input) => jobs.read(input.bash_id, compileFilter(input.filter)),
    toModel: (read) => ({ content: [{ type: 'text', text: formatJobRead(read) }] }),
    toDisplay: (read) => formatJobRead(read),
  });
}

export function killShellTool(jobs: BashJobs) {
  return defineTool<KillShellInput, JobRead>({
    name: 'KillShell',
    source: 'builtin',
    searchHint: 'stop kill background job shell process',
    description:
      'Stops a background job (Bash with "run_in_background": true) and every process it started: SIGTERM, then SIGKILL after a short grace. ' +
      'Returns its last output once it has ended.',
    inputSchema: killShellInput,
    checkPermissions: () => ({ behavior: 'allow', message: 'stops a job this session started, under the permission it was started with' }),
    interruptBehavior: () => 'block',
    call: (input) => jobs.kill(input.shell_id),
    toModel: (read) => ({ content: [{ type: 'text', text: `${read.id} (${read.command}):\n${formatJobRead(read)}` }] }),
    toDisplay: (read) => `stopped ${read.id}`,
  });
}
