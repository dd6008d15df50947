import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { protectedOutsideWorkspace, protectedWriteReason } from '../../../src/coding/permissions/protected.js';
import { bashRuleFor, editRuleFor } from '../../../src/coding/permissions/suggest.js';
import { matchPathRule, parseRule } from '../../../src/coding/permissions/rules.js';
import { loadBashAnalyzer } from '../../../src/coding/bash/index.js';

// Suggestions ask the analyser which subcommands are read-only on their own (suggest.ts).
beforeAll(async () => {
  await loadBashAnalyzer();
});

describe('protectedWriteReason', () => {
  it.each([
    '/ws/.git/hooks/pre-commit',
    '/ws/.git/config',
    '/ws/.git',
    '/ws/sub/.GIT/HEAD',
    '/ws/.wield/settings.local.json',
    '/home/u/.wield/settings.json',
    '/ws/.mcp.json',
    '/home/u/.ssh/authorized_keys',
    '/home/u/.bashrc',
    '/home/u/.zshrc',
    '/home/u/.profile',
    '/home/u/.gitconfig',
    // The sandbox keeps these too (one list): an editor applies .vscode/ as it changes; git reads ~/.config/git/config.
    '/ws/.vscode/tasks.json',
    '/ws/.VSCode/settings.json',
    '/home/u/.config/git/config',
    '/home/u/.config/Git/attributes',
  ])('refuses %s', (p) => {
    expect(protectedWriteReason(p)).toBeDefined();
  });
  it.each([
    '/ws/src/git.ts',
    '/ws/.gitignore',
    '/ws/.github/workflows/ci.yml',
    '/ws/docs/bashrc.md',
    '/ws/.wieldrc',
    '/ws/.config/gitx/a',
    '/ws/git/.config',
  ])('allows %s', (p) => {
    expect(protectedWriteReason(p)).toBeUndefined();
  });
});

describe('bashRuleFor', () => {
  it.each([
    ['git push origin main', 'Bash(git push *)'],
    ['npm install', 'Bash(npm install)'],
    ['make', 'Bash(make)'],
    ['rm -rf build', 'Bash(rm -rf build)'],
    ['python3 x.py', 'Bash(python3 x.py)'],
    ['FOO=1 npm test', 'Bash(FOO=1 npm test)'],
    ['cargo build --release', 'Bash(cargo build *)'],
    // No subcommand: `./run.sh *` would allow every option of the script.
    ['./run.sh --fast', 'Bash(./run.sh --fast)'],
    ['$CMD x', 'Bash($CMD x)'],
  ])('%s → %s', (command, rule) => {
    expect(bashRuleFor(command)).toBe(rule);
  });
  it('never a blanket rule, always parseable', () => {
    fc.assert(
      fc.property(fc.string(), (command) => {
        const rule = bashRuleFor(command);
        if (rule === undefined) return;
        expect(['Bash', 'Bash(*)']).not.toContain(rule);
        expect(parseRule(rule).ok).toBe(true);
      }),
    );
  });
});

describe('editRuleFor', () => {
  it('writes a rule that matches exactly that file', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z*?[\]{}()!+@ ]{1,10}$/), (name) => {
        const rule = parseRule(editRuleFor(`/ws/src/${name}`, '/ws'));
        expect(rule.ok).toBe(true);
        if (!rule.ok) return;
        expect(matchPathRule(rule.rule.content as string, `/ws/src/${name}`, { base: '/ws', home: '/h' })).toBe(true);
        if (name !== 'x') expect(matchPathRule(rule.rule.content as string, '/ws/src/x', { base: '/ws', home: '/h' })).toBe(false);
      }),
    );
    expect(editRuleFor('/other/a.ts', '/ws')).toBe('Edit(//other/a.ts)');
  });
});

describe('protectedOutsideWorkspace', () => {
  // projects.json records trusted projects: a command rewriting it would trust a project's settings.
  it("guards wield's projects record next to its user settings", () => {
    const list = protectedOutsideWorkspace(['/h'], ['/w']).map((e) => e.path);
    expect(list).toEqual(expect.arrayContaining(['/h/.wield/settings.json', '/h/.wield/projects.json', '/w/.wield/projects.json']));
  });
});
