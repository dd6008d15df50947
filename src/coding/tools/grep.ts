// Grep: ripgrep semantics (respects .gitignore, skips binaries, includes hidden files), via the
// rg binary from npm, with a JS fallback that gives the same output when rg cannot run.
import fs from 'node:fs';
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../../runtime/tool/define.js';
import { boundedInt } from './schema-util.js';
import { ToolError } from '../../runtime/tool/types.js';
import { displayPath, resolveInWorkspace, touched } from './fs-util.js';
import { formatGrep } from './grep-format.js';
import { searchWithJs } from './grep-js.js';
import { RipgrepUnavailable, searchWithRipgrep } from './grep-search.js';
import type { SearchRequest, SearchResult } from './grep-search.js';
import { hiddenNote } from '../permissions/read-deny.js';

const contextLines = (name: string) => boundedInt(name, 0, 100, 'lines');

export const grepInput = z.object({
  pattern: z.string().min(1, 'pattern must be a non-empty regular expression (ripgrep syntax)'),
  path: z.string().optional().describe('File or folder to search (default: the working directory)'),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}"'),
  type: z.string().optional().describe('Only files of this ripgrep type, e.g. js, ts, py, rust, go'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'], { error: 'output_mode must be "content", "files_with_matches" or "count"' })
    .optional()
    .describe('content: matching lines; files_with_matches (default): file paths; count: matches per file'),
  '-i': z.boolean().optional().describe('Case-insensitive'),
  '-n': z.boolean().optional().describe('Line numbers in content mode (default true)'),
  '-A': contextLines('-A').describe('Lines after each match (content mode)'),
  '-B': contextLines('-B').describe('Lines before each match (content mode)'),
  '-C': contextLines('-C').describe('Lines before and after each match (content mode)'),
  head_limit: boundedInt('head_limit', 1, 10_000).describe('Show at most this many lines/files (default 250)'),
  multiline: z.boolean().optional().describe('Let patterns span lines; `.` matches newlines'),
});
export type GrepInput = z.infer<typeof grepInput>;

export interface GrepOutput {
  text: string;
  engine: 'ripgrep' | 'js';
}

export const GREP_DEFAULT_HEAD_LIMIT = 250;
/** Results kept in memory before the search stops early. */
const MAX_COLLECT = 20_000;

export interface GrepToolOptions {
  /** Force an engine (tests); by default ripgrep, falling back to JS when it cannot start. */
  engine?: 'ripgrep' | 'js';
  /** Path of the rg binary (default: the one shipped by @vscode/ripgrep). */
  rgPath?: string;
}

async function search(req: SearchRequest, options: GrepToolOptions): Promise<SearchResult & { engine: 'ripgrep' | 'js' }> {
  // A named file the rules hide: the permission engine refuses the call first, but a library
  // caller may run tools without it.
  if (req.isFile && req.denied?.(req.target)) return { files: [], truncated: false, hidden: 1, engine: options.engine ?? 'ripgrep' };
  if (options.engine !== 'js') {
    try {
      return { ...(await searchWithRipgrep(req, options.rgPath)), engine: 'ripgrep' };
    } catch (error) {
      if (!(error instanceof RipgrepUnavailable) || options.engine === 'ripgrep') throw error;
    }
  }
  return { ...(await searchWithJs(req)), engine: 'js' };
}

export function grepTool(options: GrepToolOptions = {}) {
  return defineTool<GrepInput, GrepOutput>({
    name: 'Grep',
    source: 'builtin',
    searchHint: 'search find text regex in files ripgrep rg',
    description:
      'Searches file contents with a regular expression (ripgrep syntax). Respects .gitignore, skips binary files, includes hidden files. ' +
      'output_mode: "files_with_matches" (default, newest first), "content" (matching lines; -n, -A, -B, -C, -i), or "count". ' +
      'Filter with glob (e.g. "*.ts") or type (e.g. "py"). multiline lets a pattern span lines. Results are capped by head_limit.',
    prompt: 'Use Grep (not grep or rg in Bash) to search file contents. Escape regex special characters to match them literally.',
    inputSchema: grepInput,
    responseFormats: {
      options: {
        concise: 'only the matching files, each with its number of matching lines, to find where something is',
        detailed: 'what output_mode asks for (in content mode the matching lines with -A/-B/-C context), to read the matches',
      },
      default: 'detailed',
    },
    ...READ_ONLY,
    touchedPaths: (input, { cwd }) => touched(input.path, cwd, 'read'),
    async call(input, ctx) {
      const target = resolveInWorkspace(ctx, input.path ?? '.', 'path', 'read');
      let stats: fs.Stats;
      try {
        stats = fs.statSync(target);
      } catch {
        throw new ToolError(`path ${JSON.stringify(input.path)} does not exist. Use Glob or LS to find the right folder.`);
      }
      const context = input['-C'] ?? 0;
      // Concise: which files match and how often, whatever output_mode asked for.
      const mode = ctx.responseFormat === 'concise' ? 'count' : (input.output_mode ?? 'files_with_matches');
      const req: SearchRequest = {
        pattern: input.pattern,
        target,
        isFile: stats.isFile(),
        glob: input.glob,
        type: input.type,
        mode,
        ignoreCase: input['-i'] === true,
        before: input['-B'] ?? context,
        after: input['-A'] ?? context,
        multiline: input.multiline === true,
        maxCollect: MAX_COLLECT,
        signal: ctx.signal,
        denied: ctx.session.readDenied,
      };
      const result = await search(req, options);
      if (mode === 'files_with_matches') {
        for (const file of result.files) file.mtimeMs = fs.statSync(file.file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
      }
      const text = formatGrep(result.files, {
        mode,
        lineNumbers: input['-n'] !== false,
        context: req.before > 0 || req.after > 0,
        headLimit: input.head_limit ?? GREP_DEFAULT_HEAD_LIMIT,
        display: (file) => displayPath(file, ctx.session.cwd),
        truncatedAtCollection: result.truncated,
      });
      return { text: text + hiddenNote(result.hidden, 'file'), engine: result.engine };
    },
    toModel: (output) => ({ content: [{ type: 'text', text: output.text }] }),
  });
}
