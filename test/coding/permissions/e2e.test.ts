// End to end with real side effects: risky commands and edits go through the whole pipeline in
// default mode with nobody to ask (no TTY). Nothing in the scratch folder may change, while a
// read-only command really runs (so the denials are the policy's doing, not a broken runner).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, lstatSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolRegistry } from '../../../src/runtime/registry/registry.js';
import { createRuntime } from '../../../src/runtime/pipeline/runtime.js';
import { runToolCall } from '../../../src/runtime/pipeline/run.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { bashTool } from '../../../src/coding/tools/bash.js';
import { editTool } from '../../../src/coding/tools/edit.js';
import { writeTool } from '../../../src/coding/tools/write.js';
import { loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import type { PermissionMode, RuntimeContext } from '../../../src/runtime/pipeline/types.js';
import { readJsonl } from '../../support/data.js';

interface Row {
  command: string;
  expected: 'safe' | 'ask';
  checked?: string;
}

// Ask rows whose side effect the corpus authors observed in a scratch copy of a small fixture:
// safe to attempt here, and each would visibly change the tree if it ran.
const risky = readJsonl<Row>('bash-safety', 'commands-dev.jsonl')
  .filter((row) => row.expected === 'ask' && row.checked?.startsWith('side effect observed'))
  .map((row) => row.command);

const handWritten = [
  'touch pwned',
  'rm -rf build',
  'echo x >> README.md',
  'mkdir newdir',
  'git init again',
  'cp README.md copy.md',
  'sed -i s/a/b/ notes.txt',
  'ls && rm -rf build',
  'cd build && rm -f out.o',
];

let scratch: string;
let home: string;
let prevCwd: string;
let prevHome: string | undefined;

function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      const st = lstatSync(p);
      if (st.isDirectory()) {
        out.set(`${p}/`, String(st.mode));
        walk(p);
      } else {
        out.set(
          p,
          `${st.mode}:${createHash('sha256')
            .update(st.isSymbolicLink() ? p : readFileSync(p))
            .digest('hex')}`,
        );
      }
    }
  };
  walk(dir);
  return out;
}

function runtime(mode: PermissionMode): RuntimeContext {
  const registry = new ToolRegistry();
  for (const tool of [bashTool(), editTool(), writeTool()]) registry.register(tool);
  const session = createSession({ cwd: scratch, dir: path.join(home, 'session') });
  const policy = createPolicy({ settings: emptySettings(), mode, cwd: scratch, roots: [scratch], home });
  return createRuntime({ registry, session, policy });
}

beforeAll(async () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-e2e-')));
  scratch = path.join(root, 'ws');
  home = path.join(root, 'home');
  mkdirSync(path.join(scratch, 'build'), { recursive: true });
  mkdirSync(path.join(scratch, 'data'), { recursive: true });
  mkdirSync(home);
  const files: Record<string, string> = {
    'README.md': '# demo\n',
    'file.txt': 'a\nb\n',
    'notes.txt': 'notes\n',
    'a.txt': 'a\n',
    'config.yml': 'a: 1\n',
    'app.log': 'log line\n',
    'data.txt': '1\n2\n',
    'big-input.txt': 'x\n'.repeat(1000),
    'package.json': '{}\n',
    'build/out.o': 'obj',
    'data/d.txt': 'd',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(scratch, name), text);
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: scratch, env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'init');
  prevCwd = process.cwd();
  prevHome = process.env.HOME;
  // The Bash tool's analyser resolves paths from the process cwd; commands that slip through must stay in the scratch folder.
  process.chdir(scratch);
  process.env.HOME = home;
  await loadBashAnalyzer();
});

afterAll(() => {
  process.chdir(prevCwd);
  if (prevHome === undefined) delete process.env.HOME;
  else process.env.HOME = prevHome;
  rmSync(path.dirname(scratch), { recursive: true, force: true });
});

describe('default mode, no TTY: nothing is created or changed', () => {
  it('the corpus has risky rows to run', () => {
    expect(risky.length).toBeGreaterThan(50);
  });

  it('a read-only command really runs (control)', async () => {
    const result = await runToolCall(
      { id: 'c0', name: 'Bash', input: { command: 'ls' } },
      runtime('default'),
      new AbortController().signal,
    );
    expect(result.isError).toBe(false);
    expect(JSON.stringify(result.content)).toContain('README.md');
  });

  it('every risky command is refused and leaves the tree as it was', async () => {
    const before = snapshot(scratch);
    const rt = runtime('default');
    const allowed: string[] = [];
    for (const [n, command] of [...risky, ...handWritten].entries()) {
      const result = await runToolCall({ id: `c${n}`, name: 'Bash', input: { command } }, rt, new AbortController().signal);
      const text = result.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      if (!result.isError || !text.includes('Permission denied')) allowed.push(command);
    }
    expect(allowed).toEqual([]);
    expect(snapshot(scratch)).toEqual(before);
  });

  it('file edits ask, so they are refused; protected files are refused even in bypass mode', async () => {
    const before = snapshot(scratch);
    const signal = new AbortController().signal;
    const calls = [
      { name: 'Write', input: { file_path: 'new.txt', content: 'x' }, mode: 'default' },
      { name: 'Edit', input: { file_path: 'README.md', old_string: 'demo', new_string: 'pwned' }, mode: 'default' },
      { name: 'Write', input: { file_path: '.git/hooks/pre-commit', content: 'touch pwned' }, mode: 'bypassPermissions' },
      { name: 'Write', input: { file_path: '.wield/settings.json', content: '{}' }, mode: 'bypassPermissions' },
      { name: 'Write', input: { file_path: path.join(home, '.bashrc'), content: 'x' }, mode: 'bypassPermissions' },
      { name: 'Write', input: { file_path: '../outside.txt', content: 'x' }, mode: 'bypassPermissions' },
    ] as const;
    for (const [n, call] of calls.entries()) {
      const result = await runToolCall({ id: `w${n}`, name: call.name, input: call.input }, runtime(call.mode), signal);
      expect(result.isError, `${call.name} ${JSON.stringify(call.input)}`).toBe(true);
    }
    expect(snapshot(scratch)).toEqual(before);
    expect(readdirSync(path.dirname(scratch)).sort()).toEqual(['home', 'ws']);
    expect(readdirSync(home)).not.toContain('.bashrc');
  });
});
