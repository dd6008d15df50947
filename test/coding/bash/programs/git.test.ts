// The analyser on git's global options and the subcommand table (src/coding/bash/programs/git.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ro, verdictTable } from './verdicts.js';
import { CONTENT_SUBCOMMANDS } from '../../../../src/coding/bash/programs/git-contents.js';
import type { ProgramSpec } from '../../../../src/coding/bash/program.js';
import { DIFF, DIFF_LONG, LOG_LONG } from '../../../../src/coding/bash/programs/git-diff-options.js';
import { METADATA_SUBCOMMANDS } from '../../../../src/coding/bash/programs/git-metadata.js';

const READ_ONLY: string[] = ['git -C . log -n 3', 'git -C src rev-parse --show-prefix', 'git -C . status --short'];

const NOT_READ_ONLY: Array<[string, RegExp]> = [
  ['git -c core.pager=cat log', /configuration/],
  ['git -ccore.pager=cat log', /configuration/],
  ['git --git-dir=/tmp/x status', /another repository/],
  ['git -C /tmp status', /outside/],
  ['git push', /read-only git/],
  ['git -p log', /pager/],
];

verdictTable('git', READ_ONLY, NOT_READ_ONLY);

describe('subcommand names that are members of every object', () => {
  // `git constructor` found Object.prototype.constructor in the subcommand table and passed as a
  // read-only subcommand. In real git it runs the alias of that name: a planted `.git/config`
  // (a repository from a tarball) makes it run any program.
  it('the hole, in real bash: an alias named like a prototype member runs a program', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wield-git-alias-'));
    try {
      execFileSync('git', ['init', '-q', '.'], { cwd: dir });
      execFileSync('git', ['config', 'alias.constructor', `!touch ${path.join(dir, 'ran')}`], { cwd: dir });
      execFileSync('bash', ['-c', 'git constructor'], { cwd: dir });
      expect(existsSync(path.join(dir, 'ran'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'])('`git %s` is not read-only', (name) => {
    const a = ro(`git ${name}`);
    expect(a.readOnly).toBe(false);
    expect(a.reason).toMatch(/not a read-only git command/);
  });
});

describe("subcommand option specs agree with git's own parser (`git SUB -h`)", () => {
  // git's parse-options prints every option with its argument: `--name <v>` (required, or the
  // next argument by default), `--name[=<v>]` (optional, attached only), `--name` (a flag). A
  // spec that reads a value option as a flag lets its value pass as an operand or option, and
  // the reverse lets the analyser swallow a word git reads as an option. The diff and log
  // families print no option list and are checked against their manual instead.
  const kindOfSpec = (entry: string): 'flag' | 'value' | 'optional' =>
    entry.endsWith('=?') ? 'optional' : entry.endsWith('=') || entry.endsWith('=+') ? 'value' : 'flag';
  const usage = (sub: string): Map<string, 'flag' | 'value' | 'optional'> | undefined => {
    const run = spawnSync('git', [sub, '-h'], { encoding: 'utf8', cwd: os.tmpdir(), env: { ...process.env, GIT_PAGER: 'cat' } });
    const text = `${run.stdout}${run.stderr}`;
    const found = new Map<string, 'flag' | 'value' | 'optional'>();
    for (const m of text.matchAll(/^ {4}(?:-[\w?], )?--(\[no-\])?([\w-]+)(\[=[^\]\n]*\]| <[^>\n]+>|=<[^>\n]+>| \[[^\n]*)?/gm)) {
      // `--diff-filter [(A|C|…)…]`: an argument after a space is required, whatever its brackets.
      const kind = m[3] === undefined ? 'flag' : m[3].startsWith('[=') ? 'optional' : 'value';
      found.set(m[2], kind);
      if (m[1] !== undefined) found.set(`no-${m[2]}`, 'flag');
    }
    return found.size > 0 ? found : undefined;
  };
  /** Short letters as git lists them (`-n <n>`, `-t, --track[=…]`, `-D`), with their argument's kind. */
  const shortUsage = (sub: string): Map<string, 'flag' | 'value' | 'optional'> => {
    const run = spawnSync('git', [sub, '-h'], { encoding: 'utf8', cwd: os.tmpdir() });
    const found = new Map<string, 'flag' | 'value' | 'optional'>();
    for (const m of `${run.stdout}${run.stderr}`.matchAll(
      /^ {4}-([\w])(?:, --[\w-]+)?(\[=[^\]\n]*\]| <[^>\n]+>|=<[^>\n]+>|\[<[^>\n]+>\])?/gm,
    )) {
      found.set(m[1], m[2] === undefined ? 'flag' : m[2].startsWith('[') ? 'optional' : 'value');
    }
    return found;
  };
  const shortKinds = (optstring: string): Map<string, 'flag' | 'value' | 'optional'> => {
    const kinds = new Map<string, 'flag' | 'value' | 'optional'>();
    for (const m of optstring.matchAll(/([\w])(::?)?/g)) kinds.set(m[1], m[2] === '::' ? 'optional' : m[2] === ':' ? 'value' : 'flag');
    return kinds;
  };
  const FAMILIES = new Set([...DIFF_LONG, ...LOG_LONG]);
  const specs = Object.entries({ ...CONTENT_SUBCOMMANDS, ...METADATA_SUBCOMMANDS }).filter(([, spec]) => spec.long !== undefined);
  const mismatches = (sub: string, spec: ProgramSpec, skip: ReadonlySet<string>): string[] | undefined => {
    const listed = usage(sub);
    // No parse-options listing (diff, rev-parse), or a usage text of its own (rev-list).
    if (listed === undefined || sub === 'rev-list') return undefined;
    const wrong: string[] = [];
    // The shared diff and log families are not in the listing (`git log -h` names log's own options only).
    for (const entry of (spec.long ?? []).filter((e) => !skip.has(e))) {
      const name = entry.replace(/=[?+]?$/, '');
      const ours = kindOfSpec(entry);
      // parse-options takes `--no-X` for `--X` and `--X` for `--no-X`, both flags.
      const negation = listed.has(name.replace(/^no-/, '')) || listed.has(`no-${name}`);
      const theirs = listed.get(name) ?? (negation ? 'flag' : undefined);
      if (theirs === undefined) {
        // Newer than this git (it refuses the name), unless it abbreviates one option of another kind.
        const longer = [...listed].filter(([other]) => other.startsWith(name));
        if (longer.length === 1 && longer[0][1] !== ours)
          wrong.push(`--${name}: abbreviates --${longer[0][0]}, which git reads ${longer[0][1]}`);
      } else if (theirs !== ours) {
        wrong.push(`--${name}: spec reads ${ours}, git reads ${theirs}`);
      }
    }
    const letters = shortUsage(sub);
    for (const [letter, ours] of shortKinds(spec.short ?? '')) {
      const theirs = letters.get(letter);
      if (theirs !== undefined && theirs !== ours) wrong.push(`-${letter}: spec reads ${ours}, git reads ${theirs}`);
    }
    return wrong;
  };
  it.each(specs.map(([sub]) => sub))('git %s', (sub) => {
    expect(mismatches(sub, Object.fromEntries(specs)[sub], FAMILIES) ?? []).toEqual([]);
  });
  it('git diff: the diff option family, which `git diff -h` lists', () => {
    const wrong = mismatches('diff', DIFF, new Set());
    expect(wrong).toBeDefined();
    expect(wrong).toEqual([]);
  });
});
