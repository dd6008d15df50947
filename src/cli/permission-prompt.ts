// The permission prompt: what a person sees (tool, input — the command, or a diff for file
// writes — and the reason) and how their answer is read. Pure; the terminal is in interactive.ts.
import { colorDiff, fileDiff, patchDiff } from './diff-view.js';
import type { PermissionDecision } from '../runtime/pipeline/types.js';
import { callSummary, shortPath } from './summary.js';
import { plainText } from './terminal-text.js';

export type PermissionReply =
  | { kind: 'yes' }
  | { kind: 'no'; message?: string }
  /** Always for this session. */
  | { kind: 'session' }
  /** Always, saved to the project's settings. */
  | { kind: 'project' }
  | { kind: 'invalid' };

/**
 * `y` / `n [message]` / `a` (always, this session) / `A` (always, saved). Case matters only
 * for a/A; words like "yes" and "no" work too.
 */
export function parsePermissionReply(line: string): PermissionReply {
  const text = line.trim();
  if (text === 'a') return { kind: 'session' };
  if (text === 'A') return { kind: 'project' };
  const match = /^(y|yes|n|no)\b[\s:,-]*(.*)$/is.exec(text);
  if (!match) return { kind: 'invalid' };
  if (match[1].toLowerCase().startsWith('y')) return { kind: 'yes' };
  const message = match[2].trim();
  return message ? { kind: 'no', message } : { kind: 'no' };
}

export interface PromptView {
  toolName: string;
  input: Record<string, unknown>;
  decision: PermissionDecision;
  /** Current content of the file an Edit or Write changes (read by the caller), for the diff. */
  currentContent?: string;
  /** Reads a file an apply_patch call changes (relative paths from the working folder), for its diffs. */
  readFile?: (file: string) => string | undefined;
  /** Colour the diff (a terminal that takes colour). */
  color?: boolean;
  /** The workspace: paths in it are shown relative to it. */
  cwd?: string;
}

/** The diff or command a person needs to judge the call. */
export function describeInput(view: PromptView): string {
  const { toolName, input } = view;
  const file = typeof input.file_path === 'string' ? input.file_path : undefined;
  const diffable =
    (toolName === 'Edit' && typeof input.old_string === 'string' && typeof input.new_string === 'string') ||
    (toolName === 'Write' && typeof input.content === 'string');
  if (diffable && file) {
    return colorDiff(fileDiff(toolName, shortPath(file, view.cwd), input, view.currentContent), view.color === true).join('\n');
  }
  if (toolName === 'apply_patch' && typeof input.input === 'string') {
    const diff = patchDiff(input.input, view.readFile ?? (() => undefined));
    // Text that is not a patch is shown as sent: the tool will say what is wrong with it.
    return diff ? colorDiff(diff, view.color === true).join('\n') : indent(plainText(input.input.trimEnd()));
  }
  if (typeof input.command === 'string') return `  $ ${plainText(input.command)}`;
  return indent(JSON.stringify(input, null, 2));
}

function indent(text: string): string {
  return `  ${text.split('\n').join('\n  ')}`;
}

/** The rules an "always" answer adds: the policy's suggestions (never a blanket rule for a tool that takes content rules). */
export function alwaysRules(decision: PermissionDecision): string[] {
  return decision.suggestions ?? [];
}

export function renderPrompt(view: PromptView): string {
  const rules = alwaysRules(view.decision);
  const always = rules.length > 0 ? ` · a = always this session · A = always (saves ${rules.join(', ')})` : '';
  return [
    `? Allow ${callSummary(view.toolName, view.input, view.cwd)}`,
    describeInput(view),
    `  Reason: ${view.decision.reason}`,
    `  [y] yes · [n] no (optionally: n <message to the model>)${always}`,
  ].join('\n');
}
