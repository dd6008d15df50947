// One server's log: its stderr and wield's notes about it, appended to a file when there is a
// folder for it; the last stderr lines are kept in memory for error messages.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { telltaleStderrLine } from './call-errors.js';

const STDERR_TAIL_LINES = 20;

export class ServerLog {
  private readonly tail: string[] = [];
  private stream?: WriteStream;

  constructor(readonly file: string | undefined) {}

  stderr(text: string): void {
    this.open()?.write(text);
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      this.tail.push(line);
      if (this.tail.length > STDERR_TAIL_LINES) this.tail.shift();
    }
  }

  /** The telling stderr line, as a suffix for an error message ('' when there is none). */
  hint(): string {
    const line = telltaleStderrLine(this.tail);
    return line ? ` (its stderr said: ${line.trim().slice(0, 200)})` : '';
  }

  line(text: string): void {
    this.open()?.write(`[wield ${new Date().toISOString()}] ${text}\n`);
  }

  end(): void {
    this.stream?.end();
  }

  private open(): WriteStream | undefined {
    if (this.stream || !this.file) return this.stream;
    mkdirSync(path.dirname(this.file), { recursive: true });
    this.stream = createWriteStream(this.file, { flags: 'a' });
    return this.stream;
  }
}
