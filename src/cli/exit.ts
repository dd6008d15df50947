// Output and exit that never lose buffered output: process.exit() right after a large write to
// a pipe would cut it off, so writes are awaited first.
import { SetupError } from './setup-error.js';

export function writeOut(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
}

/** Exit code for a failure: 2 for setup problems (what to set is in the message), else 1. */
export function reportFailure(error: unknown): number {
  if (error instanceof SetupError) {
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`wield: ${message}\n`);
  if (process.env.WIELD_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return 1;
}

export async function exitWith(code: number): Promise<never> {
  await writeOut('');
  process.exit(code);
}
