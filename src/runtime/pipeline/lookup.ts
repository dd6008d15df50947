// Stage 1: find the tool by name or alias; an unknown name gets "did you mean".
import type { AnyTool } from '../tool/types.js';
import type { RuntimeContext } from './types.js';
import { fail, type StageResult } from './outcome.js';

export async function lookupTool(name: unknown, rt: RuntimeContext, signal: AbortSignal): Promise<StageResult<AnyTool>> {
  if (typeof name !== 'string' || name.trim() === '') {
    return fail('unknown_tool', `Tool call has no tool name. Call one of: ${rt.toolNames().slice(0, 20).join(', ')}.`);
  }
  const exact = rt.resolveTool(name) ?? (await rt.waitForTool?.(name, signal));
  if (exact) return { ok: true, value: exact };
  // Models sometimes change the case of a name ("read" for "Read"); accept a unique match.
  const lower = name.toLowerCase();
  const sameCase = rt.toolNames().filter((candidate) => candidate.toLowerCase() === lower);
  if (sameCase.length === 1) {
    const tool = rt.resolveTool(sameCase[0]);
    if (tool) return { ok: true, value: tool, notes: [`tool name "${name}" taken as "${tool.name}"`] };
  }
  const missing = rt.explainMissing?.(name);
  if (missing) return fail('unknown_tool', missing);
  const close = closestNames(name, rt.toolNames(), 3);
  const hint = close.length > 0 ? ` Did you mean ${close.map((n) => `"${n}"`).join(' or ')}?` : '';
  return fail('unknown_tool', `No tool named "${name.slice(0, 100)}".${hint} Use one of the tools listed in your tool definitions.`);
}

/** Names ranked by edit distance (and substring containment), close ones only. */
export function closestNames(name: string, candidates: string[], limit: number): string[] {
  const target = name.toLowerCase().slice(0, 200);
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      const contains = lower.includes(target) || target.includes(lower);
      return { candidate, score: contains ? 0 : editDistance(target, lower) / Math.max(target.length, lower.length) };
    })
    .filter((entry) => entry.score <= 0.5)
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map((entry) => entry.candidate);
}

/** Levenshtein distance; names are short, so the O(n·m) table is cheap. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
