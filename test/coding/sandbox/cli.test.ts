// `wield sandbox status` and `wield doctor`, run in-process through commander.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { doctorChecks, formatChecks, register } from '../../../src/cli/commands/sandbox.js';
import { addRuntimeOptions } from '../../../src/cli/options.js';
import { createCliRuntime } from '../../../src/cli/runtime.js';

interface Outcome {
  code: number | undefined;
  out: string;
}

async function wield(...args: string[]): Promise<Outcome> {
  let out = '';
  let code: number | undefined;
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    out += chunk.toString();
    const done = rest.find((r) => typeof r === 'function') as ((err?: Error) => void) | undefined;
    done?.();
    return true;
  });
  const exit = vi.spyOn(process, 'exit').mockImplementation(((c?: number) => {
    code = c;
  }) as typeof process.exit);
  try {
    // The root takes the runtime flags too, as in main.ts (`wield --trust sandbox status`).
    const program = addRuntimeOptions(new Command('wield').exitOverride());
    register(program);
    await program.parseAsync(['node', 'wield', ...args]);
  } finally {
    write.mockRestore();
    exit.mockRestore();
  }
  return { code, out };
}

describe('wield sandbox status / doctor', () => {
  let home: string;
  const saved = process.env.WIELD_HOME;

  beforeEach(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'wield-sandbox-cli-'));
    process.env.WIELD_HOME = home;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.WIELD_HOME;
    else process.env.WIELD_HOME = saved;
    rmSync(home, { recursive: true, force: true });
  });

  it('status --json reports availability, features and whether it is on; exit code follows availability', async () => {
    const { code, out } = await wield('sandbox', 'status', '--json');
    const report = JSON.parse(out) as { available: boolean; reason: string; enabled: boolean; features: Record<string, boolean> };
    expect(typeof report.available).toBe('boolean');
    expect(report.reason.length).toBeGreaterThan(10);
    expect(report.enabled).toBe(false);
    expect(report.features.networkAllowList).toBe(report.available);
    expect(code).toBe(report.available ? 0 : 1);
  });

  it('where no sandbox can run, the first run in a folder says nothing is contained; the next run does not', async () => {
    mkdirSync(path.join(home, '.wield'));
    // The sandbox is off (the default): containment alone would have used it.
    writeFileSync(path.join(home, '.wield', 'settings.json'), JSON.stringify({ sandbox: { bwrapPath: path.join(home, 'no-bwrap') } }));
    const cwd = mkdtempSync(path.join(home, 'project-'));
    const env = { PATH: process.env.PATH, HOME: home, WIELD_HOME: home };
    const first = await createCliRuntime({ cwd, flags: {}, env });
    await first.close();
    const notice = first.notices.find((n) => n.startsWith('no sandbox here'));
    expect(notice).toMatch(/not an executable file/);
    expect(notice).toMatch(/Nothing is contained/);
    expect(notice).toMatch(/resolves the paths and globs/);
    const second = await createCliRuntime({ cwd, flags: {}, env });
    await second.close();
    expect(second.notices.filter((n) => n.startsWith('no sandbox here'))).toEqual([]);
    // Another folder is told too.
    const other = await createCliRuntime({ cwd: mkdtempSync(path.join(home, 'other-')), flags: {}, env });
    await other.close();
    expect(other.notices.some((n) => n.startsWith('no sandbox here'))).toBe(true);
  });

  it('status with a bwrapPath setting that does not exist: UNAVAILABLE, how to fix it, exit 1', async () => {
    mkdirSync(path.join(home, '.wield'));
    writeFileSync(
      path.join(home, '.wield', 'settings.json'),
      JSON.stringify({ sandbox: { enabled: true, bwrapPath: path.join(home, 'no-bwrap'), network: { allowedHosts: ['example.com'] } } }),
    );
    const { code, out } = await wield('sandbox', 'status');
    expect(code).toBe(1);
    expect(out).toMatch(/^sandbox: UNAVAILABLE/);
    expect(out).toMatch(/not an executable file/);
    expect(out).toMatch(/install bubblewrap/);
    expect(out).toMatch(/network: only example\.com, through wield's proxy/);
    // Without a sandbox nothing is contained, and both commands say so.
    expect(out).toMatch(/Bash calls: nothing is contained/);
    const sandbox = (await doctorChecks({})).find((c) => c.name === 'sandbox');
    expect(sandbox).toMatchObject({ level: 'warn', detail: expect.stringMatching(/Nothing is contained here/) });
  });

  it('status reads settings as every other command does: --trust and --sandbox count, before or after the name', async () => {
    const project = path.join(home, 'project');
    mkdirSync(path.join(project, '.wield'), { recursive: true });
    writeFileSync(
      path.join(project, '.wield', 'settings.json'),
      JSON.stringify({ sandbox: { enabled: true, autoAllowBash: true, network: { allowedHosts: ['127.0.0.1'] } } }),
    );
    const before = process.cwd();
    process.chdir(project);
    try {
      const untrusted = await wield('sandbox', 'status');
      expect(untrusted.out).toMatch(/ask as usual/);
      for (const args of [
        ['--trust', 'sandbox', 'status'],
        ['sandbox', 'status', '--trust'],
      ]) {
        const { out } = await wield(...args);
        expect(out).toMatch(/run in the view, workspace writable, without asking \(autoAllowBash\)/);
        expect(out).toMatch(/network: only 127\.0\.0\.1, through wield's proxy/);
      }
      process.chdir(home);
      const flagged = JSON.parse((await wield('--sandbox', 'sandbox', 'status', '--json')).out) as { enabled: boolean };
      expect(flagged.enabled).toBe(true);
    } finally {
      process.chdir(before);
    }
  });

  it('status stops on settings it cannot read, like other commands; doctor reports them as a failed check', async () => {
    mkdirSync(path.join(home, '.wield'));
    writeFileSync(path.join(home, '.wield', 'settings.json'), '{"sandbox": {"enabled": "yes"}}');
    const { code } = await wield('sandbox', 'status');
    expect(code).toBe(2);
    const checks = await doctorChecks({});
    expect(checks.find((c) => c.name === 'sandbox')).toMatchObject({ level: 'fail', detail: expect.stringMatching(/settings\.json/) });
  });

  it('doctor lists every check and exits 0 when none fails', async () => {
    const { code, out } = await wield('doctor', '--json');
    const checks = JSON.parse(out) as { name: string; level: string }[];
    expect(checks.map((c) => c.name)).toEqual(['node', 'sandbox', 'ripgrep', 'bash parser', 'provider', 'instructions']);
    expect(checks.find((c) => c.name === 'node')?.level).toBe('ok');
    expect(checks.find((c) => c.name === 'bash parser')?.level).toBe('ok');
    expect(code).toBe(checks.some((c) => c.level === 'fail') ? 1 : 0);
  });

  it('doctor warns, without failing, when no provider is configured', async () => {
    const checks = await doctorChecks({});
    const provider = checks.find((c) => c.name === 'provider');
    expect(provider?.level).toBe('warn');
    expect(provider?.detail).toMatch(/ANTHROPIC_API_KEY/);
    const configured = await doctorChecks({ ANTHROPIC_API_KEY: 'k' });
    expect(configured.find((c) => c.name === 'provider')?.level).toBe('ok');
    expect(JSON.stringify(configured)).not.toContain('"k"');
    expect(formatChecks(checks)).toMatch(/^OK +node +v\d+/m);
  });
});
