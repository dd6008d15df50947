// LS: a folder as an indented tree, to a depth limit, folders marked with "/", .gitignore
// respected, capped; entries Read deny rules cover are counted, not listed (nor entered).
import fs from 'node:fs';
import picomatch from 'picomatch';
import { z } from 'zod';
import { hiddenNote } from '../permissions/read-deny.js';
import { defineTool, READ_ONLY } from '../../runtime/tool/define.js';
import { ToolError } from '../../runtime/tool/types.js';
import { resolveInWorkspace, touched } from './fs-util.js';
import { entryDenied, walk, type WalkEntry } from './walk.js';

export const LS_MAX_DEPTH = 3;
export const LS_MAX_ENTRIES = 1_000;

export const lsInput = z.object({
  path: z.string().optional().describe('Folder to list (default: the working directory)'),
  ignore: z
    .array(z.string(), { error: 'ignore must be an array of glob patterns, e.g. ["*.log", "dist"]' })
    .optional()
    .describe('Glob patterns of names or paths to leave out'),
});
export type LsInput = z.infer<typeof lsInput>;

export interface LsOutput {
  root: string;
  lines: string[];
  truncated: boolean;
  /** Files and folders Read deny rules hide (a hidden folder counts once). */
  hidden: number;
}

/** The first level of an indented tree, folders with the number of entries listed under them. */
function topLevel(lines: readonly string[]): string[] {
  const out: string[] = [];
  let below = 0;
  const close = () => {
    if (below > 0) out[out.length - 1] += ` (${below} ${below === 1 ? 'entry' : 'entries'})`;
    below = 0;
  };
  for (const line of lines) {
    // Root children are indented once (depth 1); anything deeper is counted, not shown.
    if (line.startsWith('    ')) {
      below++;
      continue;
    }
    close();
    out.push(line);
  }
  close();
  return out;
}

export function lsTool() {
  return defineTool<LsInput, LsOutput>({
    name: 'LS',
    source: 'builtin',
    searchHint: 'list directory folder tree contents',
    description: `Lists a folder as a tree (${LS_MAX_DEPTH} levels deep, folders end with "/"), respecting .gitignore, at most ${LS_MAX_ENTRIES} entries. ignore takes glob patterns to leave out.`,
    prompt: 'Prefer Glob or Grep when you know what you are looking for.',
    inputSchema: lsInput,
    responseFormats: {
      options: {
        concise: 'only the top level, each folder with how many entries the tree has under it, for an overview',
        detailed: `the tree ${LS_MAX_DEPTH} levels deep, to see every name`,
      },
      default: 'detailed',
    },
    ...READ_ONLY,
    touchedPaths: (input, { cwd }) => touched(input.path, cwd, 'read'),
    async call(input, ctx) {
      const root = resolveInWorkspace(ctx, input.path ?? '.', 'path', 'read');
      const stats = fs.statSync(root, { throwIfNoEntry: false });
      if (!stats) throw new ToolError(`path ${JSON.stringify(input.path)} does not exist.`);
      if (!stats.isDirectory()) throw new ToolError(`path ${JSON.stringify(input.path)} is a file, not a folder; use Read to see it.`);
      const skip = input.ignore?.length ? picomatch(input.ignore, { basename: true, dot: true }) : undefined;
      const denied = ctx.session.readDenied;
      let hidden = 0;
      const keep = (e: WalkEntry): boolean => {
        if (skip?.(e.rel)) return false;
        if (!denied || !entryDenied(root, e, denied)) return true;
        hidden++;
        return false;
      };
      const lines: string[] = [];
      let truncated = false;
      for (const entry of walk(root, { maxDepth: LS_MAX_DEPTH, keep })) {
        if (lines.length >= LS_MAX_ENTRIES) {
          truncated = true;
          break;
        }
        const name = entry.rel.slice(entry.rel.lastIndexOf('/') + 1);
        lines.push(`${'  '.repeat(entry.depth)}${name}${entry.isDir ? '/' : ''}`);
      }
      return { root, lines, truncated, hidden };
    },
    toModel(output, _budget, format) {
      const lines = format === 'concise' ? topLevel(output.lines) : output.lines;
      const body = lines.length ? lines.join('\n') : '  (empty)';
      const notice = output.truncated
        ? `\n[Listing stopped at ${LS_MAX_ENTRIES} entries. List a subfolder, or use Glob to find specific files.]`
        : '';
      return { content: [{ type: 'text', text: `${output.root}/\n${body}${notice}${hiddenNote(output.hidden, 'entry')}` }] };
    },
  });
}
