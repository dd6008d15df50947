// apply_patch through the real pipeline and permission engine on real files: add, update, move
// and delete; CRLF and stale files; bad patches with actionable errors; Edit rules and prompts.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { parseRule } from '../../../src/coding/permissions/rules.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import { APPLY_PATCH_GRAMMAR, applyPatchTool } from '../../../src/coding/tools/apply-patch.js';
import { readTool } from '../../../src/coding/tools/read.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import type { PermissionMode, PermissionPolicy, RuntimeContext, ToolEvent } from '../../../src/runtime/pipeline/types.js';
import { toResponsesTools } from '../../../src/runtime/providers/openai-responses-request.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { toolSpec } from '../../../src/runtime/registry/spec.js';
import { workspace, type Workspace } from './helpers.js';

let ws: Workspace;
let events: ToolEvent[];
beforeEach(() => {
  ws = workspace();
  events = [];
});
afterEach(() => ws.cleanup());

function runtime(policy: PermissionPolicy = allowAll): RuntimeContext {
  const registry = new ToolRegistry();
  registry.register(readTool());
  registry.register(applyPatchTool());
  return createRuntime({ registry, session: ws.session, policy, emit: (event) => events.push(event) });
}

let n = 0;
async function call(rt: RuntimeContext, name: string, input: Record<string, unknown>) {
  const result = await runToolCall({ id: `c${++n}`, name, input }, rt, new AbortController().signal);
  return { ...result, text: result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n') };
}
const read = (rt: RuntimeContext, file: string) => call(rt, 'Read', { file_path: file });
const patch = (rt: RuntimeContext, text: string) => call(rt, 'apply_patch', { input: text });
const content = (rel: string) => fs.readFileSync(path.join(ws.root, rel), 'utf8');

const FOUR = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';

describe('apply_patch: applying', () => {
  it('adds, updates (two hunks, @@ context), moves and deletes in one patch', async () => {
    ws.file('src/nums.txt', FOUR);
    ws.file('old/name.txt', 'keep me\nchange me\n');
    ws.file('obsolete.txt', 'bye\n');
    const rt = runtime();
    for (const f of ['src/nums.txt', 'old/name.txt', 'obsolete.txt']) expect((await read(rt, f)).isError).toBe(false);
    const result = await patch(
      rt,
      [
        '*** Begin Patch',
        '*** Add File: docs/hello.md',
        '+# Hello',
        '+',
        '+world',
        '*** Update File: src/nums.txt',
        '@@',
        ' one',
        '-two',
        '+TWO',
        ' three',
        '@@ six',
        ' seven',
        '-eight',
        '+EIGHT',
        '*** Update File: old/name.txt',
        '*** Move to: renamed/dir/name.txt',
        '@@',
        ' keep me',
        '-change me',
        '+changed',
        '*** Delete File: obsolete.txt',
        '*** End Patch',
        '',
      ].join('\n'),
    );
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toBe(
      'Success. Updated the following files:\nA docs/hello.md\nM src/nums.txt\nR old/name.txt → renamed/dir/name.txt\nD obsolete.txt',
    );
    expect(content('docs/hello.md')).toBe('# Hello\n\nworld\n');
    expect(content('src/nums.txt')).toBe('one\nTWO\nthree\nfour\nfive\nsix\nseven\nEIGHT\n');
    expect(content('renamed/dir/name.txt')).toBe('keep me\nchanged\n');
    expect(fs.existsSync(path.join(ws.root, 'old/name.txt'))).toBe(false);
    expect(fs.existsSync(path.join(ws.root, 'obsolete.txt'))).toBe(false);
    // The written file counts as read: a second patch needs no new Read.
    const again = await patch(rt, '*** Begin Patch\n*** Update File: src/nums.txt\n@@\n-one\n+ONE\n*** End Patch\n');
    expect(again.isError, again.text).toBe(false);
    expect(content('src/nums.txt').startsWith('ONE\nTWO\n')).toBe(true);
  });

  it('keeps a CRLF file CRLF and its BOM (the patch itself has LF lines, as the grammar says)', async () => {
    ws.file('win.txt', '\uFEFFalpha\r\nbeta\r\ngamma\r\n');
    const rt = runtime();
    await read(rt, 'win.txt');
    const result = await patch(rt, '*** Begin Patch\n*** Update File: win.txt\n@@\n alpha\n-beta\n+BETA\n*** End Patch\n');
    expect(result.isError, result.text).toBe(false);
    expect(content('win.txt')).toBe('\uFEFFalpha\r\nBETA\r\ngamma\r\n');
  });

  it('checks a file changed on disk since it was read against its hunks, and then changes no file of the patch', async () => {
    ws.file('a.txt', 'a\n');
    ws.file('b.txt', 'b\n');
    const rt = runtime();
    await read(rt, 'a.txt');
    await read(rt, 'b.txt');
    fs.writeFileSync(path.join(ws.root, 'b.txt'), 'b changed by someone\n');
    const result = await patch(
      rt,
      '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch',
    );
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/b\.txt/);
    expect(result.text).toContain('Nothing was changed');
    expect(content('a.txt')).toBe('a\n');
    expect(content('b.txt')).toBe('b changed by someone\n');
  });

  it('updates a file never Read when its hunks quote it; a hunk quoting nothing, a delete or an add over it still need a Read', async () => {
    ws.file('unread.txt', 'x\n');
    const rt = runtime();
    const quoted = await patch(rt, '*** Begin Patch\n*** Update File: unread.txt\n@@\n-x\n+y\n*** End Patch');
    expect(quoted.isError, quoted.text).toBe(false);
    expect(content('unread.txt')).toBe('y\n');
    ws.file('other.txt', 'p\n');
    const blind = await patch(rt, '*** Begin Patch\n*** Update File: other.txt\n@@\n+appended\n*** End Patch');
    expect(blind.text).toContain('other.txt exists but has not been read in this session. Read it first');
    const add = await patch(rt, '*** Begin Patch\n*** Add File: other.txt\n+new\n*** End Patch');
    expect(add.text).toContain('has not been read in this session');
    const remove = await patch(rt, '*** Begin Patch\n*** Delete File: other.txt\n*** End Patch');
    expect(remove.text).toContain('has not been read in this session');
    expect(content('other.txt')).toBe('p\n');
  });
});

