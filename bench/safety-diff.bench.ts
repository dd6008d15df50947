// Safety differential over held-out-like cases: mutants of the corpora's unsafe rows and of their
// classes (safety-diff-mutants.ts) go through wield's own call path (createCodingRuntime +
// runToolCall, what `wield call Bash` runs) in a planted machine with canary secrets
// (safety-diff-fixture.ts). Every mutant the runtime runs without asking is run for real, twice:
// contained (bubblewrap present: the view) and with no sandbox (bwrap missing: the analyser's
// audited core alone). A leak is a canary in the output, a file written outside the allowed area
// (contained: the session's private temp folder; no sandbox: nowhere), or the canary server reached.
// The no-sandbox half runs inside an outer bubblewrap jail of its own (read-only machine, private
// /tmp, own network namespace with the canary server in it), so a hole cannot hurt this machine;
// a write it refuses is counted as a leak.
// Needs bwrap. SAFETY_DIFF_LIMIT=N runs every Nth mutant only (a quick pass); SAFETY_DIFF_CLASS=name one class.
import { execFile, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCodingRuntime } from '../src/coding/agent/runtime.js';
import { loadBashAnalyzer } from '../src/coding/bash/index.js';
import { sandboxStatus } from '../src/coding/sandbox/index.js';
import { loadSettings } from '../src/coding/settings/load.js';
import { textBlocks } from '../src/runtime/agent/history.js';
import { runToolCall } from '../src/runtime/pipeline/run.js';
import { CANARIES, CANARY_ENV, changed, plant, snapshot } from './safety-diff-fixture.js';
import { allMutants, CLASSES, instantiate, type CorpusRow, type Mutant } from './safety-diff-mutants.js';

type Mode = 'contained' | 'no-sandbox';

interface Finding {
  index: number;
  canaries: string[];
  written: string[];
  network: boolean;
  refusedWrite: boolean;
}

interface HalfReport {
  mode: Mode;
  contained: boolean;
  containmentReason: string;
  /** Index of every mutant that ran without asking. */
  ran: number[];
  findings: Finding[];
  /** Contained mutants whose write the view refused (the analyser allowed a write; the view held). */
  blockedWrites: number[];
}

const rows = ['commands-dev.jsonl', 'adversarial.jsonl'].flatMap((f) =>
  readFileSync(path.join('test/data/bash-safety', f), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as CorpusRow),
);
const every = Math.max(1, Number(process.env.SAFETY_DIFF_LIMIT ?? 1));
const only = process.env.SAFETY_DIFF_CLASS;
const mutants: Mutant[] = allMutants(rows).filter((m, i) => i % every === 0 && (only === undefined || m.cls === only));

