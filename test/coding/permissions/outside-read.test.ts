// A read outside the workspace asks a person, who can let its folder in; with no one to ask it is
// refused and says how to allow it; no mode or allow rule lets it through unasked.
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import { parseRule } from '../../../src/coding/permissions/rules.js';
import { readTool } from '../../../src/coding/tools/read.js';
import { writeTool } from '../../../src/coding/tools/write.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import type { AskPermission, PermissionMode } from '../../../src/runtime/pipeline/types.js';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { createSession } from '../../../src/runtime/tool/session.js';

function setup(mode: PermissionMode = 'default', allow: string[] = [], deny: string[] = [], askPermission?: AskPermission) {
  const workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-outside-ws-')));
  const elsewhere = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-outside-other-')));
  writeFileSync(path.join(elsewhere, 'notes.txt'), 'from another folder\n');
  const registry = new ToolRegistry();
  registry.register(readTool());
  registry.register(writeTool());
  const session = createSession({ cwd: workspace, dir: path.join(workspace, '.session') });
  const settings = emptySettings();
  const rules = (texts: string[]) =>
    texts.map((text) => {
      const parsed = parseRule(text);
      if (!parsed.ok) throw new Error(parsed.message);
      return { ...parsed.rule, text, source: 'test settings', base: workspace };
    });
  settings.permissions.allow = rules(allow);
  settings.permissions.deny = rules(deny);
  const policy = createPolicy({ settings, mode, cwd: workspace, roots: session.roots });
  const rt = createRuntime({ registry, session, policy, askPermission });
  const read = (file: string, id = 'r') => runToolCall({ id, name: 'Read', input: { file_path: file } }, rt, new AbortController().signal);
  return { workspace, elsewhere, session, read, rt };
}

const text = (result: { content: { type: string; text?: string }[] }) => result.content.map((b) => b.text ?? '').join('\n');

describe('reading outside the workspace', () => {
  it('asks, and approving lets the folder in for the rest of the session', async () => {
    const asked: string[] = [];
    const { elsewhere, session, read } = setup('default', [], [], async (request) => {
      asked.push(request.decision.reason);
      expect(request.decision.addDirectory).toBe(path.join(elsewhere));
      return { behavior: 'allow' };
    });
    const first = await read(path.join(elsewhere, 'notes.txt'));
    expect(text(first)).toContain('from another folder');
    expect(first.isError).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/outside the workspace.*approving adds .* to this session's workspace/);
    expect(session.roots).toContain(elsewhere);
    // The folder is in now: no second question.
    const again = await read(path.join(elsewhere, 'notes.txt'), 'r2');
    expect(again.isError).toBe(false);
    expect(asked).toHaveLength(1);
  });

  it('declined, or with no one to ask, it is refused and names additionalDirectories', async () => {
    const declined = setup('default', [], [], async () => ({ behavior: 'deny' }));
    const no = await declined.read(path.join(declined.elsewhere, 'notes.txt'));
    expect(no.isError).toBe(true);
    expect(declined.session.roots).not.toContain(declined.elsewhere);
    const headless = setup();
    const refused = await headless.read(path.join(headless.elsewhere, 'notes.txt'));
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/permissions\.additionalDirectories/);
    expect(text(refused)).toMatch(/no one can approve it/);
  });

  it('no mode or allow rule lets it through unasked; a deny rule still denies; writes outside stay refused', async () => {
    for (const mode of ['acceptEdits', 'plan', 'bypassPermissions'] as const) {
      let asked = 0;
      const { elsewhere, read } = setup(mode, ['Read'], [], async () => {
        asked += 1;
        return { behavior: 'deny' };
      });
      expect((await read(path.join(elsewhere, 'notes.txt'))).isError).toBe(true);
      expect(asked).toBe(1);
    }
    const dontAsk = setup('dontAsk', ['Read']);
    expect(text(await dontAsk.read(path.join(dontAsk.elsewhere, 'notes.txt')))).toMatch(/dontAsk mode denies/);
    let asked = 0;
    const denied = setup('default', [], ['Read(//tmp/**)'], async () => {
      asked += 1;
      return { behavior: 'allow' };
    });
    expect(text(await denied.read(path.join(denied.elsewhere, 'notes.txt')))).toMatch(/denied by rule/);
    expect(asked).toBe(0);
    const writer = setup('bypassPermissions', [], [], async () => ({ behavior: 'allow' }));
    const write = await runToolCall(
      { id: 'w', name: 'Write', input: { file_path: path.join(writer.elsewhere, 'x.txt'), content: 'x' } },
      writer.rt,
      new AbortController().signal,
    );
    expect(write.isError).toBe(true);
    expect(text(write)).toMatch(/writing .* is refused/);
  });
});
