// Shared fixture for the sandbox tests: a workspace with a git folder, planted secrets in the
// workspace and in a fake home, a folder outside the roots, and a runner that spawns what the
// wrap returns the way the Bash tool does (own process group, the environment the wrap asks for).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Duplex, Readable } from 'node:stream';
import { createSession } from '../../../src/runtime/tool/session.js';
import type { SessionState, ToolContext } from '../../../src/runtime/tool/types.js';
import type { WrappedCommand } from '../../../src/coding/sandbox/wrap.js';
import { stdioWith } from '../../../src/coding/sandbox/inherit.js';

export interface Fixture {
  base: string;
  ws: string;
  home: string;
  outside: string;
  session: SessionState;
  ctx: ToolContext;
}

export function makeFixture(): Fixture {
  const base = mkdtempSync(path.join(os.tmpdir(), 'wield-sandbox-test-'));
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  const outside = path.join(base, 'outside');
  for (const d of [ws, path.join(ws, 'sub'), path.join(home, '.ssh'), outside]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(ws, '.env'), 'API_TOKEN=workspace-secret\n');
  writeFileSync(path.join(ws, 'sub', '.env.local'), 'API_TOKEN=nested-secret\n');
  writeFileSync(path.join(ws, '.env.example'), 'API_TOKEN=\n');
  writeFileSync(path.join(ws, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  git(ws, 'init', '-q', '.');
  git(ws, 'add', 'notes.txt');
  git(ws, 'commit', '-qm', 'notes');
  writeFileSync(path.join(home, '.netrc'), 'machine x login y password z\n');
  const session = createSession({ cwd: ws, dir: path.join(base, 'session') });
  const ctx: ToolContext = { signal: new AbortController().signal, session, toolUseId: 't1', onProgress: () => {} };
  return { base, ws, home, outside, session, ctx };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** What the command wrote to fd 3 (the Bash tool reads the final cwd from there). */
  fd3: string;
}

export function runWrapped(cmd: WrappedCommand, cwd: string, onSpawn?: (pid: number) => void): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const stdio = stdioWith(['ignore', 'pipe', 'pipe', 'pipe', ...(cmd.bridge ? ['pipe' as const] : [])], cmd.inherit);
    const child = spawn(cmd.file, cmd.args, { cwd, detached: true, stdio: stdio.stdio, env: cmd.env?.(process.env) ?? process.env });
    stdio.close();
    if (cmd.bridge) cmd.bridge.serve(child.stdio[cmd.bridge.fd] as Duplex);
    let stdout = '';
    let stderr = '';
    let fd3 = '';
    (child.stdio[1] as Readable).on('data', (d: Buffer) => (stdout += d.toString()));
    (child.stdio[2] as Readable).on('data', (d: Buffer) => (stderr += d.toString()));
    (child.stdio[3] as Readable).on('data', (d: Buffer) => (fd3 += d.toString()));
    child.on('error', reject);
    child.on('spawn', () => onSpawn?.(child.pid ?? -1));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, fd3 }));
  });
}

/** git with an identity, so commits work without global config. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8' });
}

export const bash = (script: string): string[] => ['bash', '-c', script];
