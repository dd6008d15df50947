// The analyser's verdict for each part of a shell call, for rule coverage (see compound.ts). A part
// counts as read-only only when it is read-only both where it stands in the line (so the line's
// redirects, here-documents and nesting count) and as a line of its own (what auto-allows it as
// its own call), both judged from the session's folder and roots like the Bash tool's analysis.
import type { AnyTool, SessionState } from '../tool/types.js';
import { analyzeBash } from './bash/index.js';

export interface PartVerdict {
  readOnly: boolean;
  inShell: boolean;
  /** Why the part is not read-only. */
  reason?: string;
}

const SHELL_TOOL = 'Bash';
const UNKNOWN: PartVerdict = { readOnly: false, inShell: true };

export const isShellTool = (tool: AnyTool): boolean => tool.name === SHELL_TOOL || tool.aliases.includes(SHELL_TOOL);

/** One verdict per part; a tool other than the shell, or parts the analysis does not recognise, get none that is read-only. */
export function partVerdicts(tool: AnyTool, input: Record<string, unknown>, parts: readonly Record<string, unknown>[], session: SessionState): PartVerdict[] {
  const unknown = () => parts.map(() => UNKNOWN);
  if (!isShellTool(tool) || typeof input.command !== 'string') return unknown();
  const scope = { cwd: session.cwd, roots: [...session.roots, session.dir] };
  const analysis = analyzeBash(input.command, scope);
  // The tool's parts come from its own analysis of the same line; a mismatch means the input changed.
  if (analysis.parts.length !== parts.length || analysis.parts.some((p, i) => p.command !== parts[i].command)) return unknown();
  return analysis.parts.map((part) => {
    if (!part.readOnly) return { readOnly: false, inShell: part.inShell, reason: part.reason };
    const alone = analyzeBash(part.command, scope);
    return alone.readOnly ? { readOnly: true, inShell: part.inShell } : { readOnly: false, inShell: part.inShell, reason: alone.reason };
  });
}
