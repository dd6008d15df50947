// Output and exit that never lose buffered output: process.exit() right after a large write to
// a pipe would cut it off, so writes are awaited first.
import { SetupError } from './setup-error.js';
import { stopTraceExport } from './tracing.js';
import { messageOf } from '../runtime/util/message.js';
import { terminalText } from './terminal-text.js';

/** On a terminal the text is drawn safe (terminal-text.ts); piped, it goes out as it is. */
export function writeOut(text: string): Promise<void> {
  const shown = process.stdout.isTTY ? terminalText(text) : text;
  return new Promise((resolve, reject) => process.stdout.write(shown, (error) => (error ? reject(error) : resolve())));
}

/**
 * On a terminal, what wield writes to stderr is drawn safe as well (terminal-text.ts): its
 * messages quote servers, hooks and files (a failed MCP server's own stderr, say).
 */
export function guardTerminalStderr(stream: NodeJS.WriteStream = process.stderr): void {
  if (!stream.isTTY) return;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(typeof chunk === 'string' ? terminalText(chunk) : chunk, ...rest)) as typeof stream.write;
}

/** Exit code for a failure: 2 for setup problems (what to set is in the message), else 1. */
export function reportFailure(error: unknown): number {
  if (error instanceof SetupError) {
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  const message = messageOf(error);
  process.stderr.write(`wield: ${message}\n`);
  if (process.env.WIELD_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return 1;
}

export async function exitWith(code: number): Promise<never> {
  await stopTraceExport();
  await writeOut('');
  process.exit(code);
}

/**
 * A command's action: runs its body with commander's arguments and exits with the code it
 * returns; a failure becomes a message (exit 2 for setup problems), never a stack trace.
 */
export function commandAction<A extends unknown[]>(body: (...args: A) => Promise<number>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    let code: number;
    try {
      code = await body(...args);
    } catch (error) {
      code = reportFailure(error);
    }
    await exitWith(code);
  };
}
