// What /rewind shows and offers, as pure functions of the plan: the prompts to pick from, the
// preview of what restoring changes, and the answers at each step.
import type { FileRestore, RecordedPrompt, RewindPlan } from '../runtime/agent/rewind.js';
import type { Choice } from './screen.js';
import { clip } from './summary.js';

/** Prompts the picker lists (the arrows reach them all; number keys the first nine). */
const PICKER_SIZE = 20;

export const CANCEL = 'cancel';

/** A typed answer as the choice it names: its number, or its own answer word; anything else as typed. */
export function answerOf(choices: readonly Choice[], typed: string): string {
  const text = typed.trim();
  const numbered = /^\d+$/.test(text) ? choices[Number(text) - 1] : undefined;
  return numbered?.answer ?? text;
}

/** The prompts the picker lists: the most recent first. */
export function shownPrompts(prompts: readonly RecordedPrompt[]): RecordedPrompt[] {
  return [...prompts].reverse().slice(0, PICKER_SIZE);
}

/** The listed prompts, each answered by its number (as typed or keyed); Esc cancels. */
export function promptChoices(shown: readonly RecordedPrompt[]): Choice[] {
  return [
    ...shown.map((prompt, i) => ({ answer: String(i + 1), label: `before “${clip(prompt.text, 70)}”` })),
    { answer: CANCEL, label: 'Cancel (Esc)', escape: true },
  ];
}

/** The prompt an answer names, or undefined (cancel, or a number not in the list). */
export function pickedPrompt(shown: readonly RecordedPrompt[], answer: string): RecordedPrompt | undefined {
  const text = answer.trim();
  return /^\d+$/.test(text) ? shown[Number(text) - 1] : undefined;
}

function counts(file: FileRestore): string {
  if (file.added === undefined || file.removed === undefined) return 'not text';
  return `+${file.added} -${file.removed}`;
}

/** The preview: each file to restore or delete with its line counts, outside edits flagged, and what stays. */
export function previewText(plan: RewindPlan): string {
  const lines = [`Rewind to before “${clip(plan.prompt.text, 70)}”:`];
  if (plan.files.length === 0) lines.push('  no file to restore: none wield changed since then differs from how it was');
  for (const file of plan.files) {
    const action = file.content === undefined ? 'delete ' : 'restore';
    const outside = file.changedOutside ? ' — changed since wield last wrote it (outside wield or by a command)' : '';
    lines.push(`  ${action} ${file.path} (${counts(file)})${outside}`);
  }
  if (plan.cannot.length > 0) {
    lines.push('Cannot restore:');
    for (const entry of plan.cannot) lines.push(`  - ${entry}`);
  }
  return lines.join('\n');
}

export type RewindScope = 'both' | 'code' | 'conversation';

/** What to rewind: code and conversation, either alone, or nothing (Esc). */
export function scopeChoices(plan: RewindPlan): Choice[] {
  const code = plan.files.length > 0;
  return [
    ...(code ? [{ answer: 'both', label: 'Restore the files and the conversation' }] : []),
    ...(code ? [{ answer: 'code', label: 'Restore the files only' }] : []),
    { answer: 'conversation', label: 'Restore the conversation only (the files stay as they are)' },
    { answer: CANCEL, label: 'Cancel (Esc) — nothing changes', escape: true },
  ];
}

/** Asked when files changed outside wield since: overwrite them, keep them, or stop. */
export function outsideChoices(): Choice[] {
  return [
    { answer: 'overwrite', label: 'Overwrite them too (their later changes are lost)' },
    { answer: 'keep', label: 'Keep them as they are; restore the others' },
    { answer: CANCEL, label: 'Cancel (Esc) — nothing changes', escape: true },
  ];
}

/** The line once done: what was restored and deleted, what failed, and the conversation. */
export function doneText(restored: number, deleted: number, failed: readonly string[], conversation: boolean): string {
  const parts: string[] = [];
  if (restored + deleted > 0 || failed.length > 0)
    parts.push(`restored ${restored} ${restored === 1 ? 'file' : 'files'}, deleted ${deleted}`);
  if (conversation) parts.push('the conversation continues from before that prompt (its text is back in the editor)');
  if (parts.length === 0) return 'rewind: no file left to restore; nothing changed';
  const head = `rewound: ${parts.join('; ')}`;
  return failed.length === 0 ? head : `${head}\n${failed.map((entry) => `  error: ${entry}`).join('\n')}`;
}
