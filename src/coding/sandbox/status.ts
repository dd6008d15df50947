// Is the sandbox usable here, and what exactly does it provide? Answered by running bwrap with
// the same flags real commands get (kernels and containers differ: user namespaces may be off,
// /proc may not be mountable), so the status never claims a protection that is not there.
import { execFile, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ISOLATION_FLAGS, sandboxCommand, type InheritedFile } from './argv.js';
import { stdioWith } from './inherit.js';
import { unixSocketFilter } from './seccomp.js';
import type { SandboxSettings } from './settings.js';

const run = promisify(execFile);
const PROBE_TIMEOUT_MS = 5_000;

export interface SandboxFeatures {
  /** bwrap can make a mount namespace with the root file system read-only. */
  readOnlyRoot: boolean;
  unshareNet: boolean;
  unsharePid: boolean;
  dieWithParent: boolean;
  newSession: boolean;
  capDrop: boolean;
  procMount: boolean;
  /** --perms/--tmpfs/--remount-ro, used to hide secrets and protect folders. */
  maskPaths: boolean;
  /** socket(AF_UNIX) refused by a seccomp filter (see seccomp.ts). */
  unixSocketsBlocked: boolean;
  /** sandbox.network.allowedHosts honoured, through wield's proxy (bridge.ts, network-proxy.ts). */
  networkAllowList: boolean;
}

export interface SandboxStatus {
  available: boolean;
  /** Why it is or is not available, in words a person can act on. */
  reason: string;
  bwrapPath?: string;
  version?: string;
  features: SandboxFeatures;
  /** Limits that depend on the settings (e.g. allowedHosts not honoured). */
  notes: string[];
}

type BaseStatus = Omit<SandboxStatus, 'notes'>;

const NO_FEATURES: SandboxFeatures = {
  readOnlyRoot: false,
  unshareNet: false,
  unsharePid: false,
  dieWithParent: false,
  newSession: false,
  capDrop: false,
  procMount: false,
  maskPaths: false,
  unixSocketsBlocked: false,
  networkAllowList: false,
};

const INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; ' +
  'Arch: pacman -S bubblewrap) or set sandbox.bwrapPath';

const cache = new Map<string, Promise<BaseStatus>>();

/** Cached per bwrap location; the settings only add notes. */
export async function sandboxStatus(settings: SandboxSettings = {}): Promise<SandboxStatus> {
  const key = settings.bwrapPath !== undefined ? `path:${settings.bwrapPath}` : `PATH:${process.env.PATH ?? ''}`;
  let base = cache.get(key);
  if (base === undefined) {
    base = probe(settings.bwrapPath);
    cache.set(key, base);
  }
  return { ...(await base), notes: settingsNotes(settings) };
}

function settingsNotes(settings: SandboxSettings): string[] {
  const notes: string[] = [];
  const hosts = settings.network?.allowedHosts ?? [];
  if (hosts.length > 0) {
    notes.push(
      `network: only ${hosts.join(', ')}, through wield's proxy (HTTP_PROXY and HTTPS_PROXY are set inside the sandbox; programs that ignore them get no network)`,
    );
  }
  if (settings.contain === false) {
    notes.push('commands that run without asking are not contained (sandbox.contain is false)');
  }
  return notes;
}

async function probe(configured: string | undefined): Promise<BaseStatus> {
  if (process.platform !== 'linux') {
    return unavailable(`the sandbox uses bubblewrap, which needs Linux; this is ${process.platform}`);
  }
  const bwrapPath = configured ?? (await findOnPath('bwrap'));
  if (bwrapPath === undefined) return unavailable(`bubblewrap (bwrap) is not on PATH: ${INSTALL_HINT}`);
  if (!(await isExecutable(bwrapPath))) {
    return unavailable(`sandbox.bwrapPath ${bwrapPath} is not an executable file: ${INSTALL_HINT}`);
  }
  let version: string | undefined;
  try {
    version = (await run(bwrapPath, ['--version'], { timeout: PROBE_TIMEOUT_MS })).stdout.trim();
  } catch (err) {
    return unavailable(`${bwrapPath} --version failed: ${message(err)}`, bwrapPath);
  }
  const filter = unixSocketFilter();
  const withFilter = filter === undefined ? 'no filter' : await tryFullSandbox(bwrapPath, filter);
  const full = withFilter === undefined ? undefined : await tryFullSandbox(bwrapPath, undefined);
  if (full === undefined) {
    const unixSocketsBlocked = withFilter === undefined;
    const sockets = unixSocketsBlocked
      ? 'Unix sockets blocked'
      : `Unix sockets NOT blocked (${filter === undefined ? `no seccomp filter for ${process.arch}` : `seccomp filter refused: ${withFilter}`})`;
    return {
      available: true,
      reason: `${version} at ${bwrapPath}: read-only root, writable workspace and session temp folder, protected paths read-only, secrets unreadable, no network, own PID namespace, no capabilities, ${sockets}`,
      bwrapPath,
      version,
      features: {
        readOnlyRoot: true,
        unshareNet: true,
        unsharePid: true,
        dieWithParent: true,
        newSession: true,
        capDrop: true,
        procMount: true,
        maskPaths: true,
        unixSocketsBlocked,
        networkAllowList: true,
      },
    };
  }
  const features = await probeFeatures(bwrapPath);
  const missing = Object.entries(features)
    .filter(([name, ok]) => !ok && name !== 'networkAllowList' && name !== 'unixSocketsBlocked')
    .map(([name]) => name);
  const what = features.readOnlyRoot
    ? `bwrap cannot provide: ${missing.join(', ') || 'the combined setup'}`
    : 'bwrap cannot create a namespace (user namespaces disabled, or a container without the privilege)';
  return {
    available: false,
    reason: `${what}; bwrap said: ${full}. Commands run unsandboxed, under the permission rules alone`,
    bwrapPath,
    version,
    features,
  };
}

