// The Bash tool's `wrap` option: turns `['bash', '-c', script]` into the bwrap command line that
// runs it sandboxed, or passes it through (with the reason) when the sandbox must not or cannot
// be used. Never throws a protection away silently: `sandboxed` says what actually happens.
import { chmod, lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { AllowBasis, SessionState, ToolContext } from '../../runtime/tool/types.js';
import { userHomes } from '../permissions/home.js';
import { protectedOutsideWorkspace } from '../permissions/protected.js';
import { ToolError } from '../../runtime/tool/types.js';
import { sandboxCommand, type InheritedFile } from './argv.js';
import { bridgeSource } from './bridge.js';
import { serveBridge } from './network-proxy.js';
import { planSandbox, type SandboxProfile, type ViewInput } from './plan.js';
import type { HidePredicate } from './scan.js';
import { unixSocketFilter } from './seccomp.js';
import { DEFAULT_DENY_READ, expandPath, type SandboxSettings } from './settings.js';
import { StandIns } from './stand-ins.js';
import { sandboxStatus } from './status.js';
import { messageOf } from '../../runtime/util/message.js';
import { mayNameSecret } from '../bash/paths.js';
import { machineFacts, type MachineFacts } from './view-facts.js';
import { withoutSecrets } from './view.js';
import { realOrUndefined } from './fs-probe.js';

export interface WrappedCommand {
  file: string;
  args: string[];
  sandboxed: boolean;
  /** A file to open and hand to the process at its fd when spawning it (bwrap's seccomp filter; see inherit.ts). */
  inherit?: InheritedFile;
  /** How it runs inside bubblewrap (absent when it does not). */
  profile?: SandboxProfile;
  /** What the spawner does to the environment it would pass (contained: leaves out secrets); absent, nothing. */
  env?: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
  /** Why the command is not sandboxed (absent when it is). */
  reason?: string;
  /** Protected paths this command could still create or replace (see PlanResult.unprotected). */
  unprotected?: string[];
  /**
   * Call when the command has ended (or failed to start): removes the stand-ins held for it
   * (stand-ins.ts) and what it created at protected paths nothing could be mounted on, and says
   * so; undefined when it created none.
   */
  afterRun?: () => Promise<string | undefined>;
  /**
   * Set when allowed hosts are reachable: spawn with one more pipe at `fd` and hand it to
   * `serve`, which serves the network bridge inside the sandbox until the pipe closes.
   */
  bridge?: CommandBridge;
}

export interface CommandBridge {
  fd: number;
  serve(channel: Duplex): void;
}

/** The child's fd carrying the network bridge's frames (0-2 are stdio, 3 the Bash side channel). */
export const BRIDGE_FD = 4;

export type SandboxWrap = (argv: string[], ctx: ToolContext, input: unknown) => Promise<WrappedCommand>;

export interface WrapOptions {
  /** Home folders for `~` in settings and whose credentials are hidden (tests use a fake one); the user's by default. */
  home?: string;
  /** Folders holding wield's own `.wield/` (WIELD_HOME), whose user settings a guarded command may not change. */
  wieldHomes?: readonly string[];
  /** The environment commands get (process.env by default): PATH's folders are shown in the view. */
  env?: NodeJS.ProcessEnv;
}

const supportDirOf = (session: SessionState): string => path.join(session.dir, 'sandbox');

/** Where the per-session temp folder lives: writable in the sandbox and its TMPDIR. */
export function sandboxTempDir(session: SessionState): string {
  return path.join(supportDirOf(session), 'tmp');
}

export function createSandboxWrap(settings: SandboxSettings, session: SessionState, options: WrapOptions = {}): SandboxWrap {
  const supportDir = supportDirOf(session);
  const tmpDir = sandboxTempDir(session);
  const deniedFileSource = path.join(supportDir, 'denied');
  const filterFile = path.join(supportDir, 'unix-sockets.bpf');
  const bridgeFile = path.join(supportDir, 'network-bridge.mjs');
  const filter = unixSocketFilter();
  const allowedHosts = settings.network?.allowedHosts ?? [];
  let prepared: Promise<void> | undefined;
  const prepare = (): Promise<void> =>
    (prepared ??= (async () => {
      await mkdir(tmpDir, { recursive: true, mode: 0o700 });
      await writeFile(deniedFileSource, '', { flag: 'a' });
      await chmod(deniedFileSource, 0o000);
      if (filter !== undefined) await writeFile(filterFile, filter);
      if (allowedHosts.length > 0) await writeFile(bridgeFile, bridgeSource(BRIDGE_FD));
    })());
  // With allowed hosts the command runs under the bridge (wield's own node, read-only inside).
  const withNetwork = (argv: string[]): { argv: string[]; bridge?: CommandBridge } =>
    allowedHosts.length === 0
      ? { argv }
      : {
          argv: [process.execPath, bridgeFile, ...argv],
          bridge: { fd: BRIDGE_FD, serve: (channel) => serveBridge(channel, { allowedHosts }) },
        };

  const homes = options.home === undefined ? userHomes() : [options.home];
  const protectedOutside = protectedOutsideWorkspace(homes, options.wieldHomes ?? []);
  // One count for all of this session's commands, which may run side by side.
  const standIns = new StandIns();
  // `~/` entries in every home a program may use (see userHomes).
  const defaultDenyRead = [
    ...new Set(homes.flatMap((home) => DEFAULT_DENY_READ.map((entry) => (entry.startsWith('~/') ? expandPath(entry, '/', home) : entry)))),
  ];

  // The view's machine facts, kept while PATH is the same (system folders and homes do not move).
  let machine: { path: string; facts: MachineFacts } | undefined;
  const env = options.env ?? process.env;
  const machineNow = (): MachineFacts => {
    const envPath = env.PATH ?? '';
    if (machine?.path !== envPath) machine = { path: envPath, facts: machineFacts({ homes, wieldHomes: options.wieldHomes ?? [], env }) };
    return machine.facts;
  };
  // Hidden in the view: what the analyser refuses to read (its own test, not a copy) and what Read deny rules cover.
  const readDenied = session.readDenied;
  // The walk meets every folder before what is in it, so the last two segments (a name, or a pair
  // like .config/gh) are enough, and cost half of the whole path on deep trees.
  const hide: HidePredicate = (abs, rel) => mayNameSecret(rel.split('/').slice(-2).join('/')) || readDenied?.(abs) === true;
  const viewFor = (profile: SandboxProfile): ViewInput | undefined =>
    profile === 'contained' || profile === 'confined'
      ? { machine: machineNow(), hide, sessionDir: realOrUndefined(session.dir) }
      : undefined;

  return async (argv, ctx, input) => {
    const direct = (reason: string): WrappedCommand => ({ file: argv[0], args: argv.slice(1), sandboxed: false, reason });
    if (asksForNoSandbox(input)) return direct('the input asked for "sandbox": false');
    const profile = profileFor(settings, ctx.allowedBy);
    if (profile === undefined) return direct('the sandbox is off (enable it with --sandbox or sandbox.enabled)');
    const status = await sandboxStatus(settings);
    if (!status.available || status.bwrapPath === undefined) return direct(`the sandbox is unavailable: ${status.reason}`);
    try {
      await prepare();
      const base = session.roots[0] ?? ctx.session.cwd;
      const {
        plan,
        unprotected,
        standIns: held,
      } = await planSandbox({
        profile,
        roots: session.roots,
        writableRoots: (settings.writableRoots ?? []).map((p) => expandPath(p, base, options.home)),
        denyRead: [...defaultDenyRead, ...(settings.denyRead ?? [])],
        cwd: ctx.session.cwd,
        supportDir,
        tmpDir,
        deniedFileSource,
        home: options.home,
        protectedOutside,
        view: viewFor(profile),
        standIns,
      });
      // Sockets are refused only where the network is: a guarded command keeps the host's.
      const seccomp = profile !== 'guarded' && status.features.unixSocketsBlocked ? filterFile : undefined;
      const network = profile === 'sandboxed' ? withNetwork(argv) : { argv };
      const missing = await absent(unprotected);
      return {
        ...sandboxCommand(status.bwrapPath, plan, network.argv, seccomp),
        sandboxed: true,
        profile,
        ...(profile === 'contained' ? { env: withoutSecrets } : {}),
        unprotected,
        bridge: network.bridge,
        afterRun:
          held.length === 0 && missing.length === 0
            ? undefined
            : () => {
                standIns.release(held);
                return removeCreated(missing);
              },
      };
    } catch (err) {
      // Running unsandboxed here would hand out a protection the user was promised; refuse instead.
      prepared = undefined;
      throw new ToolError(
        `Could not prepare the sandbox (${messageOf(err)}). ` +
          'Retry, or send "sandbox": false to run through the normal permission decision.',
      );
    }
  };
}

/**
 * How a call runs, from the settings and what allowed it. Nobody approved it: proven read-only,
 * it runs contained (the view, workspace read-only); allowed by a mode or a hook, confined (the
 * view, workspace writable). Allowed by a rule, sandboxed (the rule lets it change the workspace,
 * not escape it). With the sandbox on, what a person approved runs sandboxed, else as it is.
 * `sandbox.contain: false` runs the first three as the rest (a call nobody approved is then guarded).
 */
export function profileFor(settings: SandboxSettings, allowedBy: AllowBasis | undefined): SandboxProfile | undefined {
  const contain = settings.contain !== false;
  if (allowedBy === 'verdict' && contain) return 'contained';
  if (allowedBy === 'mode' && contain) return 'confined';
  if (settings.enabled === true || (allowedBy === 'rule' && contain)) return 'sandboxed';
  return allowedBy === undefined ? undefined : 'guarded';
}

const exists = (p: string): Promise<boolean> =>
  lstat(p).then(
    () => true,
    () => false,
  );

async function absent(paths: readonly string[]): Promise<string[]> {
  const found = await Promise.all(paths.map(exists));
  return paths.filter((_, i) => !found[i]);
}

/** Removes what a command created at protected paths that did not exist before it ran. */
async function removeCreated(missing: readonly string[]): Promise<string | undefined> {
  const now = await Promise.all(missing.map(exists));
  const made = missing.filter((_, i) => now[i]);
  if (made.length === 0) return undefined;
  await Promise.all(made.map((p) => rm(p, { recursive: true, force: true })));
  return `The command created ${made.join(', ')}, which no command may write (it decides what runs later); wield removed it. Ask the user to create it if it is needed.`;
}

function asksForNoSandbox(input: unknown): boolean {
  return input !== null && typeof input === 'object' && 'sandbox' in input && input.sandbox === false;
}
