// How a stage reports: a value that either carries on or ends the call with an error result.
import type { ErrorKind } from '../tool/types.js';
import { errorContent, type ErrorContent } from '../results/errors.js';

export type StageFailure = { ok: false; error: ErrorContent };
export type StageResult<T> = { ok: true; value: T; notes?: string[] } | StageFailure;

export function fail(kind: ErrorKind, message: string): StageFailure {
  return { ok: false, error: errorContent(kind, message) };
}

/** A short, safe preview of a value for error messages. */
export function preview(value: unknown, max = 60): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
