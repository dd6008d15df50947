// Read: a page of a file with line numbers, or an image block; records what was read.
import fs from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../../runtime/tool/define.js';
import { boundedInt } from './schema-util.js';
import { ToolError } from '../../runtime/tool/types.js';
import type { ToolContext, ToolResultContent } from '../../runtime/tool/types.js';
import { recordFile, resolveInWorkspace, sha256, touched } from './fs-util.js';
import { looksBinary, sniffImage } from './file-kind.js';
import { fitImage, IMAGE_MAX_INPUT_BYTES, type FittedImage } from './image-scale.js';
import { readPage } from './read-page.js';
import { similarNames } from './similar.js';

export const READ_MAX_LINES = 2000;
export const READ_MAX_LINE_CHARS = 2000;
export const READ_MAX_CHARS = 100_000;

export const readInput = z.object({
  file_path: z.string().min(1, 'file_path must be a non-empty path (absolute, or relative to the working directory)'),
  offset: z
    .number()
    .int('offset must be a whole line number')
    .min(1, 'offset must be ≥ 1 (the 1-based line to start at)')
    .optional()
    .describe('1-based line to start reading at; use it with limit for large files'),
  limit: boundedInt('limit', 1, READ_MAX_LINES, 'lines').describe(`Number of lines to read (default and maximum ${READ_MAX_LINES})`),
});
export type ReadInput = z.infer<typeof readInput>;

export type ReadOutput =
  | { kind: 'text'; path: string; text: string; notice?: string }
  | { kind: 'image'; path: string; mediaType: string; data: string; bytes: number; scaled?: FittedImage['scaled'] };

async function openRegularFile(file: string, display: string): Promise<{ handle: FileHandle; size: number; mtimeMs: number }> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer. O_NOFOLLOW: the guard checked the
    // resolved path; a link swapped in since then is refused instead of followed.
    handle = await open(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch (error) {
    throw await openError(error as NodeJS.ErrnoException, file, display);
  }
  const stats = await handle.stat();
  if (stats.isFile()) return { handle, size: stats.size, mtimeMs: stats.mtimeMs };
  await handle.close();
  if (stats.isDirectory())
    throw new ToolError(`${display} is a directory, not a file. List it with LS {"path": ${JSON.stringify(display)}}.`);
  throw new ToolError(
    `${display} is a device, FIFO or socket; reading it could block forever or never end, so it is refused. Read regular files only.`,
  );
}

async function openError(error: NodeJS.ErrnoException, file: string, display: string): Promise<ToolError> {
  if (error.code === 'ENOENT') {
    const dir = path.dirname(file);
    let names: string[];
    try {
      names = await fs.promises.readdir(dir);
    } catch {
      return new ToolError(`${display} does not exist, and neither does its folder ${dir}. Check the path (Glob can find files by name).`);
    }
    const close = similarNames(path.basename(file), names);
    const hint = close.length
      ? ` Did you mean ${close.map((name) => JSON.stringify(path.join(path.dirname(display), name))).join(' or ')}?`
      : ' Use Glob or LS to find the right name.';
    return new ToolError(`${display} does not exist.${hint}`);
  }
  if (error.code === 'ELOOP')
    return new ToolError(`${display} is a symbolic link that changed after the path check; refused. Read it again.`);
  if (error.code === 'EACCES' || error.code === 'EPERM') return new ToolError(`${display} cannot be read: permission denied.`);
  return new ToolError(`${display} cannot be read: ${error.code ?? error.message}.`);
}

async function readImage(
  ctx: ToolContext,
  handle: FileHandle,
  file: string,
  display: string,
  size: number,
  mtimeMs: number,
  mediaType: string,
): Promise<ReadOutput> {
  if (size > IMAGE_MAX_INPUT_BYTES) {
    throw new ToolError(
      `${display} is a ${mediaType} image of ${(size / 2 ** 20).toFixed(1)} MB; images over ${IMAGE_MAX_INPUT_BYTES / 2 ** 20} MB are not decoded. Ask for a smaller version, or convert it with a command-line tool if one is installed.`,
    );
  }
  const data = await handle.readFile();
  recordFile(ctx.session, file, { mtimeMs, size }, sha256(data));
  const fitted = await fitImage(data, mediaType, display);
  return {
    kind: 'image',
    path: display,
    mediaType: fitted.mediaType,
    data: fitted.data.toString('base64'),
    bytes: size,
    scaled: fitted.scaled,
  };
}

function imageNote(output: Extract<ReadOutput, { kind: 'image' }>): string {
  const scaled = output.scaled ? `, scaled from ${output.scaled.from.join('×')} to ${output.scaled.to.join('×')} px` : '';
  return `Image ${output.path} (${output.bytes.toLocaleString('en-US')} bytes${scaled}; sent as ${output.mediaType}).`;
}

