// The RunCode tool (code mode): the model sends a JavaScript program; the program calls the pool's
// tools, filters and joins their results, and only what it prints comes back. The program itself
// can do nothing but call tools, and every call it makes is a call like any other (bridge.ts), so
// a program is exactly as safe as the calls it makes: RunCode itself needs no approval.
import { z } from 'zod';
import { defineTool } from '../tool/define.js';
import { type AnyTool, type Tool, ToolError } from '../tool/types.js';
import { createBridge, isProgramRuntime, type LedgerEntry } from './bridge.js';
import { runProgram } from './interpreter.js';
import { DEFAULT_LIMITS, INTERPRETER_BYTES, type ProgramLimits, type ProgramRun } from './types.js';
import { newInterpreter } from './quickjs.js';
import { ledgerText, reportRun } from './report.js';
import { signatureOf } from './signatures.js';

export const RUN_CODE_NAME = 'RunCode';
/** Tools written out in the description; past it, the rest are named by count (ToolSearch finds them). */
export const MAX_LISTED_TOOLS = 40;

const input = z.object({
  code: z
    .string()
    // Not trimmed: the line numbers in errors are the program's own.
    .refine(
      (code) => code.trim() !== '',
      'code must not be empty: send a JavaScript program, e.g. console.log(await tools.Read({file_path: "a.txt"}))',
    )
    .describe('JavaScript: the body of an async function; call tools with await tools.Name({...}); print results with console.log'),
});

export type RunCodeInput = z.infer<typeof input>;

export interface RunCodeOutput {
  run: ProgramRun;
  ledger: LedgerEntry[];
}

export interface RunCodeOptions {
  /** The tools to list in the description (RunCode itself is left out); any tool of the runtime can be called by name. */
  tools?: () => readonly AnyTool[];
  /**
   * Whether tools are deferred (left out of `tools`, found through ToolSearch): the description
   * then says so, without a count, so it stays byte-stable as servers add tools (prompt caching).
   */
  deferred?: () => boolean;
  /** Tighter or looser bounds than DEFAULT_LIMITS. */
  limits?: Partial<ProgramLimits>;
}

const INTRO =
  'Run a JavaScript program that calls tools; only what it prints comes back to you. Use it when a task takes many tool ' +
  "calls whose raw results you do not need to read: search many files and aggregate, join two tools' outputs, pull one " +
  'field out of a large result, a chain of lookups. For one or two calls, or results you must read whole, call the tools directly.\n\n' +
  'The program is the body of an async function (top-level await and return work). Each tool below is an async function ' +
  'taking its input object and resolving to its result text (JSON.parse it when a tool returns JSON). A failed or denied call ' +
  'rejects with an Error whose message is the reason (catch it to carry on); Promise.all runs calls together. Every call is ' +
  'checked exactly as a direct call (permissions, hooks; a person may be asked). console.log(...) is your output, followed by a ' +
  'list of the calls made. No file system, network, require/import or timers; CPU time and memory are limited.';

export function describeRunCode(tools: readonly AnyTool[], cwd: string, deferred = false): string {
  const callable = tools.filter((tool) => tool.name !== RUN_CODE_NAME);
  const listed = callable.slice(0, MAX_LISTED_TOOLS).map((tool) => signatureOf(tool, cwd));
  const more = callable.length - listed.length;
  const tail =
    more > 0
      ? `\n// …and ${more} more: find them with await tools.ToolSearch({query}); any tool can be called by name.`
      : deferred
        ? '\n// More tools are deferred: call ToolSearch yourself to load their definitions, then call them here by name.'
        : '';
  return listed.length === 0 ? INTRO : `${INTRO}\n\nTools:\n${listed.join('\n')}${tail}`;
}

export function createRunCodeTool(options: RunCodeOptions = {}): Tool<RunCodeInput, RunCodeOutput> {
  const limits: ProgramLimits = { ...DEFAULT_LIMITS, ...options.limits };
  return defineTool<RunCodeInput, RunCodeOutput>({
    name: RUN_CODE_NAME,
    source: 'builtin',
    searchHint: 'code mode program script javascript many tool calls filter aggregate join',
    description: (ctx) => describeRunCode(options.tools?.() ?? [], ctx.cwd, options.deferred?.() ?? false),
    // Never deferred: a program tool found only by searching would rarely be used.
    alwaysLoad: true,
    inputSchema: input,
    // The program does nothing by itself; each call it makes is decided on its own.
    checkPermissions: () => ({ behavior: 'allow' }),
    // Stopping a program stops its calls (they end interrupted) and the program with them.
    interruptBehavior: () => 'cancel',
    async call({ code }, ctx) {
      if (!ctx.runtime)
        throw new ToolError(
          "RunCode runs only on wield's call path (runBatch, runToolCall, runAgent, an adapter), which gives it the runtime its calls use.",
        );
      if (isProgramRuntime(ctx.runtime))
        throw new ToolError('RunCode cannot run inside a program: call the tools directly, with await tools.Name(input).');
      const bridge = createBridge(ctx.runtime, ctx.toolUseId, ctx.signal);
      const run = await runProgram(await newInterpreter(limits.memoryBytes + INTERPRETER_BYTES), code, bridge, limits);
      return { run, ledger: bridge.ledger };
    },
    toModel: (output) => reportRun(output.run, output.ledger, limits),
    toDisplay: (output) => ledgerText(output.ledger),
  });
}
