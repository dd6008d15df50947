// The one output format of Grep, whichever engine (ripgrep or the JS fallback) found the
// matches: ripgrep's `--no-heading` layout, files in path order, capped with a notice.

export type OutputMode = 'content' | 'files_with_matches' | 'count';

export interface GrepLine {
  n: number;
  text: string;
  match: boolean;
}

export interface GrepFile {
  /** Absolute path. */
  file: string;
  /** Content mode: matching and context lines in order. */
  lines: GrepLine[];
  /** Count mode: matching lines. */
  count: number;
  mtimeMs?: number;
}

export interface FormatOptions {
  mode: OutputMode;
  lineNumbers: boolean;
  /** Context was asked for, so groups are separated by `--` as rg does. */
  context: boolean;
  headLimit: number;
  display: (file: string) => string;
  /** The engine stopped early (too many results); the totals are lower bounds. */
  truncatedAtCollection?: boolean;
}

export const MAX_LINE_CHARS = 1_000;

function clip(text: string): string {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [clipped]` : line;
}

function byPath(a: GrepFile, b: GrepFile): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}

function limitNotice(shown: number, total: number, unit: string, limit: number, lowerBound: boolean): string {
  return `\n[Showing ${shown} of ${lowerBound ? 'at least ' : ''}${total} ${unit} (head_limit ${limit}). Narrow the pattern, path or glob, or raise head_limit, to see more.]`;
}

export function formatGrep(files: GrepFile[], options: FormatOptions): string {
  const lower = options.truncatedAtCollection === true;
  if (files.length === 0) return 'No matches found.';
  if (options.mode === 'files_with_matches') {
    // Most recently modified first: the files being worked on are the likeliest targets.
    const sorted = [...files].sort((a, b) => (b.mtimeMs ?? 0) - (a.mtimeMs ?? 0) || byPath(a, b));
    const shown = sorted.slice(0, options.headLimit);
    const head = `Found ${files.length}${lower ? '+' : ''} file${files.length === 1 ? '' : 's'}\n`;
    const notice = sorted.length > shown.length ? limitNotice(shown.length, sorted.length, 'files', options.headLimit, lower) : '';
    return head + shown.map((f) => options.display(f.file)).join('\n') + notice;
  }
  const sorted = [...files].sort(byPath);
  if (options.mode === 'count') {
    const total = sorted.reduce((sum, f) => sum + f.count, 0);
    const shown = sorted.slice(0, options.headLimit);
    const notice = sorted.length > shown.length ? limitNotice(shown.length, sorted.length, 'files', options.headLimit, lower) : '';
    return (
      `${total}${lower ? '+' : ''} matching lines in ${files.length} files\n` +
      shown.map((f) => `${options.display(f.file)}:${f.count}`).join('\n') +
      notice
    );
  }
  const out: string[] = [];
  let shownLines = 0;
  let total = 0;
  for (const f of sorted) total += f.lines.length;
  outer: for (const f of sorted) {
    const name = options.display(f.file);
    let previous = -1;
    for (const line of f.lines) {
      if (shownLines >= options.headLimit) break outer;
      if (options.context && out.length > 0 && line.n !== previous + 1) out.push('--');
      const sep = line.match ? ':' : '-';
      out.push(options.lineNumbers ? `${name}${sep}${line.n}${sep}${clip(line.text)}` : `${name}${sep}${clip(line.text)}`);
      previous = line.n;
      shownLines++;
    }
  }
  const notice = total > shownLines ? limitNotice(shownLines, total, 'lines', options.headLimit, lower) : '';
  return out.join('\n') + notice;
}
