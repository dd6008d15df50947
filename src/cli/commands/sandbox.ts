// `wield sandbox status [--json]` and `wield doctor [--json]`: what this machine gives wield,
// said plainly, so nobody assumes a protection that is not there. Heavy checks load on demand.
import type { Command } from 'commander';
import { access, constants } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { autoAllowsBash, sandboxStatus, type SandboxSettings, type SandboxStatus } from '../../coding/sandbox/index.js';
import { containment, uncontainedNotice } from '../../coding/permissions/containment.js';
import { commandAction as run, writeOut } from '../exit.js';
import { addJsonOption, addRuntimeOptions, type CliFlags } from '../options.js';
import { messageOf } from '../../runtime/util/message.js';
import { shippedRipgrepPath } from '../../coding/tools/grep-search.js';

const NODE_MAJOR_REQUIRED = 20; // package.json "engines"

export interface DoctorCheck {
  name: string;
  /** fail: wield cannot work as documented; warn: it works with less. */
  level: 'ok' | 'warn' | 'fail';
  detail: string;
}

export function register(program: Command): void {
  const sandbox = program.command('sandbox').description('the Bash sandbox (bubblewrap)');
  // The runtime flags (--trust, --sandbox…) as every command takes them, before or after the name.
  const status = addJsonOption(
    addRuntimeOptions(
      sandbox.command('status').description('whether the sandbox can run here, what it protects, and why not (exit 1 when unavailable)'),
    ),
  );
  status.action(
    run(async () => {
      const flags = status.optsWithGlobals<CliFlags>();
      const settings = await sandboxSettings(flags);
      const s = await sandboxStatus(settings);
      const report = {
        ...s,
        enabled: settings.enabled === true,
        autoAllowBash: autoAllowsBash(settings),
        contain: settings.contain !== false,
      };
      await writeOut(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatSandboxStatus(report));
      return s.available ? 0 : 1;
    }),
  );

  const doctor = addJsonOption(
    addRuntimeOptions(
      program
        .command('doctor')
        .description(
          'check Node, the sandbox, ripgrep, the Bash parser and the model provider, and name the instruction files loaded (exit 1 on a failure)',
        ),
    ),
  );
  doctor.action(
    run(async () => {
      const flags = doctor.optsWithGlobals<CliFlags>();
      const checks = await doctorChecks(process.env, flags);
      await writeOut(flags.json ? `${JSON.stringify(checks, null, 2)}\n` : formatChecks(checks));
      return checks.some((c) => c.level === 'fail') ? 1 : 0;
    }),
  );
}

/** The `sandbox` settings this folder's commands run under: the same loader and flags as theirs. */
async function sandboxSettings(flags: CliFlags): Promise<SandboxSettings> {
  const { loadCliSettings } = await import('../settings.js');
  const { loaded } = await loadCliSettings(process.cwd(), flags);
  return loaded.settings.sandbox;
}

export interface SandboxReport extends SandboxStatus {
  enabled: boolean;
  autoAllowBash: boolean;
  contain: boolean;
}

export function formatSandboxStatus(report: SandboxReport): string {
  const lines = [
    `sandbox: ${report.available ? 'available' : 'UNAVAILABLE'}${report.available ? `, ${report.enabled ? 'on' : 'off (turn on with --sandbox or "sandbox": {"enabled": true})'}` : ''}`,
    `  ${report.reason}`,
  ];
  if (report.available) {
    // The same three answers the permission engine and the Bash tool act on (profileFor, autoAllowsBash).
    lines.push(
      `  Bash calls nobody approved (read-only, a mode, a hook): ${report.contain ? 'run in a view of the machine: the workspace (read-only unless a mode allowed writing), system folders, PATH; no home folder, no network, secrets hidden' : report.enabled ? 'sandboxed (sandbox.contain is false)' : 'run as they are, git and wield files kept read-only (sandbox.contain is false)'}`,
      `  Bash calls a rule allows: ${report.contain || report.enabled ? 'sandboxed: the workspace writable, the rest of the machine read-only, credentials hidden' : 'run as they are, git and wield files kept read-only (sandbox.contain is false)'}`,
      `  Bash calls that would ask: ${report.enabled && report.autoAllowBash ? 'run in the view, workspace writable, without asking (autoAllowBash)' : `ask as usual; once approved they run ${report.enabled ? 'sandboxed' : 'unsandboxed'}`}`,
    );
  } else {
    lines.push(
      '  Bash calls: nothing is contained; the analyser resolves the paths and globs a command names before allowing it, and everything else asks',
    );
  }
  const features = Object.entries(report.features).map(([name, ok]) => `${name} ${ok ? 'yes' : 'no'}`);
  lines.push(`  features: ${features.join(', ')}`);
  for (const note of report.notes) lines.push(`  note: ${note}`);
  return `${lines.join('\n')}\n`;
}

