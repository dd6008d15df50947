// Grep's search request and its main engine, the ripgrep binary shipped in npm
// (@vscode/ripgrep); grep-js.ts gives the same results when rg cannot run.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import type { ReadDenied } from '../permissions/read-deny.js';
import { ToolError } from '../../runtime/tool/types.js';
import type { GrepFile, OutputMode } from './grep-format.js';
import { exclusionGlobs } from './grep-hidden.js';
import { messageOf } from '../../runtime/util/message.js';

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
  /** Files Read deny rules cover: never searched, only counted. */
  denied?: ReadDenied;
}

export interface SearchResult {
  files: GrepFile[];
  truncated: boolean;
  /** Files the search would have read that Read deny rules hide. */
  hidden: number;
}

/** Thrown when rg cannot be started at all, so the caller falls back to JS. */
export class RipgrepUnavailable extends Error {}

/**
 * The rg binary @vscode/ripgrep ships, loaded on first use: it is an optional peer dependency
 * (~5 MB installed), so a library user who never greps does not install it.
 */
export async function shippedRipgrepPath(): Promise<string> {
  try {
    return (await import('@vscode/ripgrep')).rgPath;
  } catch (error) {
    throw new RipgrepUnavailable(`@vscode/ripgrep is not installed (${messageOf(error)}); install it for the fast search`);
  }
}

/** The flags choosing which files rg reads: the same for listing them and for searching them. */
function selectionArgs(req: SearchRequest, exclude: readonly string[]): string[] {
  const args = ['--no-config', '--hidden', '--no-require-git', '--glob', '!.git'];
  if (req.type) args.push('--type', req.type);
  if (req.glob) args.push('--glob', req.glob);
  // The last matching glob wins in rg: exclusions go after a glob that could match the same file.
  for (const glob of exclude) args.push('--glob', glob);
  return args;
}

export function ripgrepArgs(req: SearchRequest, exclude: readonly string[] = []): string[] {
  const args = ['--null', '--color=never', '--with-filename', ...selectionArgs(req, exclude)];
  if (req.ignoreCase) args.push('-i');
  if (req.multiline) args.push('-U', '--multiline-dotall');
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

interface RgRun {
  stdout: Readable;
  /** Resolves with the exit code and the start of stderr once rg has exited. */
  done: Promise<{ code: number | null; stderr: string }>;
  kill: () => void;
}

/** Starts rg and waits until it runs; RipgrepUnavailable when it cannot start. */
async function startRipgrep(rg: string, args: string[], cwd: string, signal: AbortSignal): Promise<RgRun> {
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal });
  const started = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.name === 'AbortError' ? error : new RipgrepUnavailable(error.message)),
    );
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString('utf8');
  });
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  await started;
  child.stdout.setEncoding('utf8'); // decodes characters split across chunks
  return { stdout: child.stdout, done, kill: () => child.kill() };
}

/** NUL-separated names from a stream, as they arrive. */
async function* names(stdout: Readable): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of stdout as AsyncIterable<string>) {
    const parts = (rest + chunk).split('\0');
    rest = parts.pop() ?? '';
    for (const name of parts) if (name) yield name;
  }
}

/**
 * The files under the search folder that rg would read and the rules hide, as rg names them.
 * Listed apart from the search so the count never depends on what the hidden files contain.
 */
async function hiddenFiles(req: SearchRequest, denied: ReadDenied, rg: string, cwd: string): Promise<string[]> {
  const run = await startRipgrep(rg, ['--files', '--null', ...selectionArgs(req, []), '--', '.'], cwd, req.signal);
  const hidden: string[] = [];
  for await (const rel of names(run.stdout)) if (denied(path.resolve(cwd, rel))) hidden.push(rel);
  await run.done; // unreadable folders: the search itself reports them
  return hidden;
}

export async function searchWithRipgrep(req: SearchRequest, rgOption?: string): Promise<SearchResult> {
  const rg = rgOption ?? (await shippedRipgrepPath());
  const cwd = req.isFile ? path.dirname(req.target) : req.target;
  const { denied } = req;
  const hidden = denied && !req.isFile ? await hiddenFiles(req, denied, rg, cwd) : [];
  const run = await startRipgrep(rg, ripgrepArgs(req, denied ? exclusionGlobs(hidden, cwd, denied) : []), cwd, req.signal);
  const byFile = new Map<string, GrepFile>();
  // Dropped from the output too: a name without an exact glob, a file created since the listing.
  const dropped = new Set<string>();
  let collected = 0;
  let truncated = false;
  const record = (rel: string): GrepFile | undefined => {
    const file = path.resolve(cwd, rel);
    const entry = byFile.get(file);
    if (entry || dropped.has(file)) return entry;
    if (denied?.(file)) {
      dropped.add(file);
      return undefined;
    }
    const created = { file, lines: [], count: 0 };
    byFile.set(file, created);
    return created;
  };
  if (req.mode === 'files_with_matches') {
    for await (const rel of names(run.stdout)) {
      record(rel);
      if (byFile.size >= req.maxCollect) {
        truncated = true;
        run.kill();
        break;
      }
    }
  } else {
    for await (const line of readline.createInterface({ input: run.stdout, crlfDelay: Infinity })) {
      const nul = line.indexOf('\0');
      if (nul === -1) continue; // `--` group separators; formatting adds its own
      const entry = record(line.slice(0, nul));
      if (!entry) continue;
      const rest = line.slice(nul + 1);
      if (req.mode === 'count') entry.count = Number(rest);
      else {
        const m = /^(\d+)([:-])/.exec(rest) as RegExpExecArray;
        entry.lines.push({ n: Number(m[1]), text: rest.slice(m[0].length), match: m[2] === ':' });
      }
      if (++collected >= req.maxCollect) {
        truncated = true;
        run.kill();
        break;
      }
    }
  }
  const { code, stderr } = await run.done;
  if (code === 2 && !truncated && byFile.size === 0) throw new ToolError(`Grep failed: ${stderr.trim() || 'ripgrep exited with an error'}`);
  return { files: [...byFile.values()], truncated, hidden: hidden.length };
}
