// `wield call TOOL 'JSON' [--json]`: one call through the whole pipeline (settings' policy,
// hooks, budgets); prints what the model would get. With no terminal, an `ask` is a deny.
import readline from 'node:readline';
import { runToolCall } from '../../pipeline/run.js';
import { textBlocks } from '../../agent/history.js';
import { createCliRuntime } from '../runtime.js';
import type { CliFlags } from '../options.js';
import { writeOut } from '../exit.js';
import { createTerminalAsk } from '../terminal-ask.js';
import type { AskPermission } from '../../pipeline/types.js';

export async function runCall(toolName: string, json: string, flags: CliFlags): Promise<number> {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const rl = interactive ? readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true }) : undefined;
  let ask: AskPermission | undefined;
  const runtime = await createCliRuntime({
    cwd: process.cwd(),
    flags,
    askPermission: rl ? (request, signal) => (ask ? ask(request, signal) : Promise.resolve({ allow: false })) : undefined,
  });
  if (rl) ask = createTerminalAsk({ rl, policy: runtime.policy, cwd: runtime.session.cwd, write: (text) => process.stdout.write(text) });
  const controller = new AbortController();
  const onSigint = (): void => controller.abort(new Error('interrupted by the user'));
  process.on('SIGINT', onSigint);
  rl?.on('SIGINT', onSigint);
  try {
    // MCP tools appear once their server answers; wait for the first attempts only when needed.
    if (!runtime.registry.get(toolName)) await runtime.mcpReady();
    const result = await runToolCall({ id: 'call_1', name: toolName, input: json }, runtime.rt, controller.signal);
    await writeOut(flags.json ? `${JSON.stringify(result, null, 2)}\n` : `${textBlocks(result.content)}\n`);
    return result.isError ? 1 : 0;
  } finally {
    process.off('SIGINT', onSigint);
    rl?.close();
    await runtime.close();
  }
}
