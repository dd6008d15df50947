// Grep's search request and the two engines that answer it: the ripgrep binary shipped in npm
// (@vscode/ripgrep), and a JS implementation with the same results for when rg cannot run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import picomatch from 'picomatch';
import { rgPath } from '@vscode/ripgrep';
import { ToolError } from '../tool/types.js';
import { looksBinary } from './file-kind.js';
import type { GrepFile, GrepLine, OutputMode } from './grep-format.js';
import { walk } from './walk.js';

export interface SearchRequest {
  pattern: string;
  /** Absolute file or folder to search. */
  target: string;
  isFile: boolean;
  glob?: string;
  type?: string;
  mode: OutputMode;
  ignoreCase: boolean;
  before: number;
  after: number;
  multiline: boolean;
  /** Stop collecting past this many lines/files (memory bound); the result says so. */
  maxCollect: number;
  signal: AbortSignal;
}

export interface SearchResult {
  files: GrepFile[];
  truncated: boolean;
}

/** Thrown when rg cannot be started at all, so the caller falls back to JS. */
export class RipgrepUnavailable extends Error {}

export function ripgrepArgs(req: SearchRequest): string[] {
  const args = ['--null', '--no-config', '--color=never', '--hidden', '--no-require-git', '--with-filename', '--glob', '!.git'];
  if (req.ignoreCase) args.push('-i');
  if (req.multiline) args.push('-U', '--multiline-dotall');
  if (req.type) args.push('--type', req.type);
  if (req.glob) args.push('--glob', req.glob);
  if (req.mode === 'files_with_matches') args.push('-l');
  else if (req.mode === 'count') args.push('--count');
  else {
    args.push('--line-number');
    if (req.before) args.push('-B', String(req.before));
    if (req.after) args.push('-A', String(req.after));
  }
  args.push('-e', req.pattern, '--', req.isFile ? path.basename(req.target) : '.');
  return args;
}

export async function searchWithRipgrep(req: SearchRequest, rg: string = rgPath): Promise<SearchResult> {
  const cwd = req.isFile ? path.dirname(req.target) : req.target;
  const child = spawn(rg, ripgrepArgs(req), { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal: req.signal });
  const started = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.name === 'AbortError' ? error : new RipgrepUnavailable(error.message)));
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString('utf8');
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await started;
  const byFile = new Map<string, GrepFile>();
  let collected = 0;
  let truncated = false;
  const record = (rel: string): GrepFile => {
    const file = path.resolve(cwd, rel);
    let entry = byFile.get(file);
    if (!entry) byFile.set(file, (entry = { file, lines: [], count: 0 }));
    return entry;
  };
  if (req.mode === 'files_with_matches') {
    let rest = '';
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const parts = (rest + chunk.toString('utf8')).split('\0');
      rest = parts.pop() ?? '';
      for (const rel of parts) if (rel) record(rel);
      if (byFile.size >= req.maxCollect) {
        truncated = true;
        child.kill();
        break;
      }
    }
  } else {
    for await (const line of readline.createInterface({ input: child.stdout, crlfDelay: Infinity })) {
      const nul = line.indexOf('\0');
      if (nul === -1) continue; // `--` group separators; formatting adds its own
      const entry = record(line.slice(0, nul));
      const rest = line.slice(nul + 1);
      if (req.mode === 'count') entry.count = Number(rest);
      else {
        const m = /^(\d+)([:-])/.exec(rest) as RegExpExecArray;
        entry.lines.push({ n: Number(m[1]), text: rest.slice(m[0].length), match: m[2] === ':' });
      }
      if (++collected >= req.maxCollect) {
        truncated = true;
        child.kill();
        break;
      }
    }
  }
  const code = await closed;
  if (code === 2 && !truncated && byFile.size === 0) throw new ToolError(`Grep failed: ${stderr.trim() || 'ripgrep exited with an error'}`);
  return { files: [...byFile.values()], truncated };
}

/** Globs of common ripgrep file types (a subset of ripgrep's default type definitions). */
export const FILE_TYPES: Record<string, string[]> = {
  c: ['*.c', '*.h'],
  cpp: ['*.cpp', '*.cc', '*.cxx', '*.hpp', '*.hh', '*.hxx', '*.h'],
  css: ['*.css', '*.scss'],
  go: ['*.go'],
  html: ['*.html', '*.htm'],
  java: ['*.java'],
  js: ['*.js', '*.mjs', '*.cjs', '*.jsx', '*.vue'],
  json: ['*.json'],
  md: ['*.md', '*.markdown'],
  py: ['*.py', '*.pyi'],
  rust: ['*.rs'],
  sh: ['*.sh', '*.bash', '*.zsh'],
  ts: ['*.ts', '*.tsx', '*.cts', '*.mts'],
  yaml: ['*.yaml', '*.yml'],
};

