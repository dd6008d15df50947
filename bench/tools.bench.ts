// Built-in tool figures: Grep over a generated 2,000-file tree vs running ripgrep directly
// (same flags, same run); peak RSS of a process whose Bash call prints 40 MB (vs one printing
// nothing); median Read of a 1 MB file.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rgPath } from '@vscode/ripgrep';
import { createSession } from '../src/runtime/tool/session.js';
import type { SessionState, ToolContext } from '../src/runtime/tool/types.js';
import { bashTool } from '../src/coding/tools/bash.js';
import { grepTool } from '../src/coding/tools/grep.js';
import { ripgrepArgs } from '../src/coding/tools/grep-search.js';
import type { SearchRequest } from '../src/coding/tools/grep-search.js';
import { readTool } from '../src/coding/tools/read.js';

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

function context(session: SessionState): ToolContext {
  return { signal: new AbortController().signal, session, toolUseId: 'bench', onProgress: () => undefined };
}

function tempSession(): SessionState {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wield-tools-bench-')));
  fs.mkdirSync(path.join(dir, 'ws'));
  return createSession({ cwd: path.join(dir, 'ws'), dir: path.join(dir, 'session') });
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'return', 'const', 'function', 'import', 'export', 'value', 'result', 'error'];

function generateTree(root: string): void {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let f = 0; f < 2000; f++) {
    const dir = path.join(root, `pkg${f % 40}`, `mod${f % 7}`);
    fs.mkdirSync(dir, { recursive: true });
    const lines: string[] = [];
    for (let l = 0; l < 120; l++) {
      const words = Array.from({ length: 8 }, () => WORDS[next() % WORDS.length]);
      if (next() % 97 === 0) words.push('needleToken');
      lines.push(words.join(' '));
    }
    fs.writeFileSync(path.join(dir, `file${f}.ts`), `${lines.join('\n')}\n`);
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'build/\n');
}

function runRgDirect(args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume(); // read (and drop) the output, as the tool has to
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

async function grepFigures() {
  const session = tempSession();
  generateTree(session.cwd);
  const tool = grepTool({ engine: 'ripgrep' });
  const ctx = context(session);
  const figures: Record<string, number> = {};
  for (const mode of ['content', 'files_with_matches'] as const) {
    const input = { pattern: 'needleToken', output_mode: mode };
    const req: SearchRequest = {
      pattern: input.pattern,
      target: session.cwd,
      isFile: false,
      mode,
      ignoreCase: false,
      before: 0,
      after: 0,
      multiline: false,
      maxCollect: 20_000,
      signal: ctx.signal,
    };
    const args = ripgrepArgs(req);
    for (let i = 0; i < 3; i++) {
      await tool.call(input, ctx);
      await runRgDirect(args, session.cwd);
    }
    const viaTool: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < 31; i++) {
      const start = performance.now();
      await tool.call(input, ctx);
      viaTool.push(performance.now() - start);
      direct.push(await runRgDirect(args, session.cwd));
    }
    figures[`grep_${mode}_tool_median_ms`] = round(median(viaTool));
    figures[`grep_${mode}_rg_direct_median_ms`] = round(median(direct));
    figures[`grep_${mode}_ratio`] = round(median(viaTool) / median(direct));
    // Best-of figures too: on a loaded machine the minimum shows the tool's own overhead.
    figures[`grep_${mode}_ratio_best`] = round(Math.min(...viaTool) / Math.min(...direct));
  }
  fs.rmSync(path.dirname(session.cwd), { recursive: true, force: true });
  return { grep_files: 2000, ...figures };
}

/** Child mode: one Bash call, then report this process's peak RSS. */
async function bashChild(bytes: number): Promise<void> {
  const session = tempSession();
  const tool = bashTool();
  const output = await tool.call({ command: `head -c ${bytes} /dev/zero | tr '\\0' x | fold -w 100` }, context(session));
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ maxRssMb, totalBytes: 'totalBytes' in output ? output.totalBytes : 0 }));
  fs.rmSync(path.dirname(session.cwd), { recursive: true, force: true });
}

function runChild(bytes: number): Promise<{ maxRssMb: number; totalBytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'bash-child', String(bytes)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(text) as { maxRssMb: number; totalBytes: number });
      } catch (error) {
        reject(error);
      }
    });
  });
}

async function bashFigures() {
  const baseline = await runChild(0);
  const big = await runChild(40_000_000);
  return {
    bash_40mb_output_bytes: big.totalBytes,
    bash_40mb_peak_rss_mb: round(big.maxRssMb, 1),
    bash_no_output_peak_rss_mb: round(baseline.maxRssMb, 1),
  };
}

async function readFigures() {
  const session = tempSession();
  const file = path.join(session.cwd, 'one-mb.txt');
  const line = 'const value = computeSomething(alpha, beta, gamma); // a typical source line\n';
  fs.writeFileSync(file, line.repeat(Math.ceil(1_000_000 / line.length)).slice(0, 1_000_000));
  const tool = readTool();
  const ctx = context(session);
  for (let i = 0; i < 10; i++) await tool.call({ file_path: 'one-mb.txt' }, ctx);
  const times: number[] = [];
  for (let i = 0; i < 100; i++) {
    const start = performance.now();
    tool.toModel(await tool.call({ file_path: 'one-mb.txt' }, ctx), { maxChars: tool.maxResultChars });
    times.push(performance.now() - start);
  }
  fs.rmSync(path.dirname(session.cwd), { recursive: true, force: true });
  return { read_1mb_median_ms: round(median(times), 3), read_1mb_p90_ms: round([...times].sort((a, b) => a - b)[89], 3) };
}

if (process.argv[2] === 'bash-child') {
  await bashChild(Number(process.argv[3]));
} else {
  const result = { ...(await grepFigures()), ...(await bashFigures()), ...(await readFigures()) };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
