// apply_patch: Codex's patch format (add, update with context hunks, move, delete files), a
// freeform tool with Codex's Lark grammar. Every file is planned first (read, hunks applied in
// memory: their context must match the file as it is now); only when all apply are they written, each atomically, with the
// same helpers as Edit and Write. A hunk that does not apply changes nothing and is named.
import fs from 'node:fs';
import path from 'node:path';
import { defineTool } from '../../runtime/tool/define.js';
import { ToolError, type ToolContext, type TouchedPath } from '../../runtime/tool/types.js';
import { applyChunks, hunkFailureMessage } from './apply-patch-apply.js';
import { parsePatch, patchPaths, type PatchOperation } from './apply-patch-parse.js';
import { encodeText } from './edit-match.js';
import { shortDiff } from './edit.js';
import { readTextToChange, requireFreshRead, resolveInWorkspace, withFileLocks, writeRecorded, type FileWriteOptions } from './fs-util.js';
import { gitTargetsCheck } from '../permissions/git-targets.js';

/** Codex's grammar (codex-rs/core/src/tool_apply_patch.lark), the one its models were trained to write. */
export const APPLY_PATCH_GRAMMAR = `start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
`;

export interface ApplyPatchInput {
  input: string;
}

interface FileChange {
  letter: 'A' | 'M' | 'D' | 'R';
  display: string;
  diff: string;
}

export interface ApplyPatchOutput {
  changes: FileChange[];
}

/** A planned write: what goes where, decided before anything is written. */
type Step = { file: string; data?: Buffer; remove?: string };

function parsed(text: string): PatchOperation[] {
  const result = parsePatch(text);
  if (!result.ok) throw new ToolError(`apply_patch: ${result.message}. Nothing was changed.`);
  return result.operations;
}

async function exists(file: string): Promise<boolean> {
  return fs.promises.stat(file).then(
    () => true,
    () => false,
  );
}

/** Reads, checks and applies one operation in memory. */
async function plan(op: PatchOperation, ctx: ToolContext): Promise<{ steps: Step[]; change: FileChange }> {
  const file = resolveInWorkspace(ctx, op.path, 'path', 'write');
  if (op.kind === 'add') {
    // Replacing an existing file is a Write: it must have been read and be unchanged.
    if (await exists(file)) await requireFreshRead(ctx.session, file, op.path);
    return {
      steps: [{ file, data: Buffer.from(op.contents, 'utf8') }],
      change: { letter: 'A', display: op.path, diff: shortDiff(op.path, '', op.contents) },
    };
  }
  if (op.kind === 'delete') {
    await readTextToChange(ctx.session, file, op.path, 'Leave it out of the patch.');
    return { steps: [{ file, remove: file }], change: { letter: 'D', display: op.path, diff: '' } };
  }
  // Hunks whose context matches the file prove the model saw it (Codex-trained models read with
  // `cat` or `sed -n` in the shell); a hunk that quotes nothing proves nothing, so then a Read is due.
  const quotes = op.chunks.every((chunk) => chunk.oldLines.length > 0);
  const proof = quotes || ctx.session.fileState.has(file) ? 'context' : 'read';
  const { text, format } = await readTextToChange(ctx.session, file, op.path, 'To create it, use "*** Add File:".', proof);
  const applied = applyChunks(text, op.chunks);
  if (!applied.ok) throw new ToolError(`apply_patch: ${hunkFailureMessage(op.path, applied.failure)} Nothing was changed.`);
  const data = Buffer.from(encodeText(applied.text, format), 'utf8');
  if (op.moveTo === undefined)
    return { steps: [{ file, data }], change: { letter: 'M', display: op.path, diff: shortDiff(op.path, text, applied.text) } };
  const target = resolveInWorkspace(ctx, op.moveTo, 'Move to', 'write');
  if (target !== file && (await exists(target))) await requireFreshRead(ctx.session, target, op.moveTo);
  return {
    steps: [{ file: target, data, remove: target === file ? undefined : file }],
    change: { letter: 'R', display: `${op.path} → ${op.moveTo}`, diff: shortDiff(op.moveTo, text, applied.text) },
  };
}

export function applyPatchTool(options: FileWriteOptions = {}) {
  return defineTool<ApplyPatchInput, ApplyPatchOutput>({
    name: 'apply_patch',
    source: 'builtin',
    searchHint: 'patch diff edit add update delete move rename files codex',
    description:
      'Edits files with a patch: "*** Begin Patch", then sections "*** Add File: path" (every line "+"), "*** Delete File: path", or ' +
      '"*** Update File: path" (optionally "*** Move to: new path") with hunks: "@@" (optionally "@@ text of a line above the change"), ' +
      'then lines " context", "-removed", "+added"; three lines of context around each change; then "*** End Patch". ' +
      'Paths are relative to the working directory. Context and removed lines must match the file as it is now; ' +
      'a file you delete or replace with "*** Add File:" must have been Read in this session. ' +
      'The patch applies whole or not at all; a hunk that does not match is reported with the nearest text.',
    prompt:
      'Use apply_patch for changes to several places or files at once; copy context lines exactly from Read output (without line numbers).',
    freeform: {
      syntax: 'lark',
      definition: APPLY_PATCH_GRAMMAR,
      description: 'The whole patch, from "*** Begin Patch" to "*** End Patch"',
    },
    isDestructive: (input) => {
      const result = parsePatch(input.input);
      return result.ok && result.operations.some((op) => op.kind !== 'update');
    },
    validateInput: (input) => {
      const result = parsePatch(input.input);
      if (!result.ok) return { ok: false, message: `apply_patch: ${result.message}. Fix the patch and send it again.` };
      const paths = patchPaths(result.operations);
      const twice = paths.find((p, i) => paths.indexOf(p) !== i);
      if (twice !== undefined)
        return {
          ok: false,
          message: `apply_patch: ${twice} appears in two sections; put all its changes in one "*** Update File:" section.`,
        };
      return { ok: true };
    },
    touchedPaths: (input, { cwd }): TouchedPath[] => {
      const result = parsePatch(input.input);
      return result.ok ? patchPaths(result.operations).map((p) => ({ path: path.resolve(cwd, p), access: 'write' })) : [];
    },
    // As Write and Edit: what git's config makes git run or read is refused.
    checkPermissions: (input, ctx) => {
      const result = parsePatch(input.input);
      const touched = result.ok
        ? patchPaths(result.operations).map((p): TouchedPath => ({ path: path.resolve(ctx.session.cwd, p), access: 'write' }))
        : [];
      return gitTargetsCheck(touched, ctx.session);
    },
    async call(input, ctx) {
      const operations = parsed(input.input);
      const files = patchPaths(operations).map((p) => resolveInWorkspace(ctx, p, 'path', 'write'));
      return withFileLocks(files, async () => {
        const planned = [];
        for (const op of operations) planned.push(await plan(op, ctx));
        for (const step of planned.flatMap((p) => p.steps)) {
          if (step.data) await writeRecorded(ctx.session, step.file, step.data, options);
          if (step.remove) {
            await fs.promises.rm(step.remove);
            ctx.session.fileState.delete(step.remove);
          }
        }
        return { changes: planned.map((p) => p.change) };
      });
    },
    toModel: (output) => ({
      content: [
        {
          type: 'text',
          text: `Success. Updated the following files:\n${output.changes.map((c) => `${c.letter} ${c.display}`).join('\n')}`,
        },
      ],
    }),
    toDisplay: (output) => output.changes.map((c) => `${c.letter} ${c.display}${c.diff ? `\n${c.diff}` : ''}`).join('\n'),
  });
}
