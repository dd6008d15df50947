// Similarity scores for "did you mean" hints (file names, edit regions), built on jsdiff.
import { diffChars } from 'diff';

/** 0..1: twice the characters two strings share in order, over their total length. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length + b.length === 0) return 1;
  let common = 0;
  for (const part of diffChars(a, b)) if (!part.added && !part.removed) common += part.value.length;
  return (2 * common) / (a.length + b.length);
}

/** The candidates most like `name` (case-insensitive), best first, above a floor. */
export function similarNames(name: string, candidates: readonly string[], max = 3, floor = 0.5): string[] {
  const lower = name.toLowerCase();
  return candidates
    .map((candidate) => ({ candidate, score: similarity(lower, candidate.toLowerCase()) }))
    .filter((entry) => entry.score >= floor)
    .sort((a, b) => b.score - a.score || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map((entry) => entry.candidate);
}
