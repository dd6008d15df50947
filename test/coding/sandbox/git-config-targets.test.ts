// What git's config points at, asked before every sandboxed command and cached between them. The
// cache must never hide a change: a config written between two commands (by the person, or by a
// command the sandbox let write it) is seen by the next plan. And what git does not read today
// but will after a branch switch (a conditional include whose condition is false now) is
// protected as if it were read.
import { existsSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitConfigTargets } from '../../../src/coding/sandbox/git-config-targets.js';
import { createSandboxWrap, sandboxStatus } from '../../../src/coding/sandbox/index.js';
import { bash, git, makeFixture, runWrapped, type Fixture } from './helpers.js';

const status = await sandboxStatus();
let f: Fixture;
beforeEach(() => {
  f = makeFixture();
});
afterEach(() => rmSync(f.base, { recursive: true, force: true }));

const targets = async (): Promise<string[]> => (await gitConfigTargets(f.ws, os.homedir())).map((t) => t.path);

describe('gitConfigTargets between two commands', () => {
  it('sees a hooksPath written into a config that was empty at the first plan', async () => {
    // An empty config lists no entry, so git names no file for it: it must be watched anyway.
    truncateSync(path.join(f.ws, '.git', 'config'));
    expect(await targets()).not.toContain(path.join(f.ws, '.githooks'));
    writeFileSync(path.join(f.ws, '.git', 'config'), '[core]\n\thooksPath = .githooks\n');
    expect(await targets()).toContain(path.join(f.ws, '.githooks'));
  });

  it('sees a hooksPath in an included file created between two plans', async () => {
    git(f.ws, 'config', 'include.path', '../team.gitconfig');
    expect(await targets()).toContain(path.join(f.ws, 'team.gitconfig'));
    writeFileSync(path.join(f.ws, 'team.gitconfig'), '[core]\n\thooksPath = .team-hooks\n');
    expect(await targets()).toContain(path.join(f.ws, '.team-hooks'));
  });

  it('sees a key added to a config file of the same size and time (the inode and change time differ)', async () => {
    git(f.ws, 'config', 'core.hooksPath', '.hooks-a');
    expect(await targets()).toContain(path.join(f.ws, '.hooks-a'));
    git(f.ws, 'config', 'core.hooksPath', '.hooks-b');
    const now = await targets();
    expect(now).toContain(path.join(f.ws, '.hooks-b'));
    expect(now).not.toContain(path.join(f.ws, '.hooks-a'));
  });
});

describe('conditional includes git does not read on this branch', () => {
  const plantInactiveInclude = (): void => {
    // Tracked files, as a cloned repository brings them: inc1 is named by a condition that is
    // false on this branch, so git lists neither what inc1 holds nor what it includes.
    writeFileSync(path.join(f.ws, 'inc1'), '[include]\n\tpath = inc2\n[core]\n\thooksPath = .evil-hooks\n');
    git(f.ws, 'config', 'includeIf.onbranch:evil.path', '../inc1');
  };

  it('protects the files and folders they name, as if the condition held', async () => {
    plantInactiveInclude();
    const found = await targets();
    expect(found).toContain(path.join(f.ws, 'inc1'));
    expect(found).toContain(path.join(f.ws, 'inc2'));
    expect(found).toContain(path.join(f.ws, '.evil-hooks'));
  });

  it.skipIf(!status.available)('a sandboxed command cannot plant the nested include and switch to the branch that reads it', async () => {
    plantInactiveInclude();
    const marker = path.join(f.base, 'ran');
    writeFileSync(path.join(f.outside, 'fsmon.sh'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    const attack = `printf '[core]\\n\\tfsmonitor = ${f.outside}/fsmon.sh\\n' > inc2 && git checkout -q -b evil`;
    // The hole, in plain bash: after the attack, the next plain `git status` runs the monitor.
    const plainRepo = path.join(f.base, 'plain');
    mkdirSync(plainRepo);
    git(plainRepo, 'init', '-q', '.');
    git(plainRepo, 'commit', '-q', '--allow-empty', '-m', 'x');
    writeFileSync(path.join(plainRepo, 'inc1'), '[include]\n\tpath = inc2\n');
    git(plainRepo, 'config', 'includeIf.onbranch:evil.path', '../inc1');
    await runWrapped({ file: 'bash', args: ['-c', attack], sandboxed: false }, plainRepo);
    git(plainRepo, 'status', '--short');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    // Sandboxed (workspace writable): inc2 is read-only (an empty placeholder), so nothing is planted.
    const wrap = createSandboxWrap({ enabled: true }, f.session, { home: f.home });
    const cmd = await wrap(bash(attack), f.ctx, { command: attack });
    const result = await runWrapped(cmd, f.ws);
    expect(result.code).not.toBe(0);
    expect(readFileSync(path.join(f.ws, 'inc2'), 'utf8')).toBe('');
    git(f.ws, 'checkout', '-q', '-b', 'evil');
    git(f.ws, 'status', '--short');
    expect(existsSync(marker)).toBe(false);
  });
});
