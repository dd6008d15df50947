// Pure decisions of Edit: line-ending/BOM handling, the replacement itself, and finding the
// region the model probably meant when its old_string does not match exactly.
import { numberLine } from './read-page.js';
import { similarity } from './similar.js';

export interface TextFormat {
  bom: boolean;
  /** crlf only when every line break is \r\n; mixed files are edited byte for byte. */
  eol: 'crlf' | 'lf';
}

const BOM = '\uFEFF';

export function decodeText(raw: string): { text: string; format: TextFormat } {
  const bom = raw.startsWith(BOM);
  const body = bom ? raw.slice(1) : raw;
  const breaks = body.split('\n').length - 1;
  const crlf = breaks > 0 && body.split('\r\n').length - 1 === breaks;
  return { text: crlf ? body.replace(/\r\n/g, '\n') : body, format: { bom, eol: crlf ? 'crlf' : 'lf' } };
}

export function encodeText(text: string, format: TextFormat): string {
  const body = format.eol === 'crlf' ? text.replace(/\n/g, '\r\n') : text;
  return format.bom ? BOM + body : body;
}

/** The model's strings, in the file's normalized form (it may send \r\n or \n either way). */
export function normalizeArg(value: string, format: TextFormat): string {
  return format.eol === 'crlf' ? value.replace(/\r\n/g, '\n') : value;
}

export type EditResult =
  | { ok: true; text: string; count: number }
  | { ok: false; kind: 'not_found' }
  | { ok: false; kind: 'ambiguous'; lines: number[] };

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Exact replacement; index-based so `$&`-style patterns in new_string stay literal. */
export function applyEdit(text: string, oldString: string, newString: string, replaceAll: boolean): EditResult {
  const positions: number[] = [];
  for (let i = text.indexOf(oldString); i !== -1; i = text.indexOf(oldString, i + oldString.length)) positions.push(i);
  if (positions.length === 0) return { ok: false, kind: 'not_found' };
  if (positions.length > 1 && !replaceAll) return { ok: false, kind: 'ambiguous', lines: positions.map((i) => lineOf(text, i)) };
  return { ok: true, text: text.split(oldString).join(newString), count: positions.length };
}

/** Folds the differences models most often get wrong: curly quotes and whitespace runs. */
export function looseForm(value: string): string {
  return value
    .replace(/[\u2018\u2019\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201F\u2033]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface Region {
  startLine: number;
  endLine: number;
  /** The region with line numbers, as Read shows it. */
  snippet: string;
  /** True when only whitespace or quote characters differ. */
  looseMatch: boolean;
  score: number;
}

const MAX_CANDIDATES = 20;
const MAX_SNIPPET_LINES = 30;

/** The region of `text` most like `oldString`, or undefined when nothing is close. */
export function closestRegion(text: string, oldString: string): Region | undefined {
  const lines = text.split('\n');
  const wanted = oldString.split('\n');
  const span = Math.min(wanted.length, lines.length);
  const wantedLoose = wanted.map(looseForm);
  // Candidate windows: where some line of old_string matches a file line loosely.
  const votes = new Map<number, number>();
  lines.forEach((line, k) => {
    const loose = looseForm(line);
    if (!loose) return;
    wantedLoose.forEach((w, j) => {
      if (w && (w === loose || (w.length > 8 && loose.includes(w)))) {
        const start = Math.max(0, Math.min(k - j, lines.length - span));
        votes.set(start, (votes.get(start) ?? 0) + 1);
      }
    });
  });
  let starts = [...votes.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_CANDIDATES)
    .map(([start]) => start);
  if (starts.length === 0) {
    // No line matches even loosely: fall back to the lines most like the longest wanted line.
    const probe = wanted.reduce((a, b) => (b.trim().length > a.trim().length ? b : a)).trim();
    const probeIndex = wanted.findIndex((line) => line.trim() === probe);
    starts = lines
      .map((line, k) => ({ k, score: line.length <= probe.length * 3 ? similarity(probe, line.trim()) : 0 }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 5)
      .map(({ k }) => Math.max(0, Math.min(k - probeIndex, lines.length - span)));
  }
  let best: Region | undefined;
  for (const start of starts) {
    const window = lines.slice(start, start + span).join('\n');
    const looseMatch = looseForm(window).includes(looseForm(oldString)) && looseForm(oldString) !== '';
    const score = looseMatch ? 1 : similarity(oldString, window);
    if (!best || score > best.score) {
      const shown = lines.slice(start, Math.min(start + span, start + MAX_SNIPPET_LINES));
      best = {
        startLine: start + 1,
        endLine: start + span,
        snippet: shown.map((line, i) => numberLine(start + 1 + i, line)).join('\n'),
        looseMatch,
        score,
      };
    }
  }
  return best && best.score >= 0.5 ? best : undefined;
}

export function notFoundMessage(display: string, region: Region | undefined): string {
  const base = `old_string was not found in ${display}; it must match the file exactly, including whitespace and indentation.`;
  if (!region) return `${base} No similar region was found; Read the file to see its current content.`;
  const why = region.looseMatch
    ? 'It differs from old_string only in whitespace or quote characters'
    : `It is the closest match (${Math.round(region.score * 100)}% similar)`;
  return `${base} ${why}: lines ${region.startLine}-${region.endLine} read:\n${region.snippet}\nCopy the text exactly as shown (without the line-number prefix and tab) into old_string and retry.`;
}
