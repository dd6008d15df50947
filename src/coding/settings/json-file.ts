// Reading settings-like JSON files with located errors, and updating them atomically.
import { mkdir, readFile, rename, writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseJsonWithPositions, type JsonPath, type Position } from '../../runtime/util/json-positions.js';
import { isRecord } from '../../runtime/util/record.js';
import { withFileLock } from './file-lock.js';

export interface LocatedError {
  file: string;
  line: number;
  column: number;
  /** Dotted key path like `permissions.allow[2]`, when the error is about a key. */
  key?: string;
  message: string;
}

export function formatKey(p: JsonPath): string {
  return p.map((s, n) => (typeof s === 'number' ? `[${s}]` : n === 0 ? s : `.${s}`)).join('');
}

export function formatLocatedError(e: LocatedError): string {
  return `${e.file}:${e.line}:${e.column}: ${e.key ? `${e.key}: ` : ''}${e.message}`;
}

export type JsonFileRead =
  | { kind: 'missing' }
  | { kind: 'error'; error: LocatedError }
  | { kind: 'ok'; value: unknown; locate: (p: JsonPath) => Position };

/** Reads and parses a JSON file; a blank file counts as `{}`. */
export async function readJsonFile(file: string): Promise<JsonFileRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'error', error: { file, line: 1, column: 1, message: `cannot read: ${(e as Error).message}` } };
  }
  if (text.trim() === '') return { kind: 'ok', value: {}, locate: () => ({ line: 1, column: 1 }) };
  const parsed = parseJsonWithPositions(text);
  if (!parsed.ok) {
    return { kind: 'error', error: { file, ...parsed.position, message: `invalid JSON: ${parsed.message}` } };
  }
  return { kind: 'ok', value: parsed.value, locate: parsed.locate };
}

/**
 * Rewrites a JSON object file through `update`, keeping its other keys. Under the file's lock
 * (file-lock.ts), the file is read afresh and `update` applied to what it holds now, so several
 * wield processes writing at once keep every change. The new text goes to a temporary file in
 * the same folder first and is renamed over the old one, so a crash never leaves half a settings
 * file. A malformed existing file is an error, never overwritten.
 */
export async function updateJsonFile(file: string, update: (data: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await withFileLock(file, async () => {
    const read = await readJsonFile(file);
    if (read.kind === 'error') throw new Error(formatLocatedError(read.error));
    const current = read.kind === 'ok' ? read.value : {};
    if (!isRecord(current)) throw new Error(`${file}: expected a JSON object at the top level`);
    const next = update(current);
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, `${JSON.stringify(next, null, 2)}\n`, 'utf8');
      await rename(tmp, file);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  });
}
