// The MCP SDK's stdio transport closes itself when one message outgrows its buffer (10 MiB), and
// the gateway exits with it. `wield mcp serve` reads stdin through this guard instead: a line past
// the limit is dropped as it streams in (never held whole) and answered with a JSON-RPC error,
// and the session stays up.
import { Transform, type TransformCallback } from 'node:stream';

/** The largest message the gateway accepts over stdio. */
export const STDIO_MAX_MESSAGE_BYTES = 10 * 2 ** 20;
/** The SDK's buffer must hold one whole accepted line plus the chunk that completes the next. */
export const STDIO_TRANSPORT_BUFFER_BYTES = 2 * STDIO_MAX_MESSAGE_BYTES;

/** Bytes of a line's start and end kept to find its id. */
const EDGE_BYTES = 256;

const ID_VALUE = String.raw`(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,200}")`;
/** First member (after `"jsonrpc"`): the top level's, nothing nested opens before it. */
const LEADING_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);
/** Last member, closed by the line's one final brace (a nested object's last member is followed by two). */
const TRAILING_ID = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/**
 * The request id of a message from its first and last bytes, where SDKs write it (first, or
 * last as the MCP SDK does); anywhere else it may belong to the params. null when unknown.
 */
export function messageId(head: string, tail: string): number | string | null {
  const match = LEADING_ID.exec(head) ?? TRAILING_ID.exec(tail);
  if (!match) return null;
  return match[1].startsWith('"') ? (JSON.parse(match[1]) as string) : Number(match[1]);
}

export function tooLargeError(id: number | string | null, bytes: number, limit: number): string {
  const message = `message refused: larger than ${limit.toLocaleString('en-US')} bytes (${bytes.toLocaleString('en-US')} bytes); send less at once`;
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`;
}

/**
 * Passes lines of at most `limit` bytes through; of a longer one, nothing, and `refuse` is called
 * once with the error to send back (after the line ends, so its size is known).
 */
export class StdioLineGuard extends Transform {
  private lineBytes = 0;
  private pending: Buffer[] = [];
  private head = '';
  private tail = '';
  private dropping = false;

  constructor(
    private readonly refuse: (error: string) => void,
    private readonly limit = STDIO_MAX_MESSAGE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.takePart(chunk.subarray(start, end), newline !== -1);
      start = end;
    }
    done();
  }

  private takePart(part: Buffer, endsLine: boolean): void {
    if (this.head.length < EDGE_BYTES) this.head += part.subarray(0, EDGE_BYTES).toString('utf8');
    this.tail = (this.tail + part.subarray(-EDGE_BYTES).toString('utf8')).slice(-EDGE_BYTES);
    this.lineBytes += part.length;
    if (!this.dropping && this.lineBytes > this.limit) {
      this.dropping = true;
      this.pending = [];
    }
    if (!this.dropping) this.pending.push(part);
    if (!endsLine) {
      // Whole lines only go on; an accepted line's parts wait here (at most `limit` bytes).
      return;
    }
    if (this.dropping) this.refuse(tooLargeError(messageId(this.head, this.tail.trimEnd()), this.lineBytes, this.limit));
    else this.push(Buffer.concat(this.pending));
    this.pending = [];
    this.lineBytes = 0;
    this.head = '';
    this.tail = '';
    this.dropping = false;
  }

  override _flush(done: TransformCallback): void {
    if (this.pending.length > 0) this.push(Buffer.concat(this.pending));
    done();
  }
}
