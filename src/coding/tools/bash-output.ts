// Bounded capture of a command's output: everything stays in memory while it is small; past the
// inline limit the stream goes to a spill file and memory keeps only a head and a tail. The spill
// file is capped too (a runaway print must not fill the disk): it keeps the first
// SPILL_HEAD_BYTES and the last SPILL_TAIL_BYTES, with a line saying how much was dropped between.
import fs from 'node:fs';
import type { Readable } from 'node:stream';

/** What the spill file keeps of a long output: its start and its end (64 MiB in all). */
export const SPILL_HEAD_BYTES = 60 * 2 ** 20;
export const SPILL_TAIL_BYTES = 4 * 2 ** 20;

export interface CaptureOptions {
  headBytes: number;
  tailBytes: number;
  /** Creates the spill file path when output first outgrows head + tail. */
  spillPath: () => string;
  /** The spill file's head and tail (defaults SPILL_HEAD_BYTES, SPILL_TAIL_BYTES). */
  spillHeadBytes?: number;
  spillTailBytes?: number;
}

export interface Captured {
  /** The whole output when it fit; else head + tail with omittedBytes between. */
  head: string;
  tail: string;
  omittedBytes: number;
  totalBytes: number;
  spillFile?: string;
  spillError?: string;
  /** Bytes left out of the middle of the spill file (it was capped). */
  spillDroppedBytes?: number;
}

export class OutputCapture {
  private small: Buffer[] = [];
  private head: Buffer | undefined;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private total = 0;
  private spill: fs.WriteStream | undefined;
  private spillFile: string | undefined;
  private spillError: string | undefined;
  private spillWritten = 0;
  /** Past the spill file's head: the latest bytes, written after the dropped-bytes line at the end. */
  private spillTail: Buffer[] = [];
  private spillTailSize = 0;
  private readonly sources = new Set<Readable>();

  constructor(private readonly options: CaptureOptions) {}

  /** Feeds a stream in; pauses it while the spill file catches up, so memory stays bounded. */
  attach(stream: Readable): void {
    this.sources.add(stream);
    stream.on('data', (chunk: Buffer) => this.push(chunk));
  }

  get totalBytes(): number {
    return this.total;
  }

  /** The spill file while output is still coming (a background job's, for BashOutput to name). */
  get spillFileSoFar(): string | undefined {
    return this.spillError ? undefined : this.spillFile;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (!this.head) {
      this.small.push(chunk);
      if (this.total <= this.options.headBytes + this.options.tailBytes) return;
      const all = Buffer.concat(this.small);
      this.small = [];
      this.head = Buffer.from(all.subarray(0, this.options.headBytes));
      this.openSpill(all);
      this.addTail(all.subarray(this.options.headBytes));
      return;
    }
    this.write(chunk);
    this.addTail(chunk);
  }

  private openSpill(first: Buffer): void {
    try {
      this.spillFile = this.options.spillPath();
      this.spill = fs.createWriteStream(this.spillFile, { mode: 0o600 });
      this.spill.on('error', (error) => {
        this.spillError = error.message;
        this.spill = undefined;
        this.resumeAll();
      });
      this.spill.on('drain', () => this.resumeAll());
      this.write(first);
    } catch (error) {
      this.spillError = (error as Error).message;
    }
  }

  private write(chunk: Buffer): void {
    if (!this.spill) return;
    const room = (this.options.spillHeadBytes ?? SPILL_HEAD_BYTES) - this.spillWritten;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.spillWritten += part.length;
      if (!this.spill.write(part)) for (const source of this.sources) source.pause();
      chunk = chunk.subarray(part.length);
      if (chunk.length === 0) return;
    }
    this.spillTail.push(chunk);
    this.spillTailSize += chunk.length;
    const keep = this.options.spillTailBytes ?? SPILL_TAIL_BYTES;
    while (this.spillTail.length > 1 && this.spillTailSize - this.spillTail[0].length >= keep) {
      this.spillTailSize -= this.spillTail[0].length;
      this.spillTail.shift();
    }
  }

  /** Writes the kept end of a capped spill file, after a line saying what was dropped. */
  private endSpill(spill: fs.WriteStream): { dropped: number; done: Promise<void> } {
    const all = Buffer.concat(this.spillTail);
    const tail = all.subarray(Math.max(0, all.length - (this.options.spillTailBytes ?? SPILL_TAIL_BYTES)));
    const dropped = this.total - this.spillWritten - tail.length;
    if (dropped > 0)
      spill.write(`\n[… ${dropped.toLocaleString('en-US')} bytes dropped here: the saved output keeps its start and its end …]\n`);
    return { dropped, done: new Promise<void>((resolve) => spill.end(tail, () => resolve())) };
  }

  private resumeAll(): void {
    for (const source of this.sources) source.resume();
  }

  private addTail(chunk: Buffer): void {
    // Pipe chunks are fresh buffers, never reused by the stream, so keeping them needs no copy.
    this.tail.push(chunk);
    this.tailSize += chunk.length;
    while (this.tail.length > 1 && this.tailSize - this.tail[0].length >= this.options.tailBytes) {
      this.tailSize -= this.tail[0].length;
      this.tail.shift();
    }
  }

  /** Ends the spill file and returns what was captured. */
  async finish(): Promise<Captured> {
    if (!this.head) {
      return { head: Buffer.concat(this.small).toString('utf8'), tail: '', omittedBytes: 0, totalBytes: this.total };
    }
    const ended = this.spill ? this.endSpill(this.spill) : undefined;
    await ended?.done;
    const tailAll = Buffer.concat(this.tail);
    const tail = tailAll.subarray(Math.max(0, tailAll.length - this.options.tailBytes));
    return {
      head: this.head.toString('utf8'),
      tail: tail.toString('utf8'),
      omittedBytes: this.total - this.head.length - tail.length,
      totalBytes: this.total,
      spillFile: this.spillError ? undefined : this.spillFile,
      spillError: this.spillError,
      ...(ended !== undefined && ended.dropped > 0 ? { spillDroppedBytes: ended.dropped } : {}),
    };
  }
}
