// Bundles the CLI (once per test run) and runs it as a real child process.
import { build } from 'esbuild';
import { bundleOptions, workerEntryPoints } from '../../scripts/esbuild-options.mjs';
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Tests and benches run from the repository root (vitest, npm run bench).
const ROOT = process.cwd();

/** Set by the test run's global setup to the CLI it bundled once for every test file. */
export const CLI_BUNDLE_ENV = 'WIELD_TEST_CLI_BUNDLE';

/**
 * Bundles src/cli/main.ts and the workers it starts (paths from ROOT, esbuild's working folder)
 * with the build's own esbuild options, into a private folder under node_modules so parallel builds never clobber each
 * other and bare imports still resolve.
 */
export async function bundleCli(): Promise<{ cli: string; cleanup: () => void }> {
  const outdir = path.join(ROOT, 'node_modules', '.cache', `wield-cli-test-${process.pid}-${Date.now()}`);
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { cli: path.join(ROOT, 'src/cli/main.ts'), ...workerEntryPoints },
    ...bundleOptions,
    outdir,
    splitting: true,
  });
  return { cli: path.join(outdir, 'cli.js'), cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
}

/**
 * The CLI to run: in a test run, the bundle its global setup made (its cleanup is the run's);
 * elsewhere (a bench), a bundle of its own.
 */
export async function buildCli(): Promise<{ cli: string; cleanup: () => void }> {
  const shared = process.env[CLI_BUNDLE_ENV];
  return shared ? { cli: shared, cleanup: () => undefined } : bundleCli();
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A clean environment: no keys or endpoints from the machine, a private home. */
export function cleanEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, WIELD_HOME: home, LANG: 'C.UTF-8', ...extra };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Written to the child's stdin (a pipe, closed after it); stdin is /dev/null otherwise. */
  input?: string;
}

export function runCli(cli: string, args: string[], options: RunOptions): Promise<CliRun> {
  return runProcess(process.execPath, [cli, ...args], options);
}

export function runProcess(file: string, args: string[], options: RunOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
    if (options.input !== undefined) child.stdin?.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Environment variables that point the CLI at a stand-in server of one dialect. */
export function providerEnv(dialect: 'anthropic' | 'openai' | 'openai-responses', url: string): Record<string, string> {
  return dialect === 'anthropic'
    ? { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'test-key' }
    : { OPENAI_BASE_URL: url, OPENAI_API_KEY: 'test-key' };
}

export function providerArgs(dialect: 'anthropic' | 'openai' | 'openai-responses'): string[] {
  return ['--provider', dialect, '--model', 'standin-model'];
}
