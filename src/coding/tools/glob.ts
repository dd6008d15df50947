// Glob: files matching a glob pattern, newest first; .gitignore respected; symlinks never lead
// out of the search root; files Read deny rules cover are counted, not listed.
import fs from 'node:fs';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import { isWithin } from '../permissions/paths.js';
import { hiddenNote } from '../permissions/read-deny.js';
import { defineTool, READ_ONLY } from '../../runtime/tool/define.js';
import { ToolError } from '../../runtime/tool/types.js';
import { displayPath, resolveInWorkspace, touched } from './fs-util.js';
import { IgnoreRules } from './ignore-rules.js';

export const GLOB_MAX_RESULTS = 100;

export const globInput = z.object({
  pattern: z.string().min(1, 'pattern must be a non-empty glob, e.g. "**/*.ts"'),
  path: z.string().optional().describe('Folder to search in (default: the working directory)'),
});
export type GlobInput = z.infer<typeof globInput>;

export interface GlobOutput {
  files: string[];
  total: number;
  /** Matches Read deny rules hide. */
  hidden: number;
  /** Listed names that are not UTF-8 (shown with U+FFFD). */
  undecodable: number;
}

/** Where a match really is, or undefined for a symlink resolving outside the root (or dangling). */
function realInside(file: string, realRoot: string): string | undefined {
  try {
    const real = fs.realpathSync(file);
    return isWithin(real, realRoot) ? real : undefined;
  } catch {
    return undefined;
  }
}

/** `folder/: a.ts, b.ts` lines, folders in the order their newest file came. */
export function byFolder(files: readonly string[]): string {
  const folders = new Map<string, string[]>();
  for (const file of files) {
    const cut = file.lastIndexOf('/');
    const folder = cut < 0 ? './' : file.slice(0, cut + 1);
    const names = folders.get(folder) ?? [];
    names.push(file.slice(cut + 1));
    folders.set(folder, names);
  }
  return [...folders].map(([folder, names]) => `${folder}: ${names.join(', ')}`).join('\n');
}

export function globTool() {
  return defineTool<GlobInput, GlobOutput>({
    name: 'Glob',
    source: 'builtin',
    searchHint: 'find files by name pattern wildcard',
    description:
      `Finds files by glob pattern (e.g. "**/*.ts", "src/**/test_*.py"), sorted by modification time, newest first. ` +
      `Respects .gitignore; includes hidden files. At most ${GLOB_MAX_RESULTS} paths are returned.`,
    prompt: 'Use Glob (not find or ls in Bash) to find files by name.',
    inputSchema: globInput,
    responseFormats: {
      options: {
        concise: 'each folder once with its matching file names, to see what exists where',
        detailed: 'one full path per line, newest first, to copy paths into other calls',
      },
      default: 'detailed',
    },
    ...READ_ONLY,
    touchedPaths: (input, { cwd }) => touched(input.path, cwd, 'read'),
    async call(input, ctx) {
      const root = resolveInWorkspace(ctx, input.path ?? '.', 'path', 'read');
      if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
        // No path means the working folder: if that is gone (deleted or moved), say so.
        throw new ToolError(
          input.path === undefined
            ? `The working folder ${root} no longer exists (deleted or moved); pass path as a folder that exists, or cd to one with Bash.`
            : `path ${JSON.stringify(input.path)} is not an existing folder. Use LS to find it.`,
        );
      }
      if (path.isAbsolute(input.pattern) || input.pattern.split('/').includes('..')) {
        throw new ToolError(
          'pattern must be relative to path and must not contain ".."; set path to search another folder of the workspace.',
        );
      }
      const matches = await glob(input.pattern, {
        cwd: root,
        dot: true,
        onlyFiles: true,
        followSymbolicLinks: false,
        ignore: ['**/.git/**'],
        expandDirectories: false,
      });
      const rules = new IgnoreRules(root);
      const denied = ctx.session.readDenied;
      let hidden = 0;
      let undecodable = 0;
      const kept: { file: string; mtimeMs: number }[] = [];
      for (const rel of matches) {
        if (rules.ignores(rel, false)) continue;
        const file = path.join(root, rel);
        const real = realInside(file, root);
        // A name that is not UTF-8 reaches us with U+FFFD in place of its bytes, so it cannot be
        // stat'ed by that name; it is still listed (and said), never silently skipped.
        if (!real && rel.includes('\uFFFD') && !(denied?.(file) ?? false)) {
          undecodable++;
          kept.push({ file, mtimeMs: 0 });
        }
        if (!real) continue;
        // A symlink is hidden by its own path or the file it leads to: a Read of either is denied.
        if (denied && (denied(file) || (real !== file && denied(real)))) hidden++;
        else kept.push({ file, mtimeMs: fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0 });
      }
      kept.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.file < b.file ? -1 : 1));
      return {
        files: kept.slice(0, GLOB_MAX_RESULTS).map((entry) => displayPath(entry.file, ctx.session.cwd)),
        total: kept.length,
        hidden,
        undecodable,
      };
    },
    toModel(output, _budget, format) {
      const hidden = hiddenNote(output.hidden, 'file');
      if (output.total === 0) return { content: [{ type: 'text', text: `No files found.${hidden}` }] };
      const notice =
        output.total > output.files.length
          ? `\n[Showing the ${output.files.length} newest of ${output.total} files. Use a narrower pattern or path to see others.]`
          : '';
      const body = format === 'concise' ? byFolder(output.files) : output.files.join('\n');
      const odd =
        output.undecodable > 0
          ? `\n[${output.undecodable} name${output.undecodable === 1 ? ' is' : 's are'} not valid UTF-8 and shown with \uFFFD; Read cannot open ${output.undecodable === 1 ? 'it' : 'them'} by that name: use Bash with a pattern (e.g. cat caf?.txt).]`
          : '';
      return { content: [{ type: 'text', text: body + notice + odd + hidden }] };
    },
  });
}
