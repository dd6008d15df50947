// The Bash tool's `wrap` option: turns `['bash', '-c', script]` into the bwrap command line that
// runs it sandboxed, or passes it through (with the reason) when the sandbox must not or cannot
// be used. Never throws a protection away silently: `sandboxed` says what actually happens.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { SessionState, ToolContext } from '../../runtime/tool/types.js';
import { ToolError } from '../../runtime/tool/types.js';
import { sandboxCommand } from './argv.js';
import { bridgeSource } from './bridge.js';
import { serveBridge } from './network-proxy.js';
import { planSandbox } from './plan.js';
import { unixSocketFilter } from './seccomp.js';
import { DEFAULT_DENY_READ, expandPath, type SandboxSettings } from './settings.js';
import { sandboxStatus } from './status.js';

export interface WrappedCommand {
  file: string;
  args: string[];
  sandboxed: boolean;
  /** Why the command is not sandboxed (absent when it is). */
  reason?: string;
  /** Protected paths this command could still create or replace (see PlanResult.unprotected). */
  unprotected?: string[];
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
  /** The analyser's verdict for a Bash input; with sandbox.sandboxReadOnly false, read-only commands skip the sandbox. */
  isReadOnly?: (input: unknown) => boolean;
  /** Home folder for `~` in settings (tests use a fake one). */
  home?: string;
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

  return async (argv, ctx, input) => {
    const direct = (reason: string): WrappedCommand => ({ file: argv[0], args: argv.slice(1), sandboxed: false, reason });
    if (settings.enabled !== true) return direct('the sandbox is off (enable it with --sandbox or sandbox.enabled)');
    if (asksForNoSandbox(input)) return direct('the input asked for "sandbox": false');
    if (settings.sandboxReadOnly === false && options.isReadOnly?.(input) === true) {
      return direct('read-only commands run unsandboxed (sandbox.sandboxReadOnly is false)');
    }
    const status = await sandboxStatus(settings);
    if (!status.available || status.bwrapPath === undefined) return direct(`the sandbox is unavailable: ${status.reason}`);
    try {
      await prepare();
      const base = session.roots[0] ?? ctx.session.cwd;
      const { plan, unprotected } = await planSandbox({
        roots: session.roots,
        writableRoots: (settings.writableRoots ?? []).map((p) => expandPath(p, base, options.home)),
        denyRead: [...DEFAULT_DENY_READ, ...(settings.denyRead ?? [])],
        cwd: ctx.session.cwd,
        supportDir,
        tmpDir,
        deniedFileSource,
        home: options.home,
      });
      const seccomp = status.features.unixSocketsBlocked ? filterFile : undefined;
      const network = withNetwork(argv);
      return { ...sandboxCommand(status.bwrapPath, plan, network.argv, seccomp), sandboxed: true, unprotected, bridge: network.bridge };
    } catch (err) {
      // Running unsandboxed here would hand out a protection the user was promised; refuse instead.
      prepared = undefined;
      throw new ToolError(
        `Could not prepare the sandbox (${err instanceof Error ? err.message : String(err)}). ` +
          'Retry, or send "sandbox": false to run through the normal permission decision.',
      );
    }
  };
}

function asksForNoSandbox(input: unknown): boolean {
  return input !== null && typeof input === 'object' && 'sandbox' in input && input.sandbox === false;
}
