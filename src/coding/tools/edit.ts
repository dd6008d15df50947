// Edit: exact string replacement in a file that was Read, keeping its line endings and BOM.
import { createPatch } from 'diff';
import { z } from 'zod';
import { defineTool } from '../../runtime/tool/define.js';
import { ToolError } from '../../runtime/tool/types.js';
import { readTextToChange, resolveInWorkspace, withFileLock, writeRecorded, type FileWriteOptions, WRITES_FILE_PATH } from './fs-util.js';
import { applyEdit, closestRegion, encodeText, normalizeArg, notFoundMessage } from './edit-match.js';

export const editInput = z.object({
  file_path: z.string().min(1, 'file_path must be a non-empty path (absolute, or relative to the working directory)'),
  old_string: z.string().min(1, 'old_string must not be empty; to create a file use Write'),
  new_string: z.string({ error: 'new_string must be a string (use "" to delete old_string)' }),
  replace_all: z
    .boolean({ error: 'replace_all must be true or false' })
    .optional()
    .describe('Replace every occurrence (default false: old_string must be unique)'),
});
export type EditInput = z.infer<typeof editInput>;

export interface EditOutput {
  path: string;
  replacements: number;
  diff: string;
}

const MAX_DIFF_CHARS = 4_000;

/** A unified diff without the file header lines, short enough for the model. */
export function shortDiff(display: string, before: string, after: string): string {
  const patch = createPatch(display, before, after, '', '', { context: 2 });
  const body = patch.split('\n').slice(4).join('\n').trimEnd();
  return body.length > MAX_DIFF_CHARS ? `${body.slice(0, MAX_DIFF_CHARS)}\n… [diff clipped]` : body;
}

export function editTool(options: FileWriteOptions = {}) {
  return defineTool<EditInput, EditOutput>({
    name: 'Edit',
    source: 'builtin',
    searchHint: 'edit modify replace change string in file',
    description:
      'Replaces old_string with new_string in a file. old_string must match the file exactly (whitespace included) and be unique, ' +
      'unless replace_all is true. You must Read the file first in this session. Line endings (CRLF/LF) and a BOM are kept. ' +
      'When old_string is not found, the closest region is shown so you can correct it. Returns a short diff.',
    prompt:
      'Read a file before editing it. Copy old_string from Read output without the line-number prefix; include enough context to make it unique.',
    inputSchema: editInput,
    isDestructive: () => false,
    ...WRITES_FILE_PATH,
    async call(input, ctx) {
      const display = input.file_path;
      if (input.old_string === input.new_string) {
        throw new ToolError(
          'old_string and new_string are identical, so this edit would change nothing. Send the text you want in new_string.',
        );
      }
      const file = resolveInWorkspace(ctx, display, 'file_path', 'write');
      // The lock serializes Edits of one file even if a caller runs them concurrently.
      return withFileLock(file, async () => {
        const { text, format } = await readTextToChange(ctx.session, file, display, 'To create it, use Write.');
        const oldString = normalizeArg(input.old_string, format);
        const newString = normalizeArg(input.new_string, format);
        const result = applyEdit(text, oldString, newString, input.replace_all === true);
        if (!result.ok && result.kind === 'not_found') throw new ToolError(notFoundMessage(display, closestRegion(text, oldString)));
        if (!result.ok) {
          throw new ToolError(
            `old_string occurs ${result.lines.length} times in ${display} (lines ${result.lines.join(', ')}). Add surrounding lines to make it unique, or set replace_all to true to change every occurrence.`,
          );
        }
        await writeRecorded(ctx.session, file, Buffer.from(encodeText(result.text, format), 'utf8'), options);
        return { path: display, replacements: result.count, diff: shortDiff(display, text, result.text) };
      });
    },
    toModel: (output) => ({
      content: [
        {
          type: 'text',
          text: `Edited ${output.path} (${output.replacements} replacement${output.replacements === 1 ? '' : 's'}):\n${output.diff}`,
        },
      ],
    }),
    toDisplay: (output) => `edited ${output.path}\n${output.diff}`,
  });
}