async function readText(
  ctx: ToolContext,
  handle: FileHandle,
  input: ReadInput,
  file: string,
  display: string,
  mtimeMs: number,
  size: number,
): Promise<ReadOutput> {
  const offset = input.offset ?? 1;
  const limit = input.limit ?? READ_MAX_LINES;
  const page = await readPage(handle, { offset, limit, maxChars: READ_MAX_CHARS, maxLineChars: READ_MAX_LINE_CHARS });
  recordFile(ctx.session, file, { mtimeMs, size }, page.hash);
  if (page.totalLines === 0) return { kind: 'text', path: display, text: '', notice: `${display} exists but is empty.` };
  if (offset > page.totalLines) {
    throw new ToolError(
      `offset ${offset} is past the end of ${display}, which has ${page.totalLines} lines. Use an offset between 1 and ${page.totalLines}.`,
    );
  }
  const notes: string[] = [];
  if (page.lastLine < page.totalLines) {
    const next = page.lastLine + 1;
    const why = page.stoppedAtBudget ? 'the page reached the size budget' : `the page is ${limit} lines`;
    notes.push(
      `Showing lines ${page.firstLine}-${page.lastLine} of ${page.totalLines} (${why}). To read more, call Read {"file_path": ${JSON.stringify(display)}, "offset": ${next}, "limit": ${Math.min(READ_MAX_LINES, page.totalLines - page.lastLine)}}, or search with Grep.`,
    );
  }
  if (page.clippedLines > 0)
    notes.push(
      `${page.clippedLines} line(s) longer than ${READ_MAX_LINE_CHARS} characters were clipped; use Grep or Bash (cut, jq) to see them whole.`,
    );
  return { kind: 'text', path: display, text: page.text, notice: notes.length ? notes.join('\n') : undefined };
}

/** The `cat -n` gutter readPage puts before every line. */
function withoutLineNumbers(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^ *\d+\t/, ''))
    .join('\n');
}

export function readTool() {
  return defineTool<ReadInput, ReadOutput>({
    name: 'Read',
    source: 'builtin',
    searchHint: 'read view open cat file contents lines image',
    description:
      `Reads a file from the local filesystem. file_path may be absolute or relative to the working directory. ` +
      `Returns up to ${READ_MAX_LINES} lines numbered like \`cat -n\`; for large files pass offset (1-based line) and limit. ` +
      `Lines longer than ${READ_MAX_LINE_CHARS} characters are clipped. PNG, JPEG, GIF and WebP images are returned as images. ` +
      'Binary files, directories and devices are refused with a reason. Read a file before you Edit or overwrite it.',
    prompt:
      'Use Read (not cat/head/tail in Bash) to view files. Read a file before editing it. Page through large files with offset/limit as the notice says.',
    inputSchema: readInput,
    responseFormats: {
      options: {
        concise: 'the lines without line numbers, to understand code or text you will not edit or cite by line',
        detailed: 'lines numbered like `cat -n`, to Edit the file or to cite and page by line number',
      },
      default: 'detailed',
    },
    ...READ_ONLY,
    touchedPaths: (input, { cwd }) => touched(input.file_path, cwd, 'read'),
    maxResultChars: READ_MAX_CHARS + 2_000,
    async call(input, ctx) {
      const file = resolveInWorkspace(ctx, input.file_path, 'file_path', 'read');
      const display = input.file_path;
      const { handle, size, mtimeMs } = await openRegularFile(file, display);
      try {
        const head = Buffer.alloc(Math.min(size, 8192));
        await handle.read(head, 0, head.length, 0);
        const image = sniffImage(head);
        if (image) return await readImage(ctx, handle, file, display, size, mtimeMs, image);
        if (looksBinary(head)) {
          throw new ToolError(
            `${display} is a binary file (${size.toLocaleString('en-US')} bytes; it contains NUL bytes), so it is not shown as text. Inspect it with Bash (e.g. \`file\`, \`xxd | head\`) if needed.`,
          );
        }
        return await readText(ctx, handle, input, file, display, mtimeMs, size);
      } finally {
        await handle.close();
      }
    },
    toModel(output, _budget, format): ToolResultContent {
      if (output.kind === 'image') {
        return {
          content: [
            { type: 'image', mediaType: output.mediaType, data: output.data },
            { type: 'text', text: imageNote(output) },
          ],
        };
      }
      const text = format === 'concise' ? withoutLineNumbers(output.text) : output.text;
      const parts = [text, output.notice ? `\n[${output.notice}]` : ''].filter(Boolean);
      return { content: [{ type: 'text', text: parts.join('\n') }] };
    },
    toDisplay: (output) => (output.kind === 'image' ? `image ${output.path}` : `read ${output.path}`),
  });
}