/** A positive --glob overrides ignore files in ripgrep ("always overrides any other ignore logic"). */
function globOverride(req: SearchRequest): ((rel: string) => boolean) | undefined {
  if (!req.glob || req.glob.startsWith('!')) return undefined;
  return picomatch(req.glob, { basename: true, dot: true });
}

function fileFilter(req: SearchRequest): (rel: string) => boolean {
  const tests: Array<(rel: string) => boolean> = [];
  if (req.type) {
    const globs = FILE_TYPES[req.type];
    if (!globs) throw new ToolError(`type ${JSON.stringify(req.type)} is not known to the built-in search; use one of ${Object.keys(FILE_TYPES).join(', ')}, or a glob.`);
    tests.push(picomatch(globs, { basename: true, dot: true }));
  }
  if (req.glob) {
    const negated = req.glob.startsWith('!');
    const matcher = picomatch(negated ? req.glob.slice(1) : req.glob, { basename: true, dot: true });
    tests.push(negated ? (rel) => !matcher(rel) : matcher);
  }
  return (rel) => tests.every((test) => test(rel));
}

function compile(req: SearchRequest): RegExp {
  try {
    return new RegExp(req.pattern, `g${req.ignoreCase ? 'i' : ''}${req.multiline ? 'ms' : ''}u`);
  } catch (error) {
    throw new ToolError(`pattern is not a valid regular expression: ${(error as Error).message}. Escape special characters (e.g. \\( or \\.) to match them literally.`);
  }
}

/** Line numbers (1-based) whose text a match covers. */
function matchingLines(text: string, starts: number[], regex: RegExp, multiline: boolean, lines: string[]): Set<number> {
  const hits = new Set<number>();
  if (!multiline) {
    lines.forEach((line, i) => {
      regex.lastIndex = 0;
      if (regex.test(line)) hits.add(i + 1);
    });
    return hits;
  }
  const lineAt = (index: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m; m = regex.exec(text)) {
    const first = lineAt(m.index);
    const last = lineAt(Math.max(m.index, m.index + m[0].length - 1));
    for (let n = first; n <= last; n++) hits.add(n);
    if (m[0].length === 0) regex.lastIndex++;
  }
  return hits;
}

function searchText(file: string, text: string, regex: RegExp, req: SearchRequest): GrepFile | undefined {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const starts: number[] = [];
  for (let i = 0, pos = 0; i < lines.length; pos += lines[i].length + 1, i++) starts.push(pos);
  const hits = matchingLines(text, starts, regex, req.multiline, lines);
  if (hits.size === 0) return undefined;
  const result: GrepFile = { file, lines: [], count: hits.size };
  if (req.mode !== 'content') return result;
  const shown = new Set<number>();
  for (const n of hits) for (let k = Math.max(1, n - req.before); k <= Math.min(lines.length, n + req.after); k++) shown.add(k);
  result.lines = [...shown].sort((a, b) => a - b).map((n): GrepLine => ({ n, text: lines[n - 1], match: hits.has(n) }));
  return result;
}

export async function searchWithJs(req: SearchRequest): Promise<SearchResult> {
  const regex = compile(req);
  const keep = fileFilter(req);
  const candidates = req.isFile ? [req.target] : [...walk(req.target, { override: globOverride(req) })].filter((e) => !e.isDir && keep(e.rel)).map((e) => path.join(req.target, e.rel));
  const files: GrepFile[] = [];
  let collected = 0;
  for (const file of candidates) {
    if (req.signal.aborted) throw new ToolError('Grep was interrupted.');
    let data: Buffer;
    try {
      data = await fs.promises.readFile(file);
    } catch {
      continue;
    }
    if (looksBinary(data.subarray(0, 8192)) || data.includes(0)) continue; // rg skips binary files
    const hit = searchText(file, data.toString('utf8'), regex, req);
    if (!hit) continue;
    files.push(hit);
    collected += req.mode === 'content' ? hit.lines.length : 1;
    if (collected >= req.maxCollect) return { files, truncated: true };
  }
  return { files, truncated: false };
}
