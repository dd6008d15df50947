// Diffs of file edits for people: computed on the whole file, so hunk headers carry the file's
// true line numbers (an Edit's old_string alone would always say `@@ -1,1 +1,1 @@`), and coloured
// when the terminal takes colour. Pure.
import { createTwoFilesPatch } from 'diff';
import { styleText } from 'node:util';
import { plainText } from './terminal-text.js';
import { applyChunks } from '../coding/tools/apply-patch-apply.js';
import { parsePatch } from '../coding/tools/apply-patch-parse.js';

/** The file as an Edit or Write would leave it; undefined when the call cannot be applied to `current`. */
export function editedContent(toolName: string, input: Record<string, unknown>, current: string | undefined): string | undefined {
  if (toolName === 'Write' && typeof input.content === 'string') return input.content;
  if (toolName !== 'Edit' || current === undefined) return undefined;
  const { old_string: before, new_string: after } = input;
  if (typeof before !== 'string' || typeof after !== 'string' || before === '' || !current.includes(before)) return undefined;
  if (input.replace_all === true) return current.split(before).join(after);
  const at = current.indexOf(before);
  return current.slice(0, at) + after + current.slice(at + before.length);
}

/**
 * The diff of one file as indented lines (the file named once, then hunks). For an Edit whose file
 * is unknown or does not hold old_string, the strings alone, headed by a `@@ … @@` without numbers.
 */
export function fileDiff(toolName: string, file: string, input: Record<string, unknown>, current: string | undefined): string[] {
  const after = editedContent(toolName, input, current);
  if (after !== undefined) return patchLines(file, toolName === 'Write' ? (current ?? '') : (current as string), after);
  const before = typeof input.old_string === 'string' ? input.old_string : '';
  const next = typeof input.new_string === 'string' ? input.new_string : '';
  const lines = patchLines(file, before, next, false);
  return lines.map((line) => (line.startsWith('  @@') ? '  @@ (line numbers unknown: the file does not hold this text now) @@' : line));
}

/**
 * The file named once, then its hunks: each line after its line number in the file (the new
 * number for kept and added lines, the old one for removed lines), as Claude Code shows them.
 * `numbered` false: the texts alone (their numbers in the file are unknown).
 */
function patchLines(file: string, before: string, after: string, numbered = true): string[] {
  const lines = createTwoFilesPatch(file, file, before, after, undefined, undefined, { context: 3 })
    .split('\n')
    .slice(4)
    .filter((line) => line !== '\\ No newline at end of file' && line !== '');
  let old = 0;
  let next = 0;
  const numbers = lines.map((line) => {
    if (line.startsWith('@@')) {
      ({ old, new: next } = hunkStart(line));
      return undefined;
    }
    if (line.startsWith('-')) return old++;
    if (line.startsWith('+')) return next++;
    old++;
    return next++;
  });
  const width = String(Math.max(0, ...numbers.map((n) => n ?? 0))).length;
  const shown = lines.map((line, i) => {
    const number = numbers[i];
    if (line.startsWith('@@')) return `  ${line}`;
    return numbered && number !== undefined ? `  ${String(number).padStart(width)} ${plainText(line)}` : `  ${plainText(line)}`;
  });
  // The header lines name the file twice; one line is enough for a person.
  return [`  ${plainText(file)}`, ...shown];
}

/** Where a hunk starts in the old and the new file (`@@ -4,5 +4,6 @@`). */
function hunkStart(header: string): { old: number; new: number } {
  const match = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(header);
  return { old: Number(match?.[1] ?? 0), new: Number(match?.[2] ?? 0) };
}

/**
 * apply_patch's change as one diff per file, on the whole file (true line numbers), as Edit's is.
 * A file the patch does not apply to now is named with its hunks as written; undefined when the
 * text is not a patch (the prompt then shows it as sent).
 */
export function patchDiff(patch: string, read: (file: string) => string | undefined): string[] | undefined {
  const parsed = parsePatch(patch);
  if (!parsed.ok) return undefined;
  return parsed.operations.flatMap((op) => {
    if (op.kind === 'add') return patchLines(op.path, '', op.contents);
    const current = read(op.path);
    if (op.kind === 'delete') return current === undefined ? [`  ${op.path}`, '  (deleted)'] : patchLines(op.path, current, '');
    const name = op.moveTo ? `${op.path} → ${op.moveTo}` : op.path;
    const applied = current === undefined ? undefined : applyChunks(current, op.chunks);
    if (current !== undefined && applied?.ok) return patchLines(name, current, applied.text);
    const written = op.chunks.flatMap((chunk) => [
      `  @@ ${chunk.context ?? ''}`.trimEnd(),
      ...chunk.oldLines.map((line) => `  -${line}`),
      ...chunk.newLines.map((line) => `  +${line}`),
    ]);
    return [`  ${name}`, '  (the patch does not apply to the file as it is now; its hunks as written)', ...written];
  });
}

/** At most `max` lines, with how many were left out. */
export function clipLines(lines: readonly string[], max: number): string[] {
  if (lines.length <= max) return [...lines];
  return [...lines.slice(0, max), `  … ${lines.length - max} more lines`];
}

/** Green additions, red removals, cyan hunk headers; unchanged without colour. */
export function colorDiff(lines: readonly string[], color: boolean): string[] {
  if (!color) return [...lines];
  return lines.map((line) => {
    // After the indent and the line number, if any.
    const body = line.slice(2).replace(/^ *\d+ /, '');
    if (body.startsWith('@@')) return styleText('cyan', line, { validateStream: false });
    if (body.startsWith('+')) return styleText('green', line, { validateStream: false });
    if (body.startsWith('-')) return styleText('red', line, { validateStream: false });
    return line;
  });
}
