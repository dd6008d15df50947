// Bash: runs a command in the session's persistent working directory, in its own process group,
// with bounded memory (head + tail in memory, the full stream in a spill file).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { analyzeBash, loadBashAnalyzer, matchBashRule, type BashAnalysis } from '../bash/index.js';
import { isDestructiveCommand } from '../bash/destructive.js';
import { guardPath } from '../permissions/paths.js';
import { spillPath } from '../../runtime/results/spill.js';
import { boundedInt } from './schema-util.js';
import { gitConfigRisk } from './git-config-risk.js';
import { defineTool } from '../../runtime/tool/define.js';
import { ToolError } from '../../runtime/tool/types.js';
import type { ToolContext } from '../../runtime/tool/types.js';
import { OutputCapture } from './bash-output.js';
import { pathLikeWords } from './shell-words.js';
import { runProcess, type ExtraPipe, type RunResult } from './bash-process.js';
import type { BashJobs } from './bash-jobs.js';
import type { SandboxProfile } from '../sandbox/plan.js';
import type { InheritedFile } from '../sandbox/argv.js';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
export const BASH_MAX_RESULT_CHARS = 30_000;
/** Room kept for the status lines after the output. */
const NOTES_ROOM = 1_200;
/** Errors and summaries come last, so the tail gets the larger share. */
const HEAD_SHARE = 0.4;
/** Output kept for a concise call, a fifth of it from the start. */
export const BASH_CONCISE_BYTES = 2_000;
const CONCISE_HEAD_SHARE = 0.2;
const PROGRESS_INTERVAL_MS = 200;
const PROGRESS_CHARS = 2_000;

/** Claude Code's Bash parameters, exactly: what models already know. */
export const bashInput = z.object({
  command: z.string().min(1, 'command must be a non-empty shell command'),
  timeout: boundedInt('timeout', 1, BASH_MAX_TIMEOUT_MS, 'milliseconds').describe(
    `Milliseconds before the command is killed (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS})`,
  ),
  description: z.string().optional().describe('What the command does, in 5-10 words, for the person watching'),
});
/** With a sandbox only: the escalation out of it. Without one the parameter would mean nothing. */
export const bashSandboxInput = bashInput.extend({
  sandbox: z
    .boolean()
    .optional()
    .describe('false runs outside the sandbox (and the read-only containment of commands that run without asking); needs approval'),
});
const runInBackground = z
  .boolean()
  .optional()
  .describe(
    'true starts the command as a background job and returns its id at once (no timeout unless you give one); read its output with BashOutput, stop it with KillShell. It ends when the session ends',
  );
/** With background jobs: Claude Code's `run_in_background`. */
export const bashJobsInput = bashInput.extend({ run_in_background: runInBackground });
export const bashSandboxJobsInput = bashSandboxInput.extend({ run_in_background: runInBackground });
export type BashInput = z.infer<typeof bashSandboxJobsInput>;

function inputSchemaFor(options: BashToolOptions) {
  if (options.jobs) return options.wrap ? bashSandboxJobsInput : bashJobsInput;
  return options.wrap ? bashSandboxInput : bashInput;
}

export interface BashToolOptions {
  /** Wraps the shell argv in a sandbox (e.g. bwrap); without it `bash -c` runs directly. */
  wrap?: (
    argv: string[],
    ctx: ToolContext,
    input: BashInput,
  ) => Promise<{
    file: string;
    args: string[];
    sandboxed: boolean;
    profile?: SandboxProfile;
    bridge?: ExtraPipe;
    /** A file to hand to the process at its fd (the sandbox's seccomp filter). */
    inherit?: InheritedFile;
    /** Run once the command has ended; a note for the result (what the sandbox undid). */
    afterRun?: () => Promise<string | undefined>;
    /** Applied to the environment the command gets (the view leaves out secrets). */
    env?: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
  }>;
  /** Explains a failure of a sandboxed command (see src/coding/sandbox/explain.ts). */
  explainFailure?: (output: string, exitCode: number, profile?: SandboxProfile) => string | undefined;
  /** Time between SIGTERM and SIGKILL of the process group. */
  graceMs?: number;
  /** Background jobs (`run_in_background`, read by BashOutput, stopped by KillShell); absent, not offered. */
  jobs?: BashJobs;
}

