import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { checkBash, checkPath, register } from '../../../src/cli/commands/check.js';

let root: string;
let cwd: string;
let prevHome: string | undefined;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-check-')));
  cwd = path.join(root, 'ws');
  mkdirSync(path.join(cwd, '.wield'), { recursive: true });
  mkdirSync(path.join(root, 'home', '.wield'), { recursive: true });
  mkdirSync(path.join(root, 'extra'));
  writeFileSync(
    path.join(cwd, '.wield', 'settings.json'),
    JSON.stringify({ permissions: { deny: ['Bash(git push *)'], allow: ['Bash(npm test)'] } }),
  );
  writeFileSync(
    path.join(root, 'home', '.wield', 'settings.json'),
    JSON.stringify({ permissions: { additionalDirectories: [path.join(root, 'extra')] } }),
  );
  symlinkSync('/etc', path.join(cwd, 'etc-link'));
  prevHome = process.env.WIELD_HOME;
  process.env.WIELD_HOME = path.join(root, 'home');
});
afterAll(() => {
  if (prevHome === undefined) delete process.env.WIELD_HOME;
  else process.env.WIELD_HOME = prevHome;
  rmSync(root, { recursive: true, force: true });
});

describe('wield check bash', () => {
  it('a read-only command is allowed, with its sub-commands', async () => {
    const r = await checkBash('ls -la && git status', {}, cwd);
    expect(r).toMatchObject({ decision: 'allow', readOnly: true });
    expect(r.commands.length).toBe(2);
    expect(Object.keys(r).sort()).toEqual(['commands', 'decision', 'readOnly', 'reason']);
  });
  it('a writing command asks and names the rule that would allow it', async () => {
    const r = await checkBash('npm install left-pad', {}, cwd);
    expect(r).toMatchObject({ decision: 'ask', readOnly: false });
    expect(r.reason).toContain('Bash(npm install *)');
  });
  it('project deny rules hold even untrusted; its allow rules need trust', async () => {
    expect((await checkBash('git push origin main', {}, cwd)).decision).toBe('deny');
    expect((await checkBash('npm test', {}, cwd)).decision).toBe('ask');
    expect((await checkBash('npm test', { trust: true }, cwd)).decision).toBe('allow');
  });
  it('follows the flags: mode, allow and deny', async () => {
    expect((await checkBash('npm install', { permissionMode: 'plan' }, cwd)).decision).toBe('deny');
    expect((await checkBash('npm install', { permissionMode: 'bypassPermissions' }, cwd)).decision).toBe('allow');
    expect((await checkBash('make build', { allow: ['Bash(make *)'] }, cwd)).decision).toBe('allow');
    expect((await checkBash('ls', { deny: ['Bash(ls *)'] }, cwd)).decision).toBe('deny');
  });
});

describe('wield check path', () => {
  it('inside, outside, extra folders and symlinks', async () => {
    expect(await checkPath('src/a.ts', {}, cwd)).toMatchObject({ inside: true, resolved: path.join(cwd, 'src/a.ts') });
    expect(await checkPath('../extra/x', {}, cwd)).toMatchObject({ inside: true });
    expect(await checkPath('../other/x', {}, cwd)).toMatchObject({ inside: false });
    const link = await checkPath('etc-link/passwd', {}, cwd);
    expect(link).toMatchObject({ inside: false, resolved: '/etc/passwd' });
    expect(link.reason).toContain('outside');
  });
});

describe('register', () => {
  it('adds `check bash` and `check path` with --json', () => {
    const program = new Command('wield');
    register(program);
    const check = program.commands.find((c) => c.name() === 'check');
    expect(check?.commands.map((c) => c.name())).toEqual(['bash', 'path']);
    for (const sub of check?.commands ?? []) expect(sub.options.map((o) => o.long)).toContain('--json');
  });
});
