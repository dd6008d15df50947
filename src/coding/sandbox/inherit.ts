// Opens the file a sandboxed command inherits (bwrap's seccomp filter) at its fd in a spawn's
// stdio list. The child gets its own copy at spawn, so the parent closes its descriptor right
// after: nothing stays open in wield per command.
import { closeSync, openSync } from 'node:fs';
import type { InheritedFile } from './argv.js';

export type StdioEntry = 'ignore' | 'pipe' | number;

/** `stdio` with `inherit` opened at its fd (the gap filled with 'ignore'); call `close` once spawned. */
export function stdioWith(stdio: readonly StdioEntry[], inherit: InheritedFile | undefined): { stdio: StdioEntry[]; close: () => void } {
  if (inherit === undefined) return { stdio: [...stdio], close: () => {} };
  const out = [...stdio];
  while (out.length <= inherit.fd) out.push('ignore');
  const fd = openSync(inherit.file, 'r');
  out[inherit.fd] = fd;
  return { stdio: out, close: () => closeSync(fd) };
}
