// One-line summaries of tool calls and their results, for people (never the raw output).
import type { ErrorKind, ToolCallResult } from '../runtime/tool/types.js';
import { textBlocks } from '../runtime/agent/history.js';
import { plainText } from './terminal-text.js';

const MAX_LINE = 100;

/** The argument that says most about a call, per the built-in tools' parameter names. */
const KEY_PARAMS = ['command', 'file_path', 'pattern', 'url', 'query', 'path', 'questions'];

export function clip(text: string, max = MAX_LINE): string {
  const line = plainText(text).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `Bash(ls -la)`, `Read(/x/y.ts)`, or the name with compact JSON for other tools. */
export function callSummary(name: string, input: unknown): string {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const record = input as Record<string, unknown>;
    const key = KEY_PARAMS.find((k) => typeof record[k] === 'string');
    if (key) return `${name}(${clip(String(record[key]), MAX_LINE - name.length - 2)})`;
    return `${name}(${clip(JSON.stringify(input), MAX_LINE - name.length - 2)})`;
  }
  return `${name}(${clip(String(input), MAX_LINE - name.length - 2)})`;
}

/** Kinds a summary names after "error": a person tells a refusal from a crash at a glance. */
const NAMED_KINDS: ReadonlySet<ErrorKind> = new Set(['hook_blocked', 'denied', 'interrupted', 'cut_off', 'result_lost']);

/** Lines that frame a shell result rather than being its output: `(no output)`, `[exit code 0]`. */
const FRAME_LINE = /^(\(no output\)|\[exit code 0\])$/;

/**
 * `3 lines · 1.5s`, the one line itself, `no output`, or `error: …`. `waitedMs` is the time the call
 * spent waiting for the person's approval, left out of the duration shown: it is not the tool's.
 */
export function resultSummary(result: ToolCallResult, waitedMs = 0): string {
  const ran = Math.max(0, result.durationMs - waitedMs);
  const seconds = ran >= 1000 ? ` · ${(ran / 1000).toFixed(1)}s` : '';
  const text = result.display ?? textBlocks(result.content);
  if (result.isError) {
    const label = result.errorKind && NAMED_KINDS.has(result.errorKind) ? `error (${result.errorKind})` : 'error';
    return `${label}: ${clip(text.split('\n').find((line) => line.trim() !== '') ?? 'failed')}${seconds}`;
  }
  const images = result.content.filter((block) => block.type === 'image').length;
  const output = text.split('\n').filter((line) => !FRAME_LINE.test(line.trim()));
  while (output.length > 0 && output.at(-1)?.trim() === '') output.pop();
  const parts =
    output.length === 0 ? (images > 0 ? [] : ['no output']) : [output.length === 1 ? clip(output[0], 60) : `${output.length} lines`];
  if (images > 0) parts.push(`${images} image${images === 1 ? '' : 's'}`);
  return `${parts.join(', ')}${seconds}`;
}
