// Grep's JS engine: the same results as ripgrep (grep-search.ts) for when rg cannot run.
// Files Read deny rules cover are counted, never read.
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { ToolError } from '../../runtime/tool/types.js';
import { looksBinary } from './file-kind.js';
import type { GrepFile, GrepLine } from './grep-format.js';
import type { SearchRequest, SearchResult } from './grep-search.js';
import { entryDenied, walk } from './walk.js';

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
    if (!globs)
      throw new ToolError(
        `type ${JSON.stringify(req.type)} is not known to the built-in search; use one of ${Object.keys(FILE_TYPES).join(', ')}, or a glob.`,
      );
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
    throw new ToolError(
      `pattern is not a valid regular expression: ${(error as Error).message}. Escape special characters (e.g. \\( or \\.) to match them literally.`,
    );
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

/** The files to read, and how many others Read deny rules hide. */
function candidatesOf(req: SearchRequest): { candidates: string[]; hidden: number } {
  const keep = fileFilter(req); // first: an unknown type is an error even for one file, as in rg
  if (req.isFile) return { candidates: [req.target], hidden: 0 };
  const candidates: string[] = [];
  let hidden = 0;
  for (const entry of walk(req.target, { override: globOverride(req) })) {
    if (entry.isDir || !keep(entry.rel)) continue;
    if (req.denied && entryDenied(req.target, entry, req.denied)) hidden++;
    else candidates.push(path.join(req.target, entry.rel));
  }
  return { candidates, hidden };
}

export async function searchWithJs(req: SearchRequest): Promise<SearchResult> {
  const regex = compile(req);
  const { candidates, hidden } = candidatesOf(req);
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
    if (collected >= req.maxCollect) return { files, truncated: true, hidden };
  }
  return { files, truncated: false, hidden };
}