function unavailable(reason: string, bwrapPath?: string): BaseStatus {
  return {
    available: false,
    reason: `${reason}. Commands run unsandboxed, under the permission rules alone`,
    bwrapPath,
    features: NO_FEATURES,
  };
}

/** Runs `true` with exactly the setup a real command gets; returns bwrap's error, if any. */
async function tryFullSandbox(bwrapPath: string, filter: Buffer | undefined): Promise<string | undefined> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wield-sandbox-probe-'));
  try {
    const work = path.join(dir, 'work');
    const support = path.join(dir, 'support');
    const tmp = path.join(support, 'tmp');
    const secretDir = path.join(dir, 'secret');
    const secretFile = path.join(dir, 'secret.txt');
    const denied = path.join(support, 'denied');
    await Promise.all([work, tmp, secretDir, path.join(work, '.git')].map((d) => mkdir(d, { recursive: true })));
    await Promise.all([secretFile, denied, path.join(work, '.git', 'config')].map((f) => writeFile(f, '')));
    await chmod(denied, 0o000);
    const filterFile = path.join(support, 'filter.bpf');
    if (filter !== undefined) await writeFile(filterFile, filter);
    const command = sandboxCommand(
      bwrapPath,
      {
        cwd: work,
        supportDir: support,
        tmpDir: tmp,
        writable: [work],
        readOnly: [path.join(work, '.git', 'config')],
        emptyReadOnlyDirs: [path.join(work, '.wield')],
        deniedDirs: [secretDir],
        deniedFiles: [secretFile],
        deniedFileSource: denied,
      },
      ['true'],
      filter === undefined ? undefined : filterFile,
    );
    return await bwrapError(command.file, command.args, command.inherit);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Only run when the full setup fails, to say which part this machine lacks. */
async function probeFeatures(bwrapPath: string): Promise<SandboxFeatures> {
  const base = ['--ro-bind', '/', '/'];
  const flag = (name: string): string[] => {
    const i = ISOLATION_FLAGS.indexOf(name);
    return name === '--cap-drop' ? ISOLATION_FLAGS.slice(i, i + 2) : [name];
  };
  const ok = async (extra: string[]): Promise<boolean> => (await bwrapError(bwrapPath, [...base, ...extra, 'true'])) === undefined;
  const readOnlyRoot = await ok([]);
  if (!readOnlyRoot) return NO_FEATURES;
  const [unshareNet, unsharePid, dieWithParent, newSession, capDrop, procMount, maskPaths] = await Promise.all([
    ok(flag('--unshare-net')),
    ok(flag('--unshare-pid')),
    ok(flag('--die-with-parent')),
    ok(flag('--new-session')),
    ok(flag('--cap-drop')),
    ok(['--proc', '/proc']),
    ok(['--perms', '0000', '--tmpfs', '/tmp', '--remount-ro', '/tmp']),
  ]);
  return {
    readOnlyRoot,
    unshareNet,
    unsharePid,
    dieWithParent,
    newSession,
    capDrop,
    procMount,
    maskPaths,
    unixSocketsBlocked: false,
    networkAllowList: false,
  };
}

/** What bwrap printed when it failed (its stderr, else how it ended), undefined when it ran. */
async function bwrapError(file: string, args: string[], inherit?: InheritedFile): Promise<string | undefined> {
  let stdio: ReturnType<typeof stdioWith>;
  try {
    stdio = stdioWith(['ignore', 'ignore', 'pipe'], inherit);
  } catch (err) {
    return message(err);
  }
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(file, args, { stdio: stdio.stdio, timeout: PROBE_TIMEOUT_MS });
    stdio.close();
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (err) => resolve(err.message));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(undefined);
      else resolve(stderr.trim() || (signal === null ? `bwrap exited with code ${code}` : `bwrap was ended by ${signal}`));
    });
  });
}

function message(err: unknown): string {
  if (err !== null && typeof err === 'object') {
    const stderr = 'stderr' in err && typeof err.stderr === 'string' ? err.stderr.trim() : '';
    if (stderr !== '') return stderr;
    if ('message' in err && typeof err.message === 'string') return err.message;
  }
  return String(err);
}

// Hand-written: a PATH lookup is a few lines and no `which` package is among the dependencies.
async function findOnPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The `noticed` item a folder's record keeps once the sandbox has been looked at there (see uncontainedNotice). */
export const SANDBOX_CHECKED = 'sandbox checked';