export interface BashOutput extends RunResult {
  command: string;
  timeoutMs: number;
  sandboxed: boolean;
  /** Lines of the head, so a Read of the spill file can start where the omission begins. */
  headLines: number;
  cwdNote?: string;
  /** When a sandboxed command failed the way the sandbox makes commands fail: what to do. */
  sandboxNote?: string;
}

/**
 * The command runs after an EXIT trap that prints the final directory to fd 3, so a `cd`
 * carries to the next call without touching the output. Same line, so error line numbers match.
 */
export function shellArgv(command: string): string[] {
  return ['bash', '-c', `trap 'pwd -P >&3 2>/dev/null' EXIT; ${command}`];
}

function updateCwd(ctx: ToolContext, reported: string): string | undefined {
  const next = reported.trim().split('\n').pop() ?? '';
  if (!next || next === ctx.session.cwd) return undefined;
  if (!fs.existsSync(next)) return undefined;
  const verdict = guardPath(next, { cwd: ctx.session.cwd, roots: ctx.session.roots });
  if (!verdict.inside)
    return `The command changed directory to ${next}, which is outside the workspace; the working directory stays ${ctx.session.cwd}.`;
  ctx.session.cwd = verdict.resolved;
  return `Working directory is now ${verdict.resolved}.`;
}

function progressReporter(ctx: ToolContext): { onOutput: (chunk: Buffer) => void; stop: () => void } {
  let recent = '';
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    ctx.onProgress({ output: recent, message: `${bytes.toLocaleString('en-US')} bytes of output` });
    recent = '';
  };
  return {
    onOutput(chunk) {
      bytes += chunk.length;
      recent = (recent + chunk.toString('utf8', Math.max(0, chunk.length - PROGRESS_CHARS))).slice(-PROGRESS_CHARS);
      timer ??= setTimeout(flush, PROGRESS_INTERVAL_MS);
    },
    stop() {
      if (timer) clearTimeout(timer);
    },
  };
}

export function leftRunningNote(commands: string[]): string {
  const shown = commands.slice(0, 3).map((c) => (c.length > 80 ? `${c.slice(0, 77)}...` : c) || '?');
  const more = commands.length > shown.length ? ` and ${commands.length - shown.length} more` : '';
  return `the command left ${commands.length} process${commands.length === 1 ? '' : 'es'} running (${shown.join('; ')}${more}); ended when the command finished`;
}

function savedOutput(output: BashOutput): string {
  const dropped = output.spillDroppedBytes;
  if (dropped === undefined) return `The full output (${output.totalBytes.toLocaleString('en-US')} bytes)`;
  return `Its start and end (${(output.totalBytes - dropped).toLocaleString('en-US')} bytes; ${dropped.toLocaleString('en-US')} bytes from the middle were dropped, to spare the disk)`;
}

/** A background job started: what the model needs to follow it. */
export interface BashStarted {
  command: string;
  jobId: string;
}

function formatStarted(started: BashStarted): string {
  const id = JSON.stringify(started.jobId);
  return `Started in the background as ${started.jobId}. Read its output with BashOutput {"bash_id": ${id}}; stop it with KillShell {"shell_id": ${id}}. It is stopped when this session ends.`;
}

