// The analyser on git subcommands that print names, refs and metadata (src/coding/bash/programs/git-metadata.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBash } from '../../../../src/coding/bash/index.js';
import { verdictTable } from './verdicts.js';

const READ_ONLY: string[] = ['git branch -a', 'git tag -l "v*"', 'git config --get user.name', 'git rev-parse --abbrev-ref HEAD'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['git branch -D main', /branches/],
  ['git branch feature', /creates a branch/],
  ['git tag v1', /creates a tag/],
  ['git config user.name x', /changes configuration/],
];

verdictTable('git-metadata', READ_ONLY, NOT_READ_ONLY);

describe('git config --blob reads a file from history', () => {
  it('the hole, in real git: an ini-style file under a Read deny rule prints through --blob', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-git-blob-'));
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, encoding: 'utf8' });
      git('init', '-q', '.');
      mkdirSync(path.join(dir, 'private'));
      writeFileSync(path.join(dir, 'private', 'team.ini'), '[deploy]\n\ttoken = s3cr3t\n');
      writeFileSync(path.join(dir, 'credentials'), '[default]\n\taws_secret_access_key = AKIAxyz\n');
      git('add', '.');
      git('commit', '-qm', 'x');
      expect(git('config', '--blob=HEAD:private/team.ini', '--list')).toContain('deploy.token=s3cr3t');
      const readDenied = (p: string) => p.startsWith(path.join(dir, 'private'));
      const opts = { cwd: dir, roots: [dir], readDenied, contained: true };
      expect(analyzeBash('git config --blob=HEAD:private/team.ini --list', opts)).toMatchObject({
        readOnly: false,
        reason: /Read deny rule/,
      });
      expect(analyzeBash('git config --blob HEAD:private/team.ini -l', opts).readOnly).toBe(false);
      // A blob by id may be any file.
      expect(analyzeBash('git config --blob=0123abcd -l', opts).readOnly).toBe(false);
      // A secret-named file, with or without deny rules.
      expect(analyzeBash('git config --blob=HEAD:credentials -l', { cwd: dir, roots: [dir], contained: true }).readOnly).toBe(false);
      expect(analyzeBash('git config --blob=HEAD:.env -l', { cwd: dir, roots: [dir], contained: true }).readOnly).toBe(false);
      // Reading the repository's own config stays allowed.
      expect(analyzeBash('git config --get user.name', opts).readOnly).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
