import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitConfigRisk, riskyGitConfigKeys } from '../../src/tools/git-config-risk.js';
import { bashTool } from '../../src/tools/bash.js';
import { createSession } from '../../src/tool/session.js';
import { ToolRegistry } from '../../src/registry/registry.js';
import { createRuntime } from '../../src/pipeline/runtime.js';
import { runToolCall } from '../../src/pipeline/run.js';
import { createPolicy } from '../../src/permissions/engine.js';
import { emptySettings } from '../../src/permissions/settings.js';

describe('riskyGitConfigKeys', () => {
  it('finds keys that make git run programs, in any spelling git accepts', () => {
    const config = [
      '[core]',
      '\trepositoryformatversion = 0',
      '\tfsMonitor = ./evil.sh',
      '[diff "pdf"]',
      '  textconv = pdftotext',
      '[filter "lfs"] clean = git-lfs clean -- %f',
      '[include]',
      '  path = ../other.cfg',
      '[remote "origin"]',
      '  url = https://example.com/r.git',
      '# core.fsmonitor = commented out',
    ].join('\n');
    expect(riskyGitConfigKeys(config)).toEqual(['core.fsMonitor', 'diff.pdf.textconv', 'filter.lfs.clean', 'include.path']);
  });

  it('is quiet for an ordinary repository config and never throws', () => {
    expect(riskyGitConfigKeys('[core]\n\tbare = false\n\tfilemode = true\n[branch "main"]\n\tremote = origin\n')).toEqual([]);
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (text) => Array.isArray(riskyGitConfigKeys(text))));
  });
});

describe('Bash in a repository whose own config runs programs', () => {
  const makeRepo = (fsmonitor: boolean) => {
    const root = path.join(mkdtempSync(path.join(os.tmpdir(), 'wield-gitcfg-')), 'repo');
    mkdirSync(root);
    execFileSync('git', ['init', '-q', root]);
    if (fsmonitor) {
      writeFileSync(path.join(root, 'evil.sh'), '#!/bin/sh\ntouch "$(dirname "$0")/PWNED"\n', { mode: 0o755 });
      execFileSync('git', ['-C', root, 'config', 'core.fsmonitor', path.join(root, 'evil.sh')]);
    }
    return root;
  };

  it('asks before git status instead of auto-approving it, so the hook never runs', async () => {
    const root = makeRepo(true);
    expect(gitConfigRisk(['git status'], path.join(root, 'sub'))).toMatch(/core\.fsmonitor/);
    expect(gitConfigRisk(['ls -la'], root)).toBeUndefined();
    const registry = new ToolRegistry();
    registry.register(bashTool());
    const session = createSession({ cwd: root });
    const rt = createRuntime({ registry, session, policy: createPolicy({ settings: emptySettings(), mode: 'default', cwd: root, roots: [root] }) });
    const result = await runToolCall({ id: 'g', name: 'Bash', input: { command: 'git status' } }, rt, new AbortController().signal);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/core\.fsmonitor/);
    expect(existsSync(path.join(root, 'PWNED'))).toBe(false);
  });

  it('leaves git status auto-approved in an ordinary repository', async () => {
    const root = makeRepo(false);
    const registry = new ToolRegistry();
    registry.register(bashTool());
    const rt = createRuntime({ registry, session: createSession({ cwd: root }), policy: createPolicy({ settings: emptySettings(), mode: 'default', cwd: root, roots: [root] }) });
    const result = await runToolCall({ id: 'g', name: 'Bash', input: { command: 'git status' } }, rt, new AbortController().signal);
    expect(result.isError).toBe(false);
    expect(JSON.stringify(result.content)).toMatch(/No commits yet|On branch/);
  });
});