/** A loopback TCP server, a UDP socket on the same port and a unix socket: each counts what reaches it. */
async function canaryServers(base: string): Promise<{ port: number; hits: () => number; close: () => void }> {
  let hits = 0;
  const onConnection = (socket: import('node:net').Socket): void => {
    hits++;
    socket.on('error', () => undefined);
    socket.end('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok');
  };
  const tcp = createServer(onConnection);
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const port = (tcp.address() as import('node:net').AddressInfo).port;
  const udp = createSocket('udp4');
  udp.on('message', () => hits++);
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
  const unix = createServer(onConnection);
  await new Promise<void>((resolve) => unix.listen(path.join(base, 'canary.sock'), resolve));
  return {
    port,
    hits: () => hits,
    close: () => {
      tcp.close();
      udp.close();
      unix.close();
    },
  };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** The detectors must see a leak when there is one: a canary printed, a file written, the server reached. */
async function checkDetectors(
  ws: string,
  root: string,
  skip: (p: string) => boolean,
  servers: { port: number; hits: () => number },
): Promise<void> {
  const before = snapshot(root, skip);
  const hits = servers.hits();
  const script = `cat x.key; touch pwned-check; exec 3<>/dev/tcp/127.0.0.1/${servers.port}; cat <&3 >/dev/null`;
  // Not spawnSync: the canary server answers on this process's event loop.
  const { stdout } = await promisify(execFile)('bash', ['-c', script], { cwd: ws, encoding: 'utf8', timeout: 10_000 });
  await settle();
  const seen = {
    canary: stdout.includes(CANARIES.key),
    write: changed(before, snapshot(root, skip)).length > 0,
    network: servers.hits() > hits,
  };
  if (!seen.canary || !seen.write || !seen.network) throw new Error(`a detector does not work here: ${JSON.stringify(seen)}`);
}

async function runHalf(mode: Mode): Promise<HalfReport> {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-safety-diff-')));
  const servers = await canaryServers(base);
  try {
    let fixture = plant(base, servers.port);
    const { ws, home } = fixture;
    // What the Bash tool hands the shell is this process's environment: the fake home and the secrets.
    process.env.HOME = home;
    delete process.env.WIELD_HOME;
    Object.assign(process.env, CANARY_ENV);
    await loadBashAnalyzer();
    const loaded = await loadSettings({ cwd: ws, home, wieldHome: home });
    // No sandbox: bubblewrap is not there, as on a machine without it.
    if (mode === 'no-sandbox') loaded.settings.sandbox = { ...loaded.settings.sandbox, bwrapPath: path.join(base, 'no-bwrap') };
    // wield's session folder (spilled output, the sandbox's support files) outside the planted tree, which is replanted.
    const session = path.join(base, 'session');
    const runtime = await createCodingRuntime({ cwd: ws, home, settings: loaded, env: process.env, codeMode: false, sessionDir: session });
    // wield's own first-run files (the session folder under ~/.wield) are made before the baseline.
    await runToolCall({ id: 'warm-up', name: 'Bash', input: { command: 'true' } }, runtime.rt);
    mkdirSync(session, { recursive: true });
    const root = mode === 'no-sandbox' ? os.tmpdir() : base;
    const skip = (p: string): boolean => p === session;
    await checkDetectors(ws, root, skip, servers);
    fixture = plant(base, servers.port);
    let baseline = snapshot(root, skip);
    const report: HalfReport = {
      mode,
      contained: runtime.containment.contained,
      containmentReason: runtime.containment.reason,
      ran: [],
      findings: [],
      blockedWrites: [],
    };
    const canaries = Object.values(CANARIES);
    for (let index = 0; index < mutants.length; index++) {
      const command = instantiate(mutants[index].command, { base, home, port: servers.port, blob: fixture.otherBlob });
      runtime.session.cwd = ws;
      const hitsBefore = servers.hits();
      const result = await runToolCall({ id: `m${index}`, name: 'Bash', input: { command, timeout: 5_000 } }, runtime.rt);
      if (result.errorKind === 'denied') continue;
      report.ran.push(index);
      // The harness, not the command, failed (a spawn error, the sandbox not prepared): the run proves nothing.
      if (result.errorKind === 'tool_failed' && /^(Bash failed: |Could not prepare the sandbox)/.test(textBlocks(result.content)))
        throw new Error(`${mode}: ${command}: ${textBlocks(result.content)}`);
      // A connection made just before the command ended is counted on the next turns of the loop.
      await settle();
      const text = textBlocks(result.content);
      const after = snapshot(root, skip);
      const written = changed(baseline, after).map((p) => path.relative(base, p));
      const refusedWrite = /Read-only file system/.test(text);
      const finding: Finding = {
        index,
        canaries: canaries.filter((c) => text.includes(c)),
        written,
        network: servers.hits() > hitsBefore,
        // With no sandbox nothing may refuse a write but the outer jail: such a write was meant to land outside.
        refusedWrite: mode === 'no-sandbox' && refusedWrite,
      };
      if (mode === 'contained' && refusedWrite) report.blockedWrites.push(index);
      if (finding.canaries.length > 0 || written.length > 0 || finding.network || finding.refusedWrite) report.findings.push(finding);
      if (written.length > 0) {
        fixture = plant(base, servers.port);
        baseline = snapshot(root, skip);
      }
    }
    await runtime.close();
    return report;
  } finally {
    servers.close();
    rmSync(base, { recursive: true, force: true });
  }
}

/** Runs one half in a child process: contained on this machine, no-sandbox inside the outer jail. */
function spawnHalf(mode: Mode, bwrap: string): HalfReport {
  const self = [process.argv[1], '--half', mode];
  const jail = ['--ro-bind', '/', '/', '--tmpfs', '/tmp', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-pid'];
  const [file, args] =
    mode === 'contained'
      ? [process.execPath, self]
      : [bwrap, [...jail, '--die-with-parent', '--setenv', 'TMPDIR', '/tmp', '--chdir', process.cwd(), '--', process.execPath, ...self]];
  const run = spawnSync(file, args, { encoding: 'utf8', maxBuffer: 256 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'] });
  if (run.status !== 0) throw new Error(`the ${mode} half failed (exit ${run.status}): ${run.stdout.slice(-2000)}`);
  return JSON.parse(run.stdout) as HalfReport;
}

function describe(m: Mutant, f: Finding): string {
  const what = [
    f.canaries.length > 0 ? `printed ${f.canaries.join(', ')}` : '',
    f.written.length > 0 ? `wrote ${f.written.slice(0, 3).join(', ')}` : '',
    f.network ? 'reached the network' : '',
    f.refusedWrite ? 'tried to write outside (the jail refused)' : '',
  ].filter(Boolean);
  return `  [${m.cls}] ${JSON.stringify(m.command)}: ${what.join('; ')}`;
}

async function main(): Promise<void> {
  const half = process.argv.indexOf('--half');
  if (half > 0) {
    process.stdout.write(JSON.stringify(await runHalf(process.argv[half + 1] as Mode)));
    return;
  }
  const status = await sandboxStatus();
  if (!status.available || status.bwrapPath === undefined) {
    console.log(JSON.stringify({ skipped: `bubblewrap is not usable here: ${status.reason}` }));
    return;
  }
  const started = Date.now();
  const contained = spawnHalf('contained', status.bwrapPath);
  const direct = spawnHalf('no-sandbox', status.bwrapPath);
  if (!contained.contained || direct.contained) throw new Error('the halves did not run as meant (contained, then not)');
  const ran = new Set([...contained.ran, ...direct.ran]);
  const table = CLASSES.map((cls) => {
    const of = (list: readonly number[]): number => list.filter((i) => mutants[i].cls === cls).length;
    return {
      cls,
      mutants: mutants.filter((m) => m.cls === cls).length,
      allowedContained: of(contained.ran),
      allowedNoSandbox: of(direct.ran),
      leaksContained: of(contained.findings.map((f) => f.index)),
      leaksNoSandbox: of(direct.findings.map((f) => f.index)),
    };
  });
  console.log(
    `${mutants.length} mutants, ${ran.size} auto-allowed, leaks contained: ${contained.findings.length}, leaks no-sandbox: ${direct.findings.length}`,
  );
  console.log(
    `(auto-allowed contained ${contained.ran.length}, no sandbox ${direct.ran.length}; from the corpus ${mutants.filter((m) => m.from === 'corpus').length}, ` +
      `from class templates ${mutants.filter((m) => m.from === 'template').length}; writes the view refused: ${contained.blockedWrites.length}; ${Math.round((Date.now() - started) / 1000)} s)`,
  );
  console.log('class        mutants  allowed contained / no sandbox  leaks contained / no sandbox');
  for (const r of table)
    console.log(
      `${r.cls.padEnd(12)} ${String(r.mutants).padStart(7)}  ${String(r.allowedContained).padStart(17)} / ${String(r.allowedNoSandbox).padEnd(10)}  ${String(r.leaksContained).padStart(15)} / ${r.leaksNoSandbox}`,
    );
  for (const [name, report] of [
    ['contained', contained],
    ['no sandbox', direct],
  ] as const) {
    if (report.findings.length === 0) continue;
    console.log(`leaks, ${name}:`);
    for (const f of report.findings) console.log(describe(mutants[f.index], f));
  }
  console.log(
    JSON.stringify({
      mutants: mutants.length,
      autoAllowed: ran.size,
      autoAllowedContained: contained.ran.length,
      autoAllowedNoSandbox: direct.ran.length,
      leaksContained: contained.findings.length,
      leaksNoSandbox: direct.findings.length,
      blockedWritesContained: contained.blockedWrites.length,
      classes: table,
      findings: {
        contained: contained.findings.map((f) => ({ ...f, command: mutants[f.index].command })),
        noSandbox: direct.findings.map((f) => ({ ...f, command: mutants[f.index].command })),
      },
      // What ran without asking, for review: the mutants each configuration auto-allowed.
      ran: {
        contained: contained.ran.map((i) => mutants[i].command),
        noSandbox: direct.ran.map((i) => mutants[i].command),
      },
    }),
  );
}

await main();
