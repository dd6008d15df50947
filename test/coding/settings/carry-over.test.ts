// Claude Code settings files start wield: keys it does not use are set aside and named, while a
// misspelt wield key still stops it.
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { nearWieldKey, setAsideUnused } from '../../../src/coding/settings/carry-over.js';
import { loadSettings } from '../../../src/coding/settings/load.js';

describe('setAsideUnused', () => {
  it('sets aside Claude Code keys wield does not use, top level and nested', () => {
    const { data, unused } = setAsideUnused({
      model: 'claude-x',
      env: { FOO: 'bar' },
      statusLine: { type: 'command', command: 'x' },
      includeCoAuthoredBy: false,
      permissions: { allow: ['Read'], disableBypassPermissionsMode: 'disable' },
      hooks: { Notification: [], PreToolUse: [] },
    });
    expect(unused.sort()).toEqual(['hooks.Notification', 'includeCoAuthoredBy', 'permissions.disableBypassPermissionsMode', 'statusLine']);
    expect(data).toEqual({ model: 'claude-x', env: { FOO: 'bar' }, permissions: { allow: ['Read'] }, hooks: { PreToolUse: [] } });
  });

  it('keeps a misspelt wield key for the schema to refuse', () => {
    expect(nearWieldKey('permisions')).toBe(true);
    expect(nearWieldKey('mcpServer')).toBe(true);
    expect(nearWieldKey('Hooks')).toBe(true);
    expect(nearWieldKey('statusLine')).toBe(false);
    expect(setAsideUnused({ permisions: {} }).unused).toEqual([]);
  });
});

describe('loadSettings with a Claude Code settings file', () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'wield-carry-home-'));
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'wield-carry-cwd-'));
  mkdirSync(path.join(home, '.wield'), { recursive: true });

  it('applies model and env, names the rest, and has no errors', async () => {
    writeFileSync(
      path.join(home, '.wield', 'settings.json'),
      JSON.stringify({ model: 'claude-x', env: { FOO: 'bar' }, statusLine: { type: 'command', command: 'x' }, includeCoAuthoredBy: false }),
    );
    const loaded = await loadSettings({ cwd, home });
    expect(loaded.errors).toBeUndefined();
    expect(loaded.settings.model).toBe('claude-x');
    expect(loaded.settings.env).toEqual({ FOO: 'bar' });
    expect(loaded.unused).toEqual([`${path.join(home, '.wield', 'settings.json')}: statusLine, includeCoAuthoredBy`]);
  });

  it('still refuses a misspelt wield key, naming it', async () => {
    writeFileSync(path.join(home, '.wield', 'settings.json'), JSON.stringify({ permisions: { deny: ['Bash'] } }));
    const loaded = await loadSettings({ cwd, home });
    expect(loaded.errors?.map((e) => e.key)).toEqual(['permisions']);
  });
});
