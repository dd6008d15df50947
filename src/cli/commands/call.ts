// `wield call TOOL 'JSON' [--json]`: one call through the whole pipeline (settings' policy,
// hooks, budgets); prints what the model would get. With no terminal, an `ask` is a deny.
import { readFile, realpath, stat } from 'node:fs/promises';
import readline from 'node:readline';
import { runToolCall } from '../../runtime/pipeline/run.js';
import { textBlocks } from '../../runtime/agent/history.js';
import { createCliRuntime } from '../runtime.js';
import type { CliFlags } from '../options.js';
import { writeOut } from '../exit.js';
import { createTerminalAsk, readlineAsk } from '../terminal-ask.js';
import type { AskPermission } from '../../runtime/pipeline/types.js';
import type { AnyTool, SessionState, TouchedPath } from '../../runtime/tool/types.js';
import { recordFile, sha256 } from '../../coding/tools/fs-util.js';

/**
 * Edit and Write refuse a file the session has not read, so the model never overwrites what it
 * has not seen. A person running one call has the file in front of them, and a `call` session
 * holds only this call: the files it would write count as read, as they are now.
 */
async function treatWrittenFilesAsRead(tool: AnyTool | undefined, json: string, session: SessionState): Promise<void> {
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch {
    return; // the pipeline reports bad JSON itself
  }
  let paths: TouchedPath[] = [];
  try {
    paths = tool?.touchedPaths?.(input as never, { cwd: session.cwd }) ?? [];
  } catch {
    return; // input of the wrong shape: validation reports it
  }
  for (const { path: file, access } of paths) {
    if (access !== 'write') continue;
    try {
      const real = await realpath(file);
      const stats = await stat(real);
      if (stats.isFile()) recordFile(session, real, stats, sha256(await readFile(real)));
    } catch {
      // A file that does not exist yet needs no read; others are for the tool to report.
    }
  }
}

export async function runCall(toolName: string, json: string, flags: CliFlags): Promise<number> {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const rl = interactive ? readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true }) : undefined;
  let ask: AskPermission | undefined;
  const runtime = await createCliRuntime({
    cwd: process.cwd(),
    flags,
    askPermission: rl ? (request, signal) => (ask ? ask(request, signal) : Promise.resolve({ behavior: 'deny' })) : undefined,
  });
  if (rl)
    ask = createTerminalAsk({
      ask: readlineAsk(rl),
      policy: runtime.policy,
      cwd: runtime.session.cwd,
      trusted: runtime.trusted,
      write: (text) => process.stdout.write(text),
    });
  const controller = new AbortController();
  const onSigint = (): void => controller.abort(new Error('interrupted by the user'));
  process.on('SIGINT', onSigint);
  rl?.on('SIGINT', onSigint);
  try {
    // MCP tools appear once their server answers; wait for the first attempts only when needed.
    if (!runtime.registry.get(toolName)) await runtime.mcpReady();
    await treatWrittenFilesAsRead(runtime.registry.get(toolName), json, runtime.session);
    const result = await runToolCall({ id: 'call_1', name: toolName, input: json }, runtime.rt, controller.signal);
    await writeOut(flags.json ? `${JSON.stringify(result, null, 2)}\n` : `${textBlocks(result.content)}\n`);
    return result.isError ? 1 : 0;
  } finally {
    process.off('SIGINT', onSigint);
    rl?.close();
    await runtime.close();
  }
}
