// The analyser's verdict for each part of a shell call, for rule coverage (see compound.ts). A part
// counts as read-only only when it is read-only both where it stands in the line (so the line's
// redirects, here-documents and nesting count) and as a line of its own (what auto-allows it as
// its own call), both judged from the session's folder and roots like the Bash tool's analysis.
// Also the other forms of the line's commands that deny and ask rules are matched against.
import type { AnyTool, SessionState } from '../../runtime/tool/types.js';
import { analyzeBash } from '../bash/index.js';

export interface PartVerdict {
  readOnly: boolean;
  inShell: boolean;
  /** Why the part is not read-only. */
  reason?: string;
  /** It is not read-only because it names a credentials file or a secret variable. */
  secret?: boolean;
}

const SHELL_TOOL = 'Bash';
const UNKNOWN: PartVerdict = { readOnly: false, inShell: true };

export const isShellTool = (tool: AnyTool): boolean => tool.name === SHELL_TOOL || tool.aliases.includes(SHELL_TOOL);

const scopeOf = (session: SessionState) => ({
  cwd: session.cwd,
  roots: [...session.roots, session.dir],
  readDenied: session.readDenied,
  contained: session.contained === true,
});

/** One verdict per part; a tool other than the shell, or parts the analysis does not recognise, get none that is read-only. */
export function partVerdicts(
  tool: AnyTool,
  input: Record<string, unknown>,
  parts: readonly Record<string, unknown>[],
  session: SessionState,
): PartVerdict[] {
  const unknown = () => parts.map(() => UNKNOWN);
  if (!isShellTool(tool) || typeof input.command !== 'string') return unknown();
  const scope = scopeOf(session);
  const analysis = analyzeBash(input.command, scope);
  // The tool's parts come from its own analysis of the same line; a mismatch means the input changed.
  if (analysis.parts.length !== parts.length || analysis.parts.some((p, i) => p.command !== parts[i].command)) return unknown();
  return analysis.parts.map((part) => {
    const secret = part.secret === true;
    if (!part.readOnly) return { readOnly: false, inShell: part.inShell, reason: part.reason, secret };
    const alone = analyzeBash(part.command, scope);
    return alone.readOnly
      ? { readOnly: true, inShell: part.inShell }
      : { readOnly: false, inShell: part.inShell, reason: alone.reason, secret: alone.parts.some((p) => p.secret) };
  });
}

export interface TighteningForms {
  /** Texts deny and ask rules are matched against besides the parts: base names, unwrapped commands, scripts. */
  forms: string[];
  /** A part whose commands could not be read, so no deny or ask rule can be checked against it, and why. */
  opaque?: { command: string; why: string };
}

/** Deny and ask rules only: widening what they match can only make a decision stricter. */
export function tighteningForms(tool: AnyTool, input: Record<string, unknown>, session: SessionState): TighteningForms {
  if (!isShellTool(tool) || typeof input.command !== 'string') return { forms: [] };
  const analysis = analyzeBash(input.command, scopeOf(session));
  const opaque = analysis.parts.find((p) => p.opaque);
  return {
    forms: [...new Set(analysis.parts.flatMap((p) => p.forms ?? []))],
    ...(opaque?.opaque ? { opaque: { command: opaque.command, why: opaque.opaque } } : {}),
  };
}
