// Write: creates or replaces a whole file, atomically; an existing file must have been Read first.
import fs from 'node:fs';
import { z } from 'zod';
import { defineTool } from '../../runtime/tool/define.js';
import { ToolError } from '../../runtime/tool/types.js';
import { requireFreshRead, resolveInWorkspace, withFileLock, writeRecorded, type FileWriteOptions, WRITES_FILE_PATH } from './fs-util.js';

export const writeInput = z.object({
  file_path: z.string().min(1, 'file_path must be a non-empty path (absolute, or relative to the working directory)'),
  content: z.string({ error: 'content must be a string (the whole new file content)' }),
});
export type WriteInput = z.infer<typeof writeInput>;

export interface WriteOutput {
  path: string;
  created: boolean;
  bytes: number;
  lines: number;
}

export function writeTool(options: FileWriteOptions = {}) {
  return defineTool<WriteInput, WriteOutput>({
    name: 'Write',
    source: 'builtin',
    searchHint: 'write create save overwrite file',
    description:
      'Writes a whole file (creating parent folders). Overwriting an existing file requires that you Read it first in this session ' +
      'and that it did not change since. The write is atomic: the file is either the old or the new content, never partial. ' +
      'Prefer Edit for changes to existing files.',
    prompt: 'Use Write only to create files or replace them entirely; use Edit for changes. Never create files you were not asked for.',
    inputSchema: writeInput,
    isDestructive: () => true,
    ...WRITES_FILE_PATH,
    async call(input, ctx) {
      const file = resolveInWorkspace(ctx, input.file_path, 'file_path', 'write');
      return withFileLock(file, async () => {
        let existing: fs.Stats | undefined;
        try {
          existing = await fs.promises.stat(file);
        } catch {
          existing = undefined;
        }
        if (existing && !existing.isFile())
          throw new ToolError(`${input.file_path} exists and is not a regular file; Write only replaces files.`);
        if (existing) await requireFreshRead(ctx.session, file, input.file_path);
        const data = Buffer.from(input.content, 'utf8');
        await writeRecorded(ctx.session, file, data, options);
        const lines = input.content === '' ? 0 : input.content.split('\n').length - (input.content.endsWith('\n') ? 1 : 0);
        return { path: input.file_path, created: !existing, bytes: data.length, lines };
      });
    },
    toModel: (output) => ({
      content: [
        {
          type: 'text',
          text: `${output.created ? 'Created' : 'Updated'} ${output.path} (${output.lines} lines, ${output.bytes.toLocaleString('en-US')} bytes).`,
        },
      ],
    }),
    toDisplay: (output) => `${output.created ? 'created' : 'wrote'} ${output.path}`,
  });
}
