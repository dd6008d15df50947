// End to end through the built CLI: `wield call Grep|Glob|LS` under Read deny rules from the
// command line and from settings files shows nothing of the hidden files, and says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { buildCli, cleanEnv, runCli, tempDir } from '../../cli/helpers.js';

let cli: string;
let cleanup: (() => void) | undefined;
let project: string;
let home: string;

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

beforeAll(async () => {
  ({ cli, cleanup } = await buildCli());
  home = fs.realpathSync(tempDir('wield-deny-home-'));
  project = fs.realpathSync(tempDir('wield-deny-project-'));
  write(project, '.env', 'API_KEY=secret-value\n');
  write(project, 'src/app.ts', 'const secret = load();\n');
  write(project, 'config/keys.json', '{"secret": "secret-config"}\n');
  write(project, 'certs/server.pem', 'secret-pem\n');
  // An untrusted project's deny rules hold; the user's rules too, each anchored at its own folder.
  write(project, '.wield/settings.json', JSON.stringify({ permissions: { deny: ['Read(config/**)'] } }));
  write(home, '.wield/settings.json', JSON.stringify({ permissions: { deny: ['Read(*.pem)'] } }));
});
afterAll(() => {
  cleanup?.();
  for (const dir of [home, project]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const call = (tool: string, input: object, ...flags: string[]) =>
  runCli(cli, ['call', tool, JSON.stringify(input), ...flags], { cwd: project, env: cleanEnv(home) });
const LEAKS = ['secret-value', 'secret-config', 'secret-pem', '.env', 'keys.json', 'server.pem'];

describe('wield call under Read deny rules', () => {
  it('Grep shows only allowed files and says how many were hidden', async () => {
    const out = await call('Grep', { pattern: 'secret', output_mode: 'content' }, '--deny', 'Read(.env*)');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('src/app.ts:1:const secret = load();\n[3 files hidden by Read deny rules]\n');
    for (const leak of LEAKS) expect(out.stdout).not.toContain(leak);
  });

  it('Grep with a glob naming the hidden file finds nothing', async () => {
    const out = await call('Grep', { pattern: 'secret', glob: '.env', output_mode: 'content' }, '--deny', 'Read(.env*)');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('No matches found.\n[1 file hidden by Read deny rules]\n');
  });

  it('Grep on the hidden file itself is denied by the rule', async () => {
    const out = await call('Grep', { pattern: 'secret', path: '.env' }, '--deny', 'Read(.env*)');
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('Read(.env*)');
    expect(out.stdout).not.toContain('secret-value');
  });

  it('Glob and LS leave hidden files out', async () => {
    const glob = await call('Glob', { pattern: '**/*' }, '--deny', 'Read(.env*)');
    expect(glob.stdout.split('\n').sort()).toEqual(['', '.wield/settings.json', '[3 files hidden by Read deny rules]', 'src/app.ts']);
    const ls = await call('LS', {}, '--deny', 'Read(.env*)');
    expect(ls.stdout).toBe(
      `${project}/\n  .wield/\n    settings.json\n  certs/\n  src/\n    app.ts\n[3 entries hidden by Read deny rules]\n`,
    );
  });

  it('without the command-line rule, .env shows again (the settings rules still hide the rest)', async () => {
    const out = await call('Grep', { pattern: 'secret', output_mode: 'files_with_matches' });
    expect(out.stdout.split('\n').sort()).toEqual(
      ['', '.env', 'Found 2 files', 'src/app.ts', '[2 files hidden by Read deny rules]'].sort(),
    );
  });

  it('a Bash command naming a denied file is not read-only: it asks (denied with no terminal), others still run', async () => {
    const denied = await call('Bash', { command: 'cat config/keys.json' });
    expect(denied.code).toBe(1);
    expect(denied.stdout).not.toContain('secret-config');
    expect(denied.stdout).toContain('is covered by a Read deny rule');
    const allowed = await call('Bash', { command: 'cat src/app.ts' });
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('const secret');
  });
});
