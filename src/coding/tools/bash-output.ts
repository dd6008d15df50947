// Bounded capture of a command's output: everything stays in memory while it is small; past the
// inline limit the full stream goes to a spill file and memory keeps only a head and a tail.
import fs from 'node:fs';
import type { Readable } from 'node:stream';

export interface CaptureOptions {
  headBytes: number;
  tailBytes: number;
  /** Creates the spill file path when output first outgrows head + tail. */
  spillPath: () => string;
}

export interface Captured {
  /** The whole output when it fit; else head + tail with omittedBytes between. */
  head: string;
  tail: string;
  omittedBytes: number;
  totalBytes: number;
  spillFile?: string;
  spillError?: string;
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
    if (this.spill && !this.spill.write(chunk)) for (const source of this.sources) source.pause();
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
    const spill = this.spill;
    if (spill) await new Promise<void>((resolve) => spill.end(resolve));
    const tailAll = Buffer.concat(this.tail);
    const tail = tailAll.subarray(Math.max(0, tailAll.length - this.options.tailBytes));
    return {
      head: this.head.toString('utf8'),
      tail: tail.toString('utf8'),
      omittedBytes: this.total - this.head.length - tail.length,
      totalBytes: this.total,
      spillFile: this.spillError ? undefined : this.spillFile,
      spillError: this.spillError,
    };
  }
}
