// Codex's patch format (openai/codex, codex-rs/apply-patch: apply_patch_tool_instructions.md and
// the Lark grammar codex-rs/core/src/tool_apply_patch.lark), parsed into file operations. Pure.
// As Codex's own parser does, a blank line inside a hunk is read as an empty context line and the
// first hunk of a file may leave out its `@@`.

export interface PatchChunk {
  /** The `@@ text` line that positions the chunk: the first file line equal to it after the previous chunk. */
  context?: string;
  oldLines: string[];
  newLines: string[];
  /** `*** End of File`: the chunk's old lines end the file. */
  endOfFile: boolean;
}

export type PatchOperation =
  | { kind: 'add'; path: string; contents: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; chunks: PatchChunk[] };

export type PatchParse = { ok: true; operations: PatchOperation[] } | { ok: false; message: string };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARK = '*** End of File';

const isHeader = (line: string) => [ADD, DELETE, UPDATE].some((h) => line.startsWith(h)) || line.trim() === END;

export function parsePatch(text: string): PatchParse {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  const fail = (line: number, message: string): PatchParse => ({ ok: false, message: `patch line ${line}: ${message}` });
  if (lines[0]?.trim() !== BEGIN) return fail(1, `a patch starts with "${BEGIN}"`);
  if (lines.length < 2 || lines[lines.length - 1].trim() !== END) return fail(lines.length, `a patch ends with "${END}"`);
  const operations: PatchOperation[] = [];
  let i = 1;
  const last = lines.length - 1;
  while (i < last) {
    const line = lines[i];
    const at = i + 1;
    if (line.startsWith(ADD)) {
      const body: string[] = [];
      for (i++; i < last && lines[i].startsWith('+'); i++) body.push(lines[i].slice(1));
      operations.push({ kind: 'add', path: line.slice(ADD.length).trim(), contents: body.length ? `${body.join('\n')}\n` : '' });
    } else if (line.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: line.slice(DELETE.length).trim() });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = line.slice(UPDATE.length).trim();
      i++;
      let moveTo: string | undefined;
      if (lines[i]?.startsWith(MOVE)) moveTo = lines[i++].slice(MOVE.length).trim();
      const chunks: PatchChunk[] = [];
      let chunk: PatchChunk | undefined;
      for (; i < last && !isHeader(lines[i]); i++) {
        const row = lines[i];
        if (row.trim() === '@@' || row.startsWith('@@ ')) {
          chunk = { context: row.trim() === '@@' ? undefined : row.slice(3), oldLines: [], newLines: [], endOfFile: false };
          chunks.push(chunk);
          continue;
        }
        if (row.trim() === EOF_MARK) {
          if (!chunk) return fail(i + 1, `"${EOF_MARK}" must follow a hunk's lines`);
          chunk.endOfFile = true;
          chunk = undefined;
          continue;
        }
        const sign = row === '' ? ' ' : row[0];
        if (sign !== ' ' && sign !== '-' && sign !== '+') {
          return fail(
            i + 1,
            `${JSON.stringify(row.slice(0, 60))} is not a hunk line: lines of a hunk start with " " (context), "-" (removed) or "+" (added), and a hunk starts with "@@"`,
          );
        }
        if (!chunk) {
          // Only the first hunk of a file may leave out its @@ line.
          if (chunks.length > 0) return fail(i + 1, `a new hunk starts with "@@" after "${EOF_MARK}"`);
          chunk = { oldLines: [], newLines: [], endOfFile: false };
          chunks.push(chunk);
        }
        const content = row.slice(1);
        if (sign !== '+') chunk.oldLines.push(content);
        if (sign !== '-') chunk.newLines.push(content);
      }
      if (chunks.length === 0 && moveTo === undefined)
        return fail(at, `"${UPDATE}${path}" has no hunks; add "@@" and the lines to change, or leave the file out`);
      operations.push({ kind: 'update', path, moveTo, chunks });
    } else {
      return fail(at, `expected "${ADD}", "${DELETE}", "${UPDATE}" or "${END}", got ${JSON.stringify(line.slice(0, 60))}`);
    }
    if (operations[operations.length - 1].path === '') return fail(at, 'the file path is missing after the header');
  }
  if (operations.length === 0) return fail(2, 'the patch changes no file; add at least one "*** Add/Update/Delete File:" section');
  return { ok: true, operations };
}

/** Every path a patch writes (Move to included), for permissions and locks. */
export function patchPaths(operations: readonly PatchOperation[]): string[] {
  return operations.flatMap((op) => (op.kind === 'update' && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path]));
}
