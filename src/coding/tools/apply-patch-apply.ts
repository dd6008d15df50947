// Applying an Update's chunks to a file's text, as Codex does: each chunk's old lines are sought
// from where the previous chunk ended (exactly, then ignoring trailing, then surrounding
// whitespace, then quote and space differences); a failure names the hunk, the lines not found
// and the nearest region. Pure.
import type { PatchChunk } from './apply-patch-parse.js';
import { closestRegion, looseForm, type Region } from './edit-match.js';

export type HunkFailure = {
  hunk: number;
  hunks: number;
  /** The lines that were not found: a chunk's old lines, or its @@ context line. */
  missing: string[];
  kind: 'context' | 'lines';
  /** 1-based line the search started at. */
  from: number;
  nearest?: Region;
};

export type ChunkResult = { ok: true; text: string } | { ok: false; failure: HunkFailure };

const PASSES: Array<(line: string) => string> = [(l) => l, (l) => l.trimEnd(), (l) => l.trim(), looseForm];

/** Index of the first run of `lines` equal to `pattern` at or after `start` (from the end for `endOfFile`), or -1. */
export function seekLines(lines: readonly string[], pattern: readonly string[], start: number, endOfFile: boolean): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  for (const form of PASSES) {
    const wanted = pattern.map(form);
    const at = (k: number) => wanted.every((w, j) => form(lines[k + j]) === w);
    if (endOfFile && lines.length - pattern.length >= start && at(lines.length - pattern.length)) return lines.length - pattern.length;
    for (let k = start; k <= lines.length - pattern.length; k++) if (at(k)) return k;
  }
  return -1;
}

/** The text with every chunk applied (always ending in a newline, as Codex writes it), or the first chunk that does not apply. */
export function applyChunks(text: string, chunks: readonly PatchChunk[]): ChunkResult {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const replacements: Array<{ start: number; length: number; lines: string[] }> = [];
  let next = 0;
  for (const [index, chunk] of chunks.entries()) {
    const failure = (kind: HunkFailure['kind'], missing: string[]): ChunkResult => ({
      ok: false,
      failure: { hunk: index + 1, hunks: chunks.length, missing, kind, from: next + 1, nearest: closestRegion(text, missing.join('\n')) },
    });
    if (chunk.context !== undefined) {
      const found = seekLines(lines, [chunk.context], next, false);
      if (found < 0) return failure('context', [chunk.context]);
      next = found + 1;
    }
    if (chunk.oldLines.length === 0) {
      // Only additions: they go at the end of the file.
      replacements.push({ start: lines.length, length: 0, lines: chunk.newLines });
      continue;
    }
    let old = chunk.oldLines;
    let added = chunk.newLines;
    let found = seekLines(lines, old, next, chunk.endOfFile);
    if (found < 0 && old[old.length - 1] === '') {
      // A trailing blank context line often stands for the file's final newline.
      old = old.slice(0, -1);
      added = added[added.length - 1] === '' ? added.slice(0, -1) : added;
      found = seekLines(lines, old, next, chunk.endOfFile);
    }
    if (found < 0) return failure('lines', chunk.oldLines);
    replacements.push({ start: found, length: old.length, lines: added });
    next = found + old.length;
  }
  for (const r of [...replacements].sort((a, b) => b.start - a.start)) lines.splice(r.start, r.length, ...r.lines);
  return { ok: true, text: lines.length ? `${lines.join('\n')}\n` : '' };
}

export function hunkFailureMessage(path: string, failure: HunkFailure): string {
  const what =
    failure.kind === 'context'
      ? `its "@@ ${failure.missing[0]}" line matches no line of the file`
      : `these lines (the context and "-" lines) were not found in order`;
  const shown = failure.missing
    .slice(0, 12)
    .map((line) => `  |${line}`)
    .join('\n');
  const nearest = failure.nearest
    ? `The nearest match (${Math.round(failure.nearest.score * 100)}% similar) is lines ${failure.nearest.startLine}-${failure.nearest.endLine}:\n${failure.nearest.snippet}`
    : 'Nothing in the file is close to them.';
  return (
    `${path}, hunk ${failure.hunk} of ${failure.hunks}: ${what}, searching from line ${failure.from}:\n${shown}\n${nearest}\n` +
    'Read the file again and resend the patch with context lines copied exactly (a leading space, then the line).'
  );
}
