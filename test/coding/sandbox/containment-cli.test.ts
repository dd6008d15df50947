// The whole CLI in a real process, against real bash and bubblewrap in temp folders: what a Bash
// command nobody approved can still change (issue classes 14 and 15), which tools a deny rule
// hides (16), and what runs contained. Each hole is shown in plain bash first.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxStatus } from '../../../src/coding/sandbox/index.js';
import { buildCli, cleanEnv, runCli, tempDir, type CliRun } from '../../cli/helpers.js';

const status = await sandboxStatus();
const title = status.available ? 'with bubblewrap' : `with bubblewrap (skipped: ${status.reason})`;

let cli: string;
let cleanup: () => void;
let base: string;
let home: string;
let wieldHome: string;
let ws: string;

const env = (): NodeJS.ProcessEnv => ({ ...cleanEnv(home), WIELD_HOME: wieldHome });
const wield = (...args: string[]): Promise<CliRun> => runCli(cli, args, { cwd: ws, env: env(), timeoutMs: 30_000 });
const bash = (command: string, ...flags: string[]): Promise<CliRun> => wield('call', 'Bash', JSON.stringify({ command }), ...flags);

beforeAll(async () => {
  ({ cli, cleanup } = await buildCli());
  base = realpathSync(tempDir('wield-containment-'));
  home = path.join(base, 'home');
  // WIELD_HOME elsewhere: it moves wield's own folder only.
  wieldHome = path.join(base, 'wield-home');
  ws = path.join(home, 'ws');
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  mkdirSync(path.join(wieldHome, '.ssh'), { recursive: true });
  mkdirSync(ws, { recursive: true });
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'REAL PRIVATE KEY\n');
  writeFileSync(path.join(ws, 'notes.txt'), 'alpha\n');
  writeFileSync(path.join(ws, 'private.txt'), 'private\n');
  execFileSync('git', ['init', '-q', '.'], { cwd: ws });
}, 60_000);
afterAll(() => {
  cleanup();
  rmSync(base, { recursive: true, force: true });
});

describe('WIELD_HOME moves only wield’s folder (class 15)', () => {
  it('a Read(~/…) deny rule still means the real home', async () => {
    const r = await wield('call', 'Read', JSON.stringify({ file_path: path.join(ws, 'private.txt') }), '--deny', 'Read(~/ws/private.txt)');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/denied by rule `Read\(~\/ws\/private\.txt\)`/);
  });

  it('user settings are read from WIELD_HOME', async () => {
    mkdirSync(path.join(wieldHome, '.wield'), { recursive: true });
    writeFileSync(path.join(wieldHome, '.wield', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(ls *)'] } }));
    try {
      const r = await bash('ls');
      expect(r.stdout).toMatch(/denied by rule `Bash\(ls \*\)`/);
    } finally {
      rmSync(path.join(wieldHome, '.wield'), { recursive: true, force: true });
    }
  });

  it.skipIf(!status.available)('the sandbox hides the real ~/.ssh, not one under WIELD_HOME', async () => {
    // The hole: plain bash reads the key.
    expect(spawnSync('bash', ['-c', 'cat ~/.ssh/id_rsa'], { env: env(), encoding: 'utf8' }).stdout).toBe('REAL PRIVATE KEY\n');
    const r = await bash('cat ~/.ssh/id_rsa', '--sandbox', '--permission-mode', 'bypassPermissions');
    expect(r.stdout).not.toContain('REAL PRIVATE KEY');
    // bypassPermissions: nobody approved it, so it runs in the view, where no home file exists.
    expect(r.stdout).toMatch(/No such file or directory/);
  });
});

describe('a tool a deny rule refuses whole is not offered (class 16)', () => {
  const names = async (...flags: string[]): Promise<string[]> => {
    const r = await wield('tools', '--json', ...flags);
    expect(r.code).toBe(0);
    return (JSON.parse(r.stdout) as { name: string }[]).map((row) => row.name);
  };

  it('wield tools leaves out WebFetch under --deny WebFetch, and the Read family under --deny Read', async () => {
    expect(await names()).toContain('WebFetch');
    expect(await names('--deny', 'WebFetch')).not.toContain('WebFetch');
    const noRead = await names('--deny', 'Read');
    for (const tool of ['Read', 'Grep', 'Glob', 'LS']) expect(noRead).not.toContain(tool);
    expect(noRead).toContain('Bash');
    // A rule with content refuses some calls only: the tool stays.
    expect(await names('--deny', 'WebFetch(domain:example.com)')).toContain('WebFetch');
  });
});

describe.skipIf(!status.available)(`hard blocks hold for Bash in every mode (class 14), ${title}`, () => {
  const script = [
    'echo evil > .git/hooks/pre-commit',
    'echo "{\\"mcpServers\\":{}}" > .mcp.json',
    'mkdir -p .wield && echo "{}" > .wield/settings.json',
    'echo "evil" >> ~/.bashrc',
    'echo made > made.txt',
    'echo ran',
  ].join('; ');

  it('plain bash writes them all (the hole)', () => {
    const scratch = path.join(base, 'scratch');
    mkdirSync(scratch);
    execFileSync('git', ['init', '-q', '.'], { cwd: scratch });
    spawnSync('bash', ['-c', script], { cwd: scratch, env: { ...env(), HOME: scratch } });
    expect(existsSync(path.join(scratch, '.git', 'hooks', 'pre-commit'))).toBe(true);
    expect(existsSync(path.join(scratch, '.mcp.json'))).toBe(true);
    expect(existsSync(path.join(scratch, '.wield', 'settings.json'))).toBe(true);
  });

  it('under bypassPermissions, Bash writes the workspace but none of them', async () => {
    writeFileSync(path.join(home, '.bashrc'), '# rc\n');
    const r = await bash(script, '--permission-mode', 'bypassPermissions');
    expect(r.stdout).toContain('ran');
    expect(readFileSync(path.join(ws, 'made.txt'), 'utf8')).toBe('made\n');
    expect(existsSync(path.join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(existsSync(path.join(ws, '.wield', 'settings.json'))).toBe(false);
    expect(readFileSync(path.join(home, '.bashrc'), 'utf8')).toBe('# rc\n');
    // .mcp.json did not exist: a read-only stand-in kept the command from creating it, and is gone after.
    expect(existsSync(path.join(ws, '.mcp.json'))).toBe(false);
    expect(r.stdout).toMatch(/\.mcp\.json: Is a directory/);
    expect(r.stdout).toMatch(/pre-commit: Read-only file system/);
  });

  it('a read-only command still works, contained', async () => {
    const r = await bash('git status --short && cat notes.txt');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('alpha');
  });
});
