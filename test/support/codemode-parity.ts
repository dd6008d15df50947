// Safety-corpus rows made twice through the coding agent's policy: as direct calls and as inner
// calls of RunCode programs. The tools keep their real schemas, path guard and permission checks;
// only their effect is replaced by a recorder, so unsafe rows are decided without running them.
// Shared by the parity test (a sample) and the codemode-parity bench (every row).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBashAnalyzer } from '../../src/coding/bash/index.js';
import { createPolicy } from '../../src/coding/permissions/engine.js';
import { emptySettings } from '../../src/coding/settings/load.js';
import { bashTool } from '../../src/coding/tools/bash.js';
import { readTool } from '../../src/coding/tools/read.js';
import { writeTool } from '../../src/coding/tools/write.js';
import { createRunCodeTool } from '../../src/runtime/codemode/tool.js';
import { runToolCall } from '../../src/runtime/pipeline/run.js';
import { createRuntime } from '../../src/runtime/pipeline/runtime.js';
import type { AskPermission, RuntimeContext } from '../../src/runtime/pipeline/types.js';
import { ToolRegistry } from '../../src/runtime/registry/registry.js';
import { createSession } from '../../src/runtime/tool/session.js';
import type { AnyTool } from '../../src/runtime/tool/types.js';

export interface CorpusCall {
  tool: 'Bash' | 'Read' | 'Write';
  input: Record<string, unknown>;
}

export interface CallOutcome {
  ran: boolean;
  asked: boolean;
  ok: boolean;
  text: string;
}

export interface Difference {
  call: CorpusCall;
  direct: CallOutcome;
  inner: CallOutcome;
}

/** Rows of the bash-safety corpora as Bash calls. */
export const bashCalls = (rows: readonly { command: string }[]): CorpusCall[] =>
  rows.map((row) => ({ tool: 'Bash', input: { command: row.command } }));

/** Rows of the path-guard corpora as a Read and a Write each (Windows-only rows left out). */
export const pathCalls = (rows: readonly { path: string; platform?: string }[]): CorpusCall[] =>
  rows
    .filter((row) => row.platform !== 'win32')
    .flatMap((row): CorpusCall[] => [
      { tool: 'Read', input: { file_path: row.path } },
      { tool: 'Write', input: { file_path: row.path, content: 'x\n' } },
    ]);

// Small enough that a chunk's printed lines stay whole within RunCode's result budget.
const CHUNK = 20;

/** A call's identity across the ways it is made (validation may add defaults to the input). */
function keyOf(tool: string, input: unknown): string {
  const fields = input as { command?: string; file_path?: string };
  return `${tool} ${fields.command ?? fields.file_path}`;
}

/** A scratch workspace (with a secret file) and an empty home; the analyser reads paths from the process's folder. */
export async function parityWorkspace(): Promise<{ workspace: string; home: string; dispose: () => void }> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-codemode-parity-')));
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  mkdirSync(home);
  writeFileSync(path.join(workspace, 'README.md'), '# demo\n');
  writeFileSync(path.join(workspace, '.env'), 'TOKEN=canary\n');
  const prevCwd = process.cwd();
  process.chdir(workspace);
  await loadBashAnalyzer();
  return {
    workspace,
    home,
    dispose: () => {
      process.chdir(prevCwd);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function world(where: { workspace: string; home: string }, contained: boolean) {
  const ran = new Set<string>();
  const asked = new Set<string>();
  const tools = [bashTool(), readTool(), writeTool()].map(
    (tool): AnyTool => ({
      ...(tool as AnyTool),
      call: async (input: unknown) => {
        ran.add(keyOf(tool.name, input));
        return 'recorded';
      },
    }),
  );
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  registry.register(createRunCodeTool({ tools: () => tools, limits: { cpuMs: 60_000 } }) as AnyTool);
  const ask: AskPermission = async ({ tool, input }) => {
    asked.add(keyOf(tool.name, input));
    return { behavior: 'deny', message: 'the person said no' };
  };
  const { workspace, home } = where;
  const policy = createPolicy({
    settings: emptySettings(),
    mode: 'default',
    cwd: workspace,
    roots: [workspace],
    home,
    sandbox: { available: contained, autoAllowBash: false },
  });
  const session = createSession({ cwd: workspace, dir: path.join(path.dirname(workspace), 'session'), contained });
  const rt: RuntimeContext = createRuntime({ registry, session, policy, askPermission: ask });
  const outcome = (call: CorpusCall, ok: boolean, text: string): CallOutcome => {
    const key = keyOf(call.tool, call.input);
    return { ran: ran.has(key), asked: asked.has(key), ok, text };
  };
  return { rt, outcome };
}

const textOf = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((block) => block.text ?? '').join('');

async function direct(where: { workspace: string; home: string }, calls: CorpusCall[], contained: boolean): Promise<CallOutcome[]> {
  const w = world(where, contained);
  const out: CallOutcome[] = [];
  for (const call of calls) {
    const result = await runToolCall({ id: 'd', name: call.tool, input: call.input }, w.rt);
    out.push(w.outcome(call, !result.isError, textOf(result)));
  }
  return out;
}

/** A program per chunk of calls (one interpreter start each), printing one line per call. */
async function inner(where: { workspace: string; home: string }, calls: CorpusCall[], contained: boolean): Promise<CallOutcome[]> {
  const w = world(where, contained);
  const out: CallOutcome[] = [];
  for (let start = 0; start < calls.length; start += CHUNK) {
    const chunk = calls.slice(start, start + CHUNK);
    const code = `
      for (const call of ${JSON.stringify(chunk)}) {
        try { console.log(JSON.stringify([true, await tools[call.tool](call.input)])); }
        catch (error) { console.log(JSON.stringify([false, error.message])); }
      }`;
    const result = await runToolCall({ id: 'p', name: 'RunCode', input: { code } }, w.rt);
    const lines = textOf(result).split('\n');
    chunk.forEach((call, i) => {
      const [ok, text] = JSON.parse(lines[i] ?? 'null') as [boolean, string];
      out.push(w.outcome(call, ok, text));
    });
  }
  return out;
}

/** Every call made both ways; the calls whose outcomes differ, and how many ran directly. */
export async function compareBothWays(
  where: { workspace: string; home: string },
  calls: CorpusCall[],
  contained: boolean,
): Promise<{ differences: Difference[]; ran: number }> {
  const [made, fromPrograms] = await Promise.all([direct(where, calls, contained), inner(where, calls, contained)]);
  const differences = calls.flatMap((call, i) => {
    const [a, b] = [made[i] as CallOutcome, fromPrograms[i] as CallOutcome];
    return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ call, direct: a, inner: b }];
  });
  return { differences, ran: made.filter((o) => o.ran).length };
}
