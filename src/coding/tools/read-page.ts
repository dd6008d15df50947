// Reads one page of a text file in a single streaming pass: hashes the whole file (for the
// session's file state), counts its lines, and keeps only the requested lines, clipped, so a
// 100 MB file costs one buffer of memory, not 100 MB.
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

export interface PageOptions {
  /** 1-based first line. */
  offset: number;
  limit: number;
  /** Characters of numbered output after which the page ends early. */
  maxChars: number;
  /** Longer lines are clipped with a marker. */
  maxLineChars: number;
}

export interface Page {
  /** Formatted `cat -n` lines. */
  text: string;
  firstLine: number;
  /** Last line included (firstLine - 1 when none). */
  lastLine: number;
  totalLines: number;
  hash: string;
  clippedLines: number;
  /** The page ended at the character budget before `limit` lines. */
  stoppedAtBudget: boolean;
}

const CHUNK = 1 << 20;

/** `cat -n` style: right-aligned number, a tab, the line. */
export function numberLine(n: number, line: string): string {
  return `${String(n).padStart(6, ' ')}\t${line}`;
}

/**
 * Clips a line to `max` characters (UTF-16 units, never splitting a surrogate pair). `length` is
 * the whole line's length when `line` holds only its start (a long line is streamed, not kept).
 */
export function clipLine(line: string, max: number, length = line.length): { line: string; clipped: boolean } {
  if (length <= max) return { line, clipped: false };
  const end = /[\uD800-\uDBFF]/.test(line.charAt(max - 1)) ? max - 1 : max;
  return { line: `${line.slice(0, end)}… [line clipped: ${(length - end).toLocaleString('en-US')} more characters]`, clipped: true };
}

export async function readPage(handle: FileHandle, options: PageOptions): Promise<Page> {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK);
  const last = options.offset + options.limit - 1;
  // Bytes kept per line: enough for maxLineChars characters even of 4-byte UTF-8.
  const maxLineBytes = options.maxLineChars * 4;
  const out: string[] = [];
  let outChars = 0;
  let lineNo = 1;
  let current: Buffer[] = [];
  let currentBytes = 0;
  // A line longer than the kept prefix: its full length in characters, decoded as it streams by.
  // Only such lines pay for a decoder; for the others the kept text is the whole line.
  let overflow: StringDecoder | undefined;
  let overflowChars = 0;
  let lastChar = '';
  let endLine = options.offset - 1;
  let clippedLines = 0;
  let stoppedAtBudget = false;
  let sawBytesOnLastLine = false;

  const keep = (n: number) => n >= options.offset && n <= last && !stoppedAtBudget;
  const countOverflow = (decoded: string) => {
    overflowChars += decoded.length;
    if (decoded) lastChar = decoded.charAt(decoded.length - 1);
  };
  const finishLine = () => {
    if (keep(lineNo)) {
      let text = Buffer.concat(current, currentBytes).toString('utf8');
      let length: number;
      if (overflow) {
        countOverflow(overflow.end());
        length = overflowChars - (lastChar === '\r' ? 1 : 0);
      } else {
        text = text.replace(/\r$/, '');
        length = text.length;
      }
      if (lineNo === 1 && text.startsWith('\uFEFF')) {
        text = text.slice(1); // a BOM is not content
        length--;
      }
      const clip = clipLine(text, options.maxLineChars, length);
      if (clip.clipped) clippedLines++;
      const formatted = numberLine(lineNo, clip.line);
      if (outChars + formatted.length + 1 > options.maxChars && out.length > 0) stoppedAtBudget = true;
      else {
        out.push(formatted);
        outChars += formatted.length + 1;
        endLine = lineNo;
      }
    }
    current = [];
    currentBytes = 0;
    overflow = undefined;
    overflowChars = 0;
    lastChar = '';
  };

  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    hash.update(chunk);
    let start = 0;
    while (start < bytesRead) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? bytesRead : nl;
      if (keep(lineNo)) {
        const take = Math.max(0, Math.min(end - start, maxLineBytes - currentBytes));
        if (take > 0) {
          // Copy: the read buffer is reused for the next chunk.
          current.push(Buffer.from(chunk.subarray(start, start + take)));
          currentBytes += take;
        }
        if (start + take < end) {
          // Past the kept prefix: count characters from the line's start (the prefix may end
          // inside a character), then only what streams by.
          if (!overflow) {
            overflow = new StringDecoder('utf8');
            countOverflow(overflow.write(Buffer.concat(current, currentBytes)));
          }
          countOverflow(overflow.write(chunk.subarray(start + take, end)));
        }
      }
      sawBytesOnLastLine = end > start || nl !== -1;
      if (nl === -1) break;
      finishLine();
      lineNo++;
      sawBytesOnLastLine = false;
      start = nl + 1;
    }
  }
  // A final line without a newline still counts; a trailing newline does not start a new line.
  if (sawBytesOnLastLine) finishLine();
  const totalLines = sawBytesOnLastLine ? lineNo : lineNo - 1;
  return {
    text: out.join('\n'),
    firstLine: options.offset,
    lastLine: endLine,
    totalLines,
    hash: hash.digest('hex'),
    clippedLines,
    stoppedAtBudget,
  };
}