export function formatBashResult(output: BashOutput | BashStarted): { text: string; isError: boolean } {
  if ('jobId' in output) return { text: formatStarted(output), isError: false };
  const parts: string[] = [];
  const body =
    output.omittedBytes > 0
      ? `${output.head}\n\n[… ${output.omittedBytes.toLocaleString('en-US')} bytes omitted …]\n\n${output.tail}`
      : output.head;
  parts.push(body.trimEnd() || '(no output)');
  if (output.spawnError) parts.push(`[the shell could not start: ${output.spawnError}]`);
  if (output.timedOut)
    parts.push(
      `[timed out after ${output.timeoutMs} ms; the command and its child processes were killed. Pass a larger timeout (max ${BASH_MAX_TIMEOUT_MS}) or run less at once.]`,
    );
  else if (output.interrupted) parts.push('[interrupted; the command and its child processes were killed]');
  else if (output.signal) parts.push(`[killed by ${output.signal}]`);
  else parts.push(`[exit code ${output.exitCode ?? 'unknown'}]`);
  if (output.omittedBytes > 0) {
    const where = output.spillFile
      ? `${savedOutput(output)} is in ${output.spillFile}: read more with Read {"file_path": ${JSON.stringify(output.spillFile)}, "offset": ${output.headLines + 1}} or search it with Grep {"pattern": "...", "path": ${JSON.stringify(output.spillFile)}}.`
      : `The full output could not be saved (${output.spillError ?? 'unknown error'}); rerun with less output (e.g. pipe through grep or tail).`;
    parts.push(`[output was ${output.totalBytes.toLocaleString('en-US')} bytes; showing the start and the end. ${where}]`);
  }
  if (output.leftRunning.length > 0) parts.push(`[${leftRunningNote(output.leftRunning)}]`);
  if (output.cwdNote) parts.push(`[${output.cwdNote}]`);
  if (output.sandboxNote) parts.push(`[${output.sandboxNote}]`);
  const failed = output.timedOut || output.interrupted || output.spawnError !== undefined || output.exitCode !== 0;
  return { text: parts.join('\n'), isError: failed };
}

/** Analyses made at validation, with the session's cwd; a later rewrite of the input falls back to the process cwd. */
const analyses = new WeakMap<BashInput, { analysis: BashAnalysis; cwd: string }>();

/** The analyser's verdict for a validated Bash input (made once, at validation). */
export function bashAnalysisOf(input: BashInput): BashAnalysis {
  return analyses.get(input)?.analysis ?? analyzeBash(input.command);
}

function bashIsDestructive(input: BashInput): boolean {
  const cwd = analyses.get(input)?.cwd ?? process.cwd();
  return isDestructiveCommand(input.command, bashAnalysisOf(input), { cwd, exists: fs.existsSync });
}

