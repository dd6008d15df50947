import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSettings } from '../../../src/coding/settings/load.js';
import { projectsFile, readProjectRecord, saveProjectRules, updateProjectRecord } from '../../../src/coding/settings/projects.js';

const temp = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));

describe("the user's per-folder record", () => {
  it('keeps each folder apart and other keys intact', async () => {
    const home = temp('wield-projects-home-');
    const a = temp('wield-projects-a-');
    const b = temp('wield-projects-b-');
    const file = projectsFile(home);
    await saveProjectRules(file, a, ['Bash(mkdir -p d1)']);
    await saveProjectRules(file, a, ['Bash(mkdir -p d1)', 'Bash(make)']);
    await updateProjectRecord(file, b, (record) => ({ ...record, declined: true }));
    expect(await readProjectRecord(file, a)).toEqual({ ok: true, record: { allow: ['Bash(mkdir -p d1)', 'Bash(make)'] } });
    expect(await readProjectRecord(file, b)).toEqual({ ok: true, record: { declined: true } });
    expect(await readProjectRecord(file, home)).toEqual({ ok: true, record: {} });
  });

  it('is an error with its place when malformed, never a silent reset', async () => {
    const home = temp('wield-projects-bad-');
    mkdirSync(path.join(home, '.wield'));
    writeFileSync(projectsFile(home), '{"projects": {"/x": {"allow": "Bash"}}}');
    const read = await readProjectRecord(projectsFile(home), '/x');
    expect(read.ok).toBe(false);
    await expect(updateProjectRecord(projectsFile(home), '/y', () => ({ declined: true }))).resolves.toBeUndefined();
  });
});

describe('saved rules in the settings', () => {
  it("apply in an untrusted project, for that folder only, while the project's own allow rules do not", async () => {
    const home = temp('wield-saved-home-');
    const cwd = temp('wield-saved-cwd-');
    const other = temp('wield-saved-other-');
    mkdirSync(path.join(cwd, '.wield'));
    writeFileSync(path.join(cwd, '.wield', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(touch *)'] } }));
    await saveProjectRules(projectsFile(home), cwd, ['Bash(mkdir -p d1)']);
    const loaded = await loadSettings({ cwd, home });
    expect(loaded.trusted).toBe(false);
    expect(loaded.settings.permissions.allow.map((rule) => rule.text)).toEqual(['Bash(mkdir -p d1)']);
    expect(loaded.sources.map((s) => [s.kind, s.applied])).toEqual([
      ['saved', 'all'],
      ['project', 'restrictions'],
    ]);
    expect(loaded.ignored).toEqual([`${path.join('.wield', 'settings.json')}: allow rules`]);
    expect((await loadSettings({ cwd: other, home })).settings.permissions.allow).toEqual([]);
    expect(readFileSync(projectsFile(home), 'utf8')).toContain('Bash(mkdir -p d1)');
  });
});

describe('removing a saved rule', () => {
  it('takes it out of the settings file or the folder record it came from, and says when it was not there', async () => {
    const { removeRule, persistRule } = await import('../../../src/coding/settings/persist.js');
    const home = temp('wield-remove-home-');
    const cwd = temp('wield-remove-cwd-');
    await persistRule(cwd, 'Bash(make *)');
    await persistRule(cwd, 'Bash(ls *)');
    const local = path.join(cwd, '.wield', 'settings.local.json');
    expect(await removeRule(local, 'allow', 'Bash(make *)', cwd, home)).toBe(true);
    expect(JSON.parse(readFileSync(local, 'utf8')).permissions.allow).toEqual(['Bash(ls *)']);
    expect(await removeRule(local, 'allow', 'Bash(make *)', cwd, home)).toBe(false);
    await saveProjectRules(projectsFile(home), cwd, ['Bash(mkdir -p d1)']);
    expect(await removeRule(projectsFile(home), 'allow', 'Bash(mkdir -p d1)', cwd, home)).toBe(true);
    expect(await readProjectRecord(projectsFile(home), cwd)).toEqual({ ok: true, record: {} });
  });
});
