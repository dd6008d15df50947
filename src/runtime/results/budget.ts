// Result budgets: past a tool's maxResultChars the model gets the head and the tail with a
// marker naming the spill file, its size and how to read more. Images pass through.
import type { ContentBlock, SessionState, ToolResultContent } from '../tool/types.js';
import { spillText } from './spill.js';

/** Share of the budget given to the head; errors and summaries sit at the end, so keep a tail. */
const HEAD_SHARE = 0.6;
const MARKER_ROOM = 400;

export interface HeadTail {
  head: string;
  tail: string;
  omittedChars: number;
  /** 1-based line number where the omitted part starts (for a Read offset). */
  omittedFromLine: number;
}

export function splitHeadTail(text: string, maxChars: number): HeadTail | undefined {
  if (text.length <= maxChars) return undefined;
  const headChars = Math.floor(maxChars * HEAD_SHARE);
  const tailChars = maxChars - headChars;
  // Cut at line boundaries when one is near, so the model never sees half a line.
  let headEnd = text.lastIndexOf('\n', headChars);
  if (headEnd < headChars * 0.8) headEnd = headChars;
  else headEnd += 1;
  let tailStart = text.indexOf('\n', text.length - tailChars);
  if (tailStart < 0 || tailStart > text.length - tailChars * 0.8) tailStart = text.length - tailChars;
  else tailStart += 1;
  return {
    head: text.slice(0, headEnd),
    tail: text.slice(tailStart),
    omittedChars: tailStart - headEnd,
    omittedFromLine: countLines(text, headEnd) + 1,
  };
}

function countLines(text: string, end: number): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

export function truncationMarker(cut: HeadTail, totalChars: number, file: string): string {
  return (
    `\n\n[… ${cut.omittedChars.toLocaleString('en-US')} of ${totalChars.toLocaleString('en-US')} characters omitted. ` +
    `The full output is saved in ${file}. Read more with Read {"file_path": ${JSON.stringify(file)}, "offset": ${cut.omittedFromLine}, "limit": 2000}, ` +
    `or search it with Grep {"pattern": "...", "path": ${JSON.stringify(file)}}.]\n\n`
  );
}

/** What a cut kept and where the whole text went. */
export interface SpillReport {
  file: string;
  totalChars: number;
  keptChars: number;
}

/**
 * Keeps a result within maxChars of text. Several text blocks are budgeted together: if they
 * exceed it, their joined text is spilled and replaced by one head+tail block (`onSpill` hears of it).
 */
export async function applyBudget(
  result: ToolResultContent,
  maxChars: number,
  session: SessionState,
  label: string,
  onSpill?: (spill: SpillReport) => void,
): Promise<ToolResultContent> {
  const texts = result.content.filter((block): block is Extract<ContentBlock, { type: 'text' }> => block.type === 'text');
  const total = texts.reduce((sum, block) => sum + block.text.length, 0);
  if (total <= maxChars) return result;
  const joined = texts.length === 1 ? texts[0].text : texts.map((block) => block.text).join('\n');
  const file = await spillText(session, joined, label);
  // The marker's own length (its numbers at their longest) comes out of the budget, so the whole block fits.
  const widest = { head: '', tail: '', omittedChars: joined.length, omittedFromLine: countLines(joined, joined.length) + 1 };
  const room = Math.max(MARKER_ROOM, truncationMarker(widest, joined.length, file).length);
  const cut = splitHeadTail(joined, Math.max(maxChars - room, Math.floor(maxChars / 2))) as HeadTail;
  const text = cut.head + truncationMarker(cut, joined.length, file) + cut.tail;
  onSpill?.({ file, totalChars: joined.length, keptChars: text.length });
  const images = result.content.filter((block) => block.type !== 'text');
  return { ...result, content: [{ type: 'text', text }, ...images] };
}
