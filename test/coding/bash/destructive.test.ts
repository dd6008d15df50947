// isDestructive: deleting and overwriting commands, through wrappers; never for reads or new files.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash, loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { isDestructiveCommand } from '../../../src/coding/bash/destructive.js';

const cwd = mkdtempSync(path.join(os.tmpdir(), 'wield-destructive-'));
writeFileSync(path.join(cwd, 'existing.txt'), 'x');
const scope = { cwd, exists: (p: string) => p === path.join(cwd, 'existing.txt') };
const destructive = (command: string): boolean => isDestructiveCommand(command, analyzeBash(command, { cwd, roots: [cwd] }), scope);

beforeAll(() => loadBashAnalyzer());

describe('isDestructiveCommand', () => {
  it.each([
    'rm -rf x',
    'sudo /bin/rm x',
    'ls | xargs rm',
    'FOO=1 rmdir d',
    'find . -name "*.o" -delete',
    'git reset --hard HEAD~1',
    'git -C . reset --hard',
    'git clean -fdx',
    'git checkout -- .',
    'git push --force origin main',
    'git branch -D topic',
    'git stash drop',
    'mv new.txt existing.txt',
    'cp a.txt existing.txt',
    'echo hi > existing.txt',
    'echo hi >| existing.txt',
    'cat a | tee existing.txt',
    'sed -i s/a/b/ existing.txt',
    'dd if=/dev/zero of=disk.img',
    'truncate -s 0 existing.txt',
  ])('%s', (command) => expect(destructive(command)).toBe(true));

  it.each([
    'ls -la',
    'cat existing.txt',
    'git status',
    'git push origin main',
    'mv a.txt new.txt',
    'echo hi > new.txt',
    'echo hi >> existing.txt',
    'echo hi > /dev/null',
    'cat a | tee -a existing.txt',
    'grep rm notes.txt',
  ])('not: %s', (command) => expect(destructive(command)).toBe(false));
});