export function bashTool(options: BashToolOptions = {}) {
  return defineTool<BashInput, BashOutput | BashStarted>({
    name: 'Bash',
    source: 'builtin',
    searchHint: 'shell command terminal run execute script git npm',
    description:
      'Runs a bash command and returns its combined stdout and stderr with the exit code. The working directory persists between calls ' +
      `(a \`cd\` carries over). Default timeout ${BASH_DEFAULT_TIMEOUT_MS / 1000} s, max ${BASH_MAX_TIMEOUT_MS / 1000} s (timeout is in milliseconds). ` +
      'Large output keeps its start and end, with the full text saved to a file you can Read or Grep. Background processes are ended when the command finishes' +
      (options.jobs ? '; to keep one running (a server, a watcher), pass run_in_background: true and read it with BashOutput.' : '.'),
    prompt:
      'Use Bash for builds, tests, git and other commands; use Read, Edit, Write, Grep and Glob for files instead of cat, sed, echo > or find. ' +
      'Quote paths with spaces. Chain dependent commands with &&. Give a short description.',
    inputSchema: inputSchemaFor(options),
    responseFormats: {
      options: {
        concise: `about ${BASH_CONCISE_BYTES.toLocaleString('en-US')} bytes of output, mostly its end (the full output is saved to a file), when you need the outcome, not every line`,
        detailed: 'the output up to the full result budget, when you need to read it all',
      },
      default: 'detailed',
    },
    isReadOnly: (input) => bashAnalysisOf(input).readOnly,
    isConcurrencySafe: (input) => bashAnalysisOf(input).readOnly,
    isDestructive: bashIsDestructive,
    interruptBehavior: () => 'cancel',
    async validateInput(input, ctx) {
      // The pipeline asks isReadOnly after validation; the analyser must be loaded by then.
      await loadBashAnalyzer();
      // Paths in the command are judged from the session's cwd and roots (spill files included),
      // which isReadOnly(input) alone cannot see.
      const { cwd, roots, dir, readDenied, contained } = ctx.session;
      analyses.set(input, {
        analysis: analyzeBash(input.command, { cwd, roots: [...roots, dir], readDenied, contained: contained && input.sandbox !== false }),
        cwd,
      });
      return { ok: true };
    },
    checkPermissions: async (input, ctx) => {
      // `"sandbox": false` is the permission engine's to decide (it asks in every mode unless a rule names the command).
      const analysis = bashAnalysisOf(input);
      const risk = await gitConfigRisk(analysis.commands, ctx.session.cwd, analysis.gitDirs, ctx.session.roots);
      return risk ? { behavior: 'ask', message: risk } : { behavior: 'passthrough' };
    },
    ruleParts: (input) => bashAnalysisOf(input).commands.map((part: string) => ({ ...input, command: part })),
    permissionMatcher: (input) => (content) => matchBashRule(content, input.command),
    // For replays only: the existing files and folders the line names (not the working folder itself).
    mentionedPaths: (input, { cwd }) =>
      pathLikeWords(input.command)
        .map((word) => path.resolve(cwd, word))
        .filter((file) => file !== path.resolve(cwd) && fs.existsSync(file)),
    maxResultChars: BASH_MAX_RESULT_CHARS,
    async call(input, ctx) {
      if (!fs.existsSync(ctx.session.cwd)) {
        throw new ToolError(`The working directory ${ctx.session.cwd} no longer exists; start the command with cd to a folder that does.`);
      }
      const argv = shellArgv(input.command);
      const wrapped = options.wrap ? await options.wrap(argv, ctx, input) : { file: argv[0], args: argv.slice(1), sandboxed: false };
      const concise = ctx.responseFormat === 'concise';
      const budget = concise ? BASH_CONCISE_BYTES : BASH_MAX_RESULT_CHARS - NOTES_ROOM;
      // Concise output keeps more of the end, where results and errors are.
      const headBytes = Math.floor(budget * (concise ? CONCISE_HEAD_SHARE : HEAD_SHARE));
      const capture = new OutputCapture({
        headBytes,
        tailBytes: budget - headBytes,
        spillPath: () => spillPath(ctx.session, input.run_in_background ? 'bash-job' : 'bash', 'log'),
      });
      const shell = { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat' };
      const env = 'env' in wrapped && wrapped.env ? wrapped.env(shell) : shell;
      const explain = (result: RunResult) =>
        wrapped.sandboxed ? options.explainFailure?.(`${result.head}\n${result.tail}`, result.exitCode ?? -1, wrapped.profile) : undefined;
      const notes = async (result: RunResult) =>
        [await wrapped.afterRun?.(), explain(result)].filter((note) => note !== undefined).join(' ') || undefined;
      if (input.run_in_background && options.jobs) {
        const jobId = options.jobs.start({
          command: input.command,
          file: wrapped.file,
          args: wrapped.args,
          cwd: ctx.session.cwd,
          env,
          timeoutMs: input.timeout,
          graceMs: options.graceMs,
          extraPipe: wrapped.bridge,
          inherit: wrapped.inherit,
          capture,
          afterEnd: notes,
        });
        return { command: input.command, jobId };
      }
      const progress = progressReporter(ctx);
      const timeoutMs = input.timeout ?? BASH_DEFAULT_TIMEOUT_MS;
      let undone: string | undefined;
      const result = await runProcess({
        file: wrapped.file,
        args: wrapped.args,
        cwd: ctx.session.cwd,
        env,
        timeoutMs,
        signal: ctx.signal,
        capture,
        onOutput: progress.onOutput,
        graceMs: options.graceMs,
        extraPipe: wrapped.bridge,
        inherit: wrapped.inherit,
      }).finally(async () => {
        progress.stop();
        // Also when the run failed: the stand-ins held for it must not outlive it.
        undone = await wrapped.afterRun?.();
      });
      const cwdNote = updateCwd(ctx, result.sideChannel);
      const headLines = result.omittedBytes > 0 ? result.head.split('\n').length - 1 : 0;
      const sandboxNote = [undone, explain(result)].filter((note) => note !== undefined).join(' ') || undefined;
      return { ...result, command: input.command, timeoutMs, sandboxed: wrapped.sandboxed, headLines, cwdNote, sandboxNote };
    },
    toModel(output) {
      const { text, isError } = formatBashResult(output);
      return { content: [{ type: 'text', text }], isError };
    },
    toDisplay: (output) => formatBashResult(output).text,
  });
}