describe('apply_patch: bad patches', () => {
  it('names the file, the hunk, the lines not found and the nearest match', async () => {
    ws.file('src/app.ts', 'function main() {\n  const total = add(1, 2);\n  return total;\n}\n');
    const rt = runtime();
    await read(rt, 'src/app.ts');
    const result = await patch(
      rt,
      '*** Begin Patch\n*** Update File: src/app.ts\n@@\n function main() {\n@@\n-  const total = add(1, 3);\n+  const total = add(2, 3);\n   return total;\n*** End Patch\n',
    );
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      'apply_patch: src/app.ts, hunk 2 of 2: these lines (the context and "-" lines) were not found in order, searching from line 2:\n' +
        '  |  const total = add(1, 3);\n  |  return total;\n' +
        'The nearest match (98% similar) is lines 2-3:\n     2\t  const total = add(1, 2);\n     3\t  return total;\n' +
        'Read the file again and resend the patch with context lines copied exactly (a leading space, then the line). Nothing was changed.',
    );
    expect(content('src/app.ts')).toContain('add(1, 2)');
  });

  it('an @@ line that matches nothing is named as such', async () => {
    ws.file('f.txt', FOUR);
    const rt = runtime();
    await read(rt, 'f.txt');
    const result = await patch(rt, '*** Begin Patch\n*** Update File: f.txt\n@@ class Missing\n-two\n+2\n*** End Patch\n');
    expect(result.text).toContain('f.txt, hunk 1 of 1: its "@@ class Missing" line matches no line of the file, searching from line 1');
  });

  it('text outside the grammar: where it stops and what was expected', async () => {
    const rt = runtime();
    const noBegin = await patch(rt, '*** Update File: f.txt\n@@\n-a\n+b\n*** End Patch\n');
    expect(noBegin.text).toContain(
      'stops matching at line 1, column 1 (at "*** Update File: f.txt\\n@@\\n-a\\n+"), where it expects "*** Begin Patch"',
    );
    const badLine = await patch(rt, '*** Begin Patch\n*** Update File: f.txt\n@@\n-a\n?b\n*** End Patch\n');
    expect(badLine.text).toContain('line 5, column 1');
    expect(badLine.text).toMatch(/expects .*"-".*"\+"|expects .*"\+".*"-"/);
  });

  it('grammar-valid but meaningless patches get the parser’s reason', async () => {
    const rt = runtime();
    const empty = await patch(rt, '*** Begin Patch\n*** Update File: f.txt\n*** End Patch\n');
    expect(empty.text).toBe(
      'apply_patch: patch line 2: "*** Update File: f.txt" has no hunks; add "@@" and the lines to change, or leave the file out. Fix the patch and send it again.',
    );
    const twice = await patch(rt, '*** Begin Patch\n*** Delete File: f.txt\n*** Delete File: f.txt\n*** End Patch\n');
    expect(twice.text).toContain('f.txt appears in two sections');
  });

  it('a path outside the workspace is refused before anything is read', async () => {
    const rt = runtime(createPolicy({ settings: emptySettings(), mode: 'bypassPermissions', cwd: ws.root, roots: [ws.root] }));
    const result = await patch(rt, '*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch\n');
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/writing "[^"]*escape\.txt" is refused: .* is outside the workspace/);
    expect(fs.existsSync(path.join(ws.root, '..', 'escape.txt'))).toBe(false);
  });
});

