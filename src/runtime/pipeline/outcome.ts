// How a stage reports: a value that either carries on or ends the call with a result.
import type { ToolResultContent } from '../tool/types.js';

export type StageResult<T> = { ok: true; value: T; notes?: string[] } | { ok: false; error: ToolResultContent };

export function fail(message: string): { ok: false; error: ToolResultContent } {
  return { ok: false, error: errorContent(message) };
}

export function errorContent(message: string): ToolResultContent {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** A readable message for anything thrown, without stack traces. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
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
