// Tool calls and their results for people: the call on one line (paths relative to the
// workspace), the result as a short summary or the first lines of its output, and the whole
// output kept for a key that expands it. Pure.
import path from 'node:path';
import type { ErrorKind, ToolCallResult } from '../runtime/tool/types.js';
import { textBlocks } from '../runtime/agent/history.js';
import { plainText } from './terminal-text.js';

const MAX_LINE = 100;
/** Output lines shown under a call, as Claude Code shows them; the rest is counted. */
export const PREVIEW_LINES = 4;
/** A preview line longer than this is cut (the expanded output has it whole). */
const PREVIEW_WIDTH = 160;
/** Tools whose result is a file change: its diff is shown elsewhere, the summary line is enough. */
const FILE_CHANGES: ReadonlySet<string> = new Set(['Write', 'Edit']);

/** The argument that says most about a call, per the built-in tools' parameter names. */
const KEY_PARAMS = ['command', 'file_path', 'pattern', 'url', 'query', 'path', 'code'];
const PATH_PARAMS: ReadonlySet<string> = new Set(['file_path', 'path']);

export function clip(text: string, max = MAX_LINE): string {
  const line = plainText(text).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A path inside the workspace relative to it (`src/app.py`); any other path as given. */
export function shortPath(file: string, cwd: string | undefined): string {
  if (cwd === undefined || !path.isAbsolute(file)) return file;
  const relative = path.relative(cwd, file);
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

/** Text a tool wrote about the workspace's files, with their paths made relative. */
function shortPaths(text: string, cwd: string | undefined): string {
  return cwd === undefined ? text : text.split(`${cwd}${path.sep}`).join('');
}

/** `Bash(ls -la)`, `Read(src/app.py)`, `AskUserQuestion(Which database?)`, or compact JSON for other tools. */
export function callSummary(name: string, input: unknown, cwd?: string): string {
  const room = MAX_LINE - name.length - 2;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return `${name}(${clip(String(input), room)})`;
  const record = input as Record<string, unknown>;
  const key = KEY_PARAMS.find((k) => typeof record[k] === 'string');
  if (key) {
    const value = String(record[key]);
    return `${name}(${clip(PATH_PARAMS.has(key) ? shortPath(value, cwd) : value, room)})`;
  }
  const questions = Array.isArray(record.questions) ? record.questions : undefined;
  const first = questions?.[0] as { question?: unknown } | undefined;
  if (typeof first?.question === 'string') {
    const more = questions && questions.length > 1 ? ` (+${questions.length - 1} more)` : '';
    return `${name}(${clip(first.question, room - more.length)}${more})`;
  }
  return `${name}(${clip(JSON.stringify(input), room)})`;
}

/** Kinds a summary names after "error": a person tells a refusal from a crash at a glance. */
const NAMED_KINDS: ReadonlySet<ErrorKind> = new Set(['hook_blocked', 'denied', 'interrupted', 'cut_off', 'result_lost']);

/** Lines that frame a shell result rather than being its output: `(no output)`, `[exit code 0]`. */
const FRAME_LINE = /^(\(no output\)|\[exit code 0\])$/;
/** Read's `cat -n` gutter. */
const NUMBERED = /^ *\d+\t/;

export interface ResultView {
  /** What goes under the call: the first after `⎿`, the others indented under it. */
  lines: string[];
  /** The whole output, for the key that expands it; empty when `lines` already show all of it. */
  full: string[];
}

/** The text a result shows a person: the tool's display text, else what the model got. */
function resultText(result: ToolCallResult): string {
  return result.display ?? textBlocks(result.content);
}

/** The output's lines without a shell's framing lines and trailing blank lines. */
function outputLines(text: string): string[] {
  const output = plainText(text)
    .split('\n')
    .filter((line) => !FRAME_LINE.test(line.trim()));
  while (output.length > 0 && output.at(-1)?.trim() === '') output.pop();
  return output;
}

function previewLine(line: string): string {
  const trimmed = line.trimEnd();
  return trimmed.length > PREVIEW_WIDTH ? `${trimmed.slice(0, PREVIEW_WIDTH - 1)}…` : trimmed;
}

/** The first lines of `output` after `head` (if any), with `… +N lines` when more were held back. */
function preview(head: string[], output: string[], expandKey: string): ResultView {
  const room = Math.max(1, PREVIEW_LINES - head.length);
  const fits = output.length <= room;
  const shown = (fits ? output : output.slice(0, room - 1)).map(previewLine);
  const hidden = output.length - shown.length;
  const lines = [...head, ...shown];
  if (hidden > 0) lines.push(`… +${hidden} line${hidden === 1 ? '' : 's'} (${expandKey} to expand)`);
  const clipped = shown.some((line, i) => line !== output[i].trimEnd());
  return { lines, full: hidden > 0 || clipped ? output : [] };
}

/** One line for a file tool's result: Read's line count, Write's and Edit's own first line. */
function fileSummary(toolName: string, result: ToolCallResult, cwd: string | undefined): string | undefined {
  const text = textBlocks(result.content);
  if (toolName === 'Read') {
    if (result.content.some((block) => block.type === 'image')) return 'Read an image';
    const lines = text.split('\n');
    const numbered = lines.filter((line) => NUMBERED.test(line)).length;
    const of = /Showing lines \d+-\d+ of (\d+)/.exec(text);
    return `Read ${numbered} line${numbered === 1 ? '' : 's'}${of ? ` of ${of[1]}` : ''}`;
  }
  if (FILE_CHANGES.has(toolName)) return clip(shortPaths(text.split('\n')[0], cwd)).replace(/:$/, '');
  return undefined;
}

/**
 * A result for the transcript: `Read 12 lines`, the first lines of a command's output then
 * `… +N lines`, `no output`, or `error: …` with what followed it. `waitedMs` is the time the call
 * spent waiting for the person's approval, left out of the duration shown: it is not the tool's.
 */
export function resultView(
  toolName: string,
  result: ToolCallResult,
  options: { waitedMs?: number; cwd?: string; expandKey?: string } = {},
): ResultView {
  const ran = Math.max(0, result.durationMs - (options.waitedMs ?? 0));
  const seconds = ran >= 1000 ? ` · ${(ran / 1000).toFixed(1)}s` : '';
  const expandKey = options.expandKey ?? 'Ctrl-O';
  const output = outputLines(resultText(result));
  const view = ((): ResultView => {
    if (result.isError) {
      const label = result.errorKind && NAMED_KINDS.has(result.errorKind) ? `error (${result.errorKind})` : 'error';
      const first = output.findIndex((line) => line.trim() !== '');
      const head = `${label}: ${clip(first < 0 ? 'failed' : output[first])}`;
      return preview([head], first < 0 ? [] : output.slice(first + 1), expandKey);
    }
    const file = fileSummary(toolName, result, options.cwd);
    if (file !== undefined) return { lines: [file], full: [] };
    if (toolName === 'AskUserQuestion') return { lines: output.filter((line) => line.startsWith('"')), full: [] };
    const images = result.content.filter((block) => block.type === 'image').length;
    const pictures = images > 0 ? [`${images} image${images === 1 ? '' : 's'}`] : [];
    if (output.length === 0) return { lines: pictures.length > 0 ? pictures : ['no output'], full: [] };
    const shown = preview([], output, expandKey);
    return { lines: [...shown.lines, ...pictures], full: shown.full };
  })();
  const lines = [...view.lines];
  lines[lines.length - 1] = `${lines.at(-1) ?? ''}${seconds}`;
  return { lines, full: view.full };
}