describe('apply_patch: permissions and providers', () => {
  const policy = (mode: PermissionMode, deny: string[] = []) => {
    const settings = emptySettings();
    settings.permissions.deny = deny.map((text) => {
      const parsed = parseRule(text);
      if (!parsed.ok) throw new Error(parsed.message);
      return { ...parsed.rule, text, source: 'test', base: ws.root };
    });
    return createPolicy({ settings, mode, cwd: ws.root, roots: [ws.root], home: '/nonexistent-home' });
  };
  const addFile = (rel: string) => `*** Begin Patch\n*** Add File: ${rel}\n+x\n*** End Patch\n`;

  it('Edit rules cover it: a deny on a path stops a patch touching it; a blanket Edit deny stops every patch', async () => {
    const byPath = await patch(runtime(policy('bypassPermissions', ['Edit(secret/**)'])), addFile('secret/key.txt'));
    expect(byPath.text).toContain('denied by rule `Edit(secret/**)`');
    const blanket = await patch(runtime(policy('bypassPermissions', ['Edit'])), addFile('ok.txt'));
    expect(blanket.text).toContain('denied by rule `Edit`');
    expect(fs.existsSync(path.join(ws.root, 'ok.txt'))).toBe(false);
  });

  it('asks like Edit in default mode (no one to ask: denied, naming why), and runs in acceptEdits', async () => {
    const asked = await patch(runtime(policy('default')), addFile('new.txt'));
    expect(asked.isError).toBe(true);
    expect(events.some((e) => e.type === 'permission_decided' && e.decision.reason.includes('apply_patch writes files'))).toBe(true);
    const accepted = await patch(runtime(policy('acceptEdits')), addFile('new.txt'));
    expect(accepted.isError, accepted.text).toBe(false);
    expect(content('new.txt')).toBe('x\n');
  });

  it('is a custom tool with Codex’s Lark grammar on the Responses API, and a one-string function elsewhere', () => {
    const spec = toolSpec(applyPatchTool(), ws.root);
    expect(toResponsesTools([spec])[0]).toMatchObject({
      type: 'custom',
      name: 'apply_patch',
      format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_GRAMMAR },
    });
    expect(spec.inputSchema).toMatchObject({ properties: { input: { type: 'string' } }, required: ['input'] });
  });
});
