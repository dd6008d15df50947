import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { formatSettingsError, loadSettings, settingsPaths, trustProject } from '../../../src/coding/settings/load.js';
import { persistRule } from '../../../src/coding/settings/persist.js';

let home: string;
let cwd: string;

beforeEach(async () => {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'wield-settings-')));
  home = path.join(root, 'home');
  cwd = path.join(root, 'project');
  await mkdir(path.join(home, '.wield'), { recursive: true });
  await mkdir(path.join(cwd, '.wield'), { recursive: true });
});
afterEach(async () => {
  await rm(path.dirname(home), { recursive: true, force: true });
});

async function write(file: string, data: unknown): Promise<void> {
  await writeFile(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
}
const texts = (rules: { text: string }[]) => rules.map((r) => r.text);

describe('loadSettings', () => {
  it('returns defaults when no file exists', async () => {
    const { settings, sources, trusted, errors } = await loadSettings({ cwd, home });
    expect(settings.permissions).toEqual({ allow: [], ask: [], deny: [], defaultMode: 'default', additionalDirectories: [] });
    expect(sources).toEqual([]);
    expect(trusted).toBe(false);
    expect(errors).toBeUndefined();
  });

  it('merges layers in order: lists add up, later single values win, deny rules from every layer hold', async () => {
    const files = settingsPaths(cwd, home);
    await write(files.user, {
      permissions: { allow: ['Bash(npm test)'], deny: ['Bash(rm *)'], defaultMode: 'plan' },
      trustedProjects: [cwd],
    });
    await write(files.project, { permissions: { allow: ['Bash(make *)'], deny: ['Read(.env)'], defaultMode: 'acceptEdits' } });
    await write(files.local, { permissions: { ask: ['Bash(git push *)'], defaultMode: 'dontAsk' } });
    const { settings, sources, trusted } = await loadSettings({ cwd, home, flags: { allow: ['Edit'], deny: ['WebFetch'] } });
    expect(trusted).toBe(true);
    expect(texts(settings.permissions.allow)).toEqual(['Bash(npm test)', 'Bash(make *)', 'Edit']);
    expect(texts(settings.permissions.deny)).toEqual(['Bash(rm *)', 'Read(.env)', 'WebFetch']);
    expect(texts(settings.permissions.ask)).toEqual(['Bash(git push *)']);
    expect(settings.permissions.defaultMode).toBe('dontAsk');
    expect(sources.map((s) => s.kind)).toEqual(['user', 'project', 'local', 'flags']);
    // Relative path patterns anchor at the folder of the file they came from.
    expect(settings.permissions.deny[1].base).toBe(cwd);
    expect(settings.permissions.allow[0].base).toBe(home);
  });

  it('the --permission-mode flag wins over every file', async () => {
    await write(settingsPaths(cwd, home).user, { permissions: { defaultMode: 'acceptEdits' } });
    const { settings } = await loadSettings({ cwd, home, flags: { permissionMode: 'plan' } });
    expect(settings.permissions.defaultMode).toBe('plan');
  });

  it('an untrusted project only restricts: no allow rules, hooks, servers, folders or loosening modes', async () => {
    const files = settingsPaths(cwd, home);
    const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo hi' }] }] };
    await write(files.project, {
      permissions: {
        allow: ['Bash'],
        deny: ['Bash(curl *)'],
        ask: ['Edit'],
        defaultMode: 'bypassPermissions',
        additionalDirectories: ['/'],
      },
      hooks,
      mcpServers: { evil: { command: 'evil' } },
      sandbox: { autoAllowBash: true, enabled: true },
    });
    await write(files.local, { permissions: { allow: ['Write'] } });
    const untrusted = await loadSettings({ cwd, home });
    expect(untrusted.trusted).toBe(false);
    expect(untrusted.settings.permissions.allow).toEqual([]);
    expect(texts(untrusted.settings.permissions.deny)).toEqual(['Bash(curl *)']);
    expect(texts(untrusted.settings.permissions.ask)).toEqual(['Edit']);
    expect(untrusted.settings.permissions.defaultMode).toBe('default');
    expect(untrusted.settings.permissions.additionalDirectories).toEqual([]);
    expect(untrusted.settings.hooks).toEqual({});
    expect(untrusted.settings.mcpServers).toEqual({});
    expect(untrusted.settings.sandbox).toEqual({ enabled: true });
    expect(untrusted.sources.map((s) => s.applied)).toEqual(['restrictions', 'restrictions']);

    const explicit = await loadSettings({ cwd, home, trustProject: true });
    expect(explicit.trusted).toBe(true);
    expect(texts(explicit.settings.permissions.allow)).toEqual(['Bash', 'Write']);
    expect(explicit.settings.permissions.defaultMode).toBe('bypassPermissions');
    expect(explicit.settings.hooks).toEqual(hooks);
    expect(explicit.settings.mcpServers).toEqual({ evil: { command: 'evil' } });
    expect(explicit.settings.permissions.additionalDirectories).toEqual(['/']);
  });

  it('an untrusted project may still pick a stricter mode', async () => {
    await write(settingsPaths(cwd, home).project, { permissions: { defaultMode: 'plan' } });
    expect((await loadSettings({ cwd, home })).settings.permissions.defaultMode).toBe('plan');
  });

  it('trustProject records the folder in the user settings, keeping other keys', async () => {
    const files = settingsPaths(cwd, home);
    await write(files.user, { permissions: { deny: ['Bash(rm *)'] } });
    await write(files.project, { permissions: { allow: ['Bash(make *)'] } });
    await trustProject(cwd, home);
    await trustProject(cwd, home);
    const user = JSON.parse(await readFile(files.user, 'utf8'));
    expect(user).toEqual({ permissions: { deny: ['Bash(rm *)'] }, trustedProjects: [cwd] });
    const { trusted, settings } = await loadSettings({ cwd, home });
    expect(trusted).toBe(true);
    expect(texts(settings.permissions.allow)).toEqual(['Bash(make *)']);
  });

  it('resolves additional directories relative to the project and ~ to the home folder', async () => {
    await write(settingsPaths(cwd, home).user, { permissions: { additionalDirectories: ['~/shared'] } });
    await write(settingsPaths(cwd, home).local, { permissions: { additionalDirectories: ['../lib'] } });
    const { settings } = await loadSettings({ cwd, home, trustProject: true });
    expect(settings.permissions.additionalDirectories).toEqual([path.join(home, 'shared'), path.join(path.dirname(cwd), 'lib')]);
  });

  describe('malformed files are errors naming file, line, column and key', () => {
    it('invalid JSON', async () => {
      const file = settingsPaths(cwd, home).project;
      await write(file, '{\n  "permissions": {\n    "allow": ["Bash(ls *)",]\n  }\n}');
      const { errors } = await loadSettings({ cwd, home });
      expect(errors).toHaveLength(1);
      expect(errors?.[0]).toMatchObject({ file, line: 3, column: 28 });
      expect(formatSettingsError(errors![0])).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:28: invalid JSON`));
    });

    it('an unknown key', async () => {
      const file = settingsPaths(cwd, home).user;
      await write(file, '{\n  "permissions": {\n    "alow": []\n  }\n}');
      const { errors } = await loadSettings({ cwd, home });
      expect(errors?.[0]).toMatchObject({ file, line: 3, column: 5, key: 'permissions.alow' });
      expect(errors?.[0].message).toContain('unknown key');
    });

    // Claude Code's own events (PreCompact…) are set aside instead: carry-over.test.ts.
    it('an unknown hook event names the supported ones', async () => {
      await write(settingsPaths(cwd, home).user, { hooks: { PreToolUze: [] } });
      const { errors } = await loadSettings({ cwd, home });
      expect(errors?.[0]).toMatchObject({ key: 'hooks.PreToolUze', line: 3 });
      expect(errors?.[0].message).toContain('PreToolUse');
    });

    it('a malformed rule', async () => {
      const file = settingsPaths(cwd, home).local;
      await write(file, '{"permissions": {"deny": [\n"Bash(ls *)",\n  "Bash(rm"]}}');
      const { errors } = await loadSettings({ cwd, home });
      expect(errors?.[0]).toMatchObject({ file, line: 3, column: 3, key: 'permissions.deny[1]' });
      expect(errors?.[0].message).toContain('missing closing');
    });

    it('a wrong type, a bad mode and a bad hook matcher', async () => {
      await write(settingsPaths(cwd, home).user, {
        permissions: { allow: 'Bash', defaultMode: 'yolo' },
        hooks: { PreToolUse: [{ matcher: '(', hooks: [{ type: 'command', command: 'x' }] }] },
      });
      const { errors } = await loadSettings({ cwd, home });
      expect(errors?.map((e) => e.key).sort()).toEqual(['hooks.PreToolUse[0].matcher', 'permissions.allow', 'permissions.defaultMode']);
      expect(errors?.every((e) => e.line > 1)).toBe(true);
    });

    it('trustedProjects in a project file', async () => {
      await write(settingsPaths(cwd, home).project, { trustedProjects: [cwd] });
      const { errors, trusted } = await loadSettings({ cwd, home });
      expect(trusted).toBe(false);
      expect(errors?.[0]).toMatchObject({ key: 'trustedProjects' });
    });

    it('a malformed --allow flag', async () => {
      const { errors } = await loadSettings({ cwd, home, flags: { allow: ['Bash(ls'] } });
      expect(errors?.[0]).toMatchObject({ file: 'command line', key: '--allow[0]' });
    });
  });
});

describe('persistRule', () => {
  it('appends to .wield/settings.local.json, creating it and keeping other keys', async () => {
    const file = settingsPaths(cwd, home).local;
    await rm(path.dirname(file), { recursive: true });
    await persistRule(cwd, 'Bash(git push *)');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ permissions: { allow: ['Bash(git push *)'] } });
    await write(file, { hooks: {}, permissions: { allow: ['Bash(git push *)'], deny: ['Bash(rm *)'] } });
    await persistRule(cwd, 'Edit(/src/a.ts)');
    await persistRule(cwd, 'Edit(/src/a.ts)');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      hooks: {},
      permissions: { allow: ['Bash(git push *)', 'Edit(/src/a.ts)'], deny: ['Bash(rm *)'] },
    });
  });

  it('refuses a malformed rule and never overwrites a malformed file', async () => {
    await expect(persistRule(cwd, 'Bash(')).rejects.toThrow('missing closing');
    const file = settingsPaths(cwd, home).local;
    await write(file, '{ broken');
    await expect(persistRule(cwd, 'Bash(ls *)')).rejects.toThrow(file);
    expect(await readFile(file, 'utf8')).toBe('{ broken');
  });
});

describe('run from the home folder', () => {
  it('reads the shared file once, as the user settings', async () => {
    await write(settingsPaths(home, home).user, { permissions: { allow: ['Bash(make *)'] }, trustedProjects: [] });
    const { settings, errors, sources } = await loadSettings({ cwd: home, home });
    expect(errors).toBeUndefined();
    expect(texts(settings.permissions.allow)).toEqual(['Bash(make *)']);
    expect(sources.map((s) => s.kind)).toEqual(['user']);
  });
});