export function formatChecks(checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  return `${checks.map((c) => `${c.level.toUpperCase().padEnd(4)}  ${c.name.padEnd(width)}  ${c.detail}`).join('\n')}\n`;
}

export async function doctorChecks(env: NodeJS.ProcessEnv = process.env, flags: CliFlags = {}): Promise<DoctorCheck[]> {
  return Promise.all([
    checkNode(),
    checkSandbox(flags),
    checkRipgrep(),
    checkBashParser(),
    checkProvider(env),
    checkInstructions(env, flags),
  ]);
}

function checkNode(): DoctorCheck {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= NODE_MAJOR_REQUIRED
    ? { name: 'node', level: 'ok', detail: `v${process.versions.node}` }
    : { name: 'node', level: 'fail', detail: `v${process.versions.node}; wield needs Node ${NODE_MAJOR_REQUIRED} or later` };
}

async function checkSandbox(flags: CliFlags): Promise<DoctorCheck> {
  let settings: SandboxSettings;
  try {
    settings = await sandboxSettings(flags);
  } catch (error) {
    // Every other command stops on such settings; the doctor says so instead of stopping.
    return { name: 'sandbox', level: 'fail', detail: messageOf(error) };
  }
  const c = await containment(settings);
  if (c.contained) return { name: 'sandbox', level: 'ok', detail: c.reason };
  return { name: 'sandbox', level: 'warn', detail: uncontainedNotice(c) };
}

async function checkRipgrep(): Promise<DoctorCheck> {
  try {
    const rgPath = await shippedRipgrepPath();
    await access(rgPath, constants.X_OK);
    const { stdout } = await promisify(execFile)(rgPath, ['--version'], { timeout: 5_000 });
    return { name: 'ripgrep', level: 'ok', detail: stdout.split('\n')[0] };
  } catch (error) {
    return { name: 'ripgrep', level: 'warn', detail: `not usable (${messageOf(error)}); Grep falls back to its slower JavaScript search` };
  }
}

async function checkBashParser(): Promise<DoctorCheck> {
  try {
    const { loadBashAnalyzer } = await import('../../coding/bash/parser.js');
    await loadBashAnalyzer();
    return { name: 'bash parser', level: 'ok', detail: 'tree-sitter-bash WASM loaded' };
  } catch (error) {
    return {
      name: 'bash parser',
      level: 'fail',
      detail: `tree-sitter-bash could not load (${messageOf(error)}); no Bash command can be proven read-only`,
    };
  }
}

async function checkProvider(env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  const { resolveProviderConfig } = await import('../../runtime/providers/config.js');
  const config = resolveProviderConfig({ env });
  return config.ok
    ? { name: 'provider', level: 'ok', detail: `${config.provider}, model ${config.model}${config.baseURL ? ` at ${config.baseURL}` : ''}` }
    : { name: 'provider', level: 'warn', detail: config.message };
}

/** Which AGENTS.md / CLAUDE.md files a session started here would put in its system prompt. */
async function checkInstructions(env: NodeJS.ProcessEnv, flags: CliFlags): Promise<DoctorCheck> {
  const [{ loadCliSettings }, { loadInstructions, describeInstructions }, { wieldHome }] = await Promise.all([
    import('../settings.js'),
    import('../../coding/instructions/load.js'),
    import('../../runtime/agent/session-store.js'),
  ]);
  let trusted = flags.trust === true;
  try {
    trusted = (await loadCliSettings(process.cwd(), flags, env)).loaded.trusted;
  } catch {
    // Malformed settings are the sandbox line's failure; the files are still named.
  }
  const loaded = loadInstructions({ cwd: process.cwd(), wieldHome: wieldHome(env), trusted });
  const untrusted = !trusted && loaded.files.some((file) => file.scope === 'project') ? ' (project not trusted: framed as data)' : '';
  return {
    name: 'instructions',
    level: loaded.cut ? 'warn' : 'ok',
    detail: `${describeInstructions(loaded, loaded.searched)}${untrusted}`,
  };
}
