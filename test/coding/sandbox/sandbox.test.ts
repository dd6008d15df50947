// Real commands through the wrap and bubblewrap: what is blocked, what is allowed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxWrap, explainSandboxFailure, sandboxStatus, sandboxTempDir } from '../../../src/coding/sandbox/index.js';
import type { SandboxSettings } from '../../../src/coding/sandbox/index.js';
import { bash, makeFixture, runWrapped, type Fixture, type RunResult } from './helpers.js';

const status = await sandboxStatus();
const hasCurl = spawnSync('curl', ['--version']).status === 0;
const title = status.available ? 'with bubblewrap' : `with bubblewrap (skipped: ${status.reason})`;

describe.skipIf(!status.available)(title, () => {
  let f: Fixture;
  let server: http.Server;
  let port = 0;

  const run = async (script: string, settings: SandboxSettings = {}, input: unknown = {}): Promise<RunResult> => {
    const wrap = createSandboxWrap({ enabled: true, ...settings }, f.session, { home: f.home });
    const cmd = await wrap(bash(script), f.ctx, input);
    expect(cmd.sandboxed).toBe(true);
    // As the Bash tool does: the stand-ins held for the command go when it ends.
    return runWrapped(cmd, f.ws).finally(cmd.afterRun);
  };
  const direct = async (script: string): Promise<RunResult> => runWrapped({ file: 'bash', args: ['-c', script], sandboxed: false }, f.ws);

  beforeAll(async () => {
    f = makeFixture();
    server = http.createServer((_req, res) => res.end('served'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(f.base, { recursive: true, force: true });
  });

  it('reports every protection as present', () => {
    expect(status.features).toMatchObject({ readOnlyRoot: true, unshareNet: true, unsharePid: true, capDrop: true, maskPaths: true });
    expect(status.features.networkAllowList).toBe(true);
  });

  it('lets a command write in the workspace and in its TMPDIR', async () => {
    const r = await run('echo made > made.txt && echo tmp > "$TMPDIR/t" && echo "$TMPDIR"');
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(f.ws, 'made.txt'), 'utf8')).toBe('made\n');
    expect(r.stdout.trim()).toBe(sandboxTempDir(f.session));
    expect(existsSync(path.join(sandboxTempDir(f.session), 't'))).toBe(true);
  });

  it('refuses writes outside the writable folders, and says it was the sandbox', async () => {
    const target = path.join(f.outside, 'escape.txt');
    const r = await run(`echo x > ${target}`);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(existsSync(target)).toBe(false);
    expect(explainSandboxFailure(r.stderr, r.code ?? 1)).toMatch(/"sandbox": false/);

    const etc = await run('touch /etc/wield-sandbox-probe');
    expect(etc.code).not.toBe(0);
    expect(existsSync('/etc/wield-sandbox-probe')).toBe(false);
  });

  it('keeps protected paths read-only while git itself still works', async () => {
    const r = await run(
      [
        'echo evil > .git/hooks/pre-commit; echo "hooks=$?"',
        'git config core.hooksPath /tmp/evil; echo "config=$?"',
        'mkdir -p .wield && echo "{}" > .wield/settings.json; echo "wield=$?"',
        'mv .git .git-moved; echo "move=$?"',
        'echo more >> notes.txt && git add notes.txt && git -c user.name=t -c user.email=t@example.invalid commit -qm more; echo "commit=$?"',
      ].join('\n'),
    );
    expect(r.stdout).toMatch(/hooks=1/);
    expect(r.stdout).not.toMatch(/config=0/);
    expect(r.stdout).toMatch(/wield=1/);
    expect(r.stdout).toMatch(/move=1/);
    expect(r.stdout).toMatch(/commit=0/);
    expect(existsSync(path.join(f.ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(path.join(f.ws, '.git', 'config'), 'utf8')).not.toMatch(/hooksPath/);
    expect(existsSync(path.join(f.ws, '.wield', 'settings.json'))).toBe(false);
    expect(existsSync(path.join(f.ws, '.git-moved'))).toBe(false);
  });

  it('keeps an existing .wield folder read-only', async () => {
    mkdirSync(path.join(f.ws, '.wield'), { recursive: true });
    writeFileSync(path.join(f.ws, '.wield', 'settings.json'), '{"permissions":{}}');
    const r = await run('echo "{}" > .wield/settings.json');
    expect(r.code).not.toBe(0);
    expect(readFileSync(path.join(f.ws, '.wield', 'settings.json'), 'utf8')).toBe('{"permissions":{}}');
  });

  it('reports a missing .mcp.json as unprotected rather than pretending', async () => {
    const wrap = createSandboxWrap({ enabled: true }, f.session, { home: f.home });
    const cmd = await wrap(bash('true'), f.ctx, {});
    expect(cmd.unprotected).toContain(path.join(f.ws, '.mcp.json'));
  });

  it('hides planted secrets: home credentials, .env files at any depth, settings-listed paths', async () => {
    writeFileSync(path.join(f.outside, 'creds.json'), '{"token":"outside-secret"}');
    writeFileSync(path.join(f.ws, 'server.pem'), 'PEM-SECRET');
    const files = [
      path.join(f.home, '.ssh', 'id_rsa'),
      path.join(f.home, '.netrc'),
      path.join(f.ws, '.env'),
      path.join(f.ws, 'sub', '.env.local'),
      path.join(f.outside, 'creds.json'),
      path.join(f.ws, 'server.pem'),
    ];
    const r = await run(files.map((file) => `cat ${file}`).join('; '), {
      denyRead: [path.join(f.outside, 'creds.json'), '*.pem'],
    });
    for (const secret of ['PRIVATE KEY', 'password z', 'workspace-secret', 'nested-secret', 'outside-secret', 'PEM-SECRET']) {
      expect(r.stdout).not.toContain(secret);
    }
    expect(r.stderr.match(/Permission denied/g)?.length).toBe(files.length);
    expect(explainSandboxFailure(r.stderr, r.code ?? 1)).toMatch(/hidden secret/);
  });

  it('hides a listed secret reached through a symbolic link too', async () => {
    symlinkSync(path.join(f.home, '.ssh', 'id_rsa'), path.join(f.ws, 'key-link'));
    const r = await run('cat key-link');
    expect(r.code).not.toBe(0);
    expect(r.stdout).not.toContain('PRIVATE KEY');
  });

  it('still lets a command read committed .env templates', async () => {
    const r = await run('cat .env.example');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('API_TOKEN=\n');
  });

  it('cuts the network: a server on the host loopback is unreachable, only lo exists', async () => {
    const fetchScript = `"${process.execPath}" -e "fetch('http://127.0.0.1:${port}/').then(r => r.text()).then(t => console.log(t), e => { console.error(String(e.cause?.code ?? e)); process.exit(3); })"`;
    const control = await direct(fetchScript);
    expect(control.stdout.trim()).toBe('served');
    const r = await run(fetchScript);
    expect(r.code).toBe(3);
    expect(r.stdout).not.toContain('served');
    expect(explainSandboxFailure(r.stderr, 3)).toBeDefined();
    const dev = await run('cat /proc/net/dev');
    const interfaces = dev.stdout
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((l) => l.split(':')[0].trim());
    expect(interfaces).toEqual(['lo']);
  });

  it('refuses Unix sockets, which lead outside (Docker, D-Bus), but keeps socket pairs for child processes', async () => {
    expect(status.features.unixSocketsBlocked).toBe(true);
    const socketPath = path.join(f.outside, 'host.sock');
    const unixServer = net.createServer((c) => c.end('host-service'));
    await new Promise<void>((resolve) => unixServer.listen(socketPath, resolve));
    try {
      const script = `"${process.execPath}" -e "require('net').connect('${socketPath}').on('data', d => console.log(String(d))).on('error', e => { console.error(e.code); process.exit(3); })"`;
      expect((await direct(script)).stdout.trim()).toBe('host-service');
      const r = await run(script);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/EPERM/);
      expect(explainSandboxFailure(r.stderr, 3)).toMatch(/Unix sockets/);
      const child = await run(
        `"${process.execPath}" -e "require('child_process').exec('echo via-child', (e, out) => console.log(out.trim()))"`,
      );
      expect(child.stdout.trim()).toBe('via-child');
    } finally {
      await new Promise((resolve) => unixServer.close(resolve));
    }
  });

  it('drops capabilities, so a root command cannot remount the root read-write', async () => {
    const r = await run('mount -o remount,rw / 2>&1; grep CapEff /proc/self/status');
    expect(r.stdout).toMatch(/CapEff:\s+0+\n/);
    expect((await run('touch /wield-remount-probe')).code).not.toBe(0);
  });

  it('gives read-only commands the same output as unsandboxed', async () => {
    for (const script of [
      'ls -a',
      'cat notes.txt',
      'sort -r notes.txt',
      'wc -l notes.txt',
      'find . -name "*.txt" -not -path "./.git/*" | sort',
      'git log --format=%s',
      'git status --short',
    ]) {
      const inside = await run(script);
      const outside = await direct(script);
      expect({ script, out: inside.stdout, code: inside.code }).toEqual({ script, out: outside.stdout, code: outside.code });
    }
  });

  it("passes extra file descriptors through, so the Bash tool's cwd report on fd 3 works", async () => {
    const r = await run(`trap 'pwd -P >&3' EXIT; cd sub`);
    expect(r.code).toBe(0);
    expect(r.fd3.trim()).toBe(path.join(f.ws, 'sub'));
  });

  it('makes settings.writableRoots writable', async () => {
    const extra = path.join(f.base, 'extra');
    mkdirSync(extra);
    const r = await run(`echo ok > ${extra}/x`, { writableRoots: [extra] });
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(extra, 'x'), 'utf8')).toBe('ok\n');
    // Protected paths are the workspace's: nothing is mounted (or left behind) in extra folders.
    expect(existsSync(path.join(extra, '.wield'))).toBe(false);
  });

  it('runs unsandboxed only when told: "sandbox": false, or the sandbox off for a call a person approved', async () => {
    const argv = bash('true');
    const on = createSandboxWrap({ enabled: true }, f.session, { home: f.home });
    expect(await on(argv, f.ctx, { command: 'true', sandbox: false })).toMatchObject({
      file: 'bash',
      args: ['-c', 'true'],
      sandboxed: false,
    });
    expect(await on(argv, f.ctx, { command: 'true' })).toMatchObject({ sandboxed: true, profile: 'sandboxed' });
    const off = createSandboxWrap({ enabled: false }, f.session);
    expect((await off(argv, f.ctx, {})).reason).toMatch(/sandbox is off/);
    // A call that ran without asking is contained even with the sandbox off, unless contain is false.
    expect(await off(argv, { ...f.ctx, allowedBy: 'verdict' }, {})).toMatchObject({ sandboxed: true, profile: 'contained' });
    expect(await off(argv, { ...f.ctx, allowedBy: 'rule' }, {})).toMatchObject({ sandboxed: true, profile: 'sandboxed' });
    expect(await off(argv, { ...f.ctx, allowedBy: 'mode' }, {})).toMatchObject({ sandboxed: true, profile: 'confined' });
    const uncontained = createSandboxWrap({ enabled: false, contain: false }, f.session, { home: f.home });
    expect(await uncontained(argv, { ...f.ctx, allowedBy: 'verdict' }, {})).toMatchObject({ profile: 'guarded' });
    expect(await uncontained(argv, { ...f.ctx, allowedBy: 'mode' }, {})).toMatchObject({ profile: 'guarded' });
  });

  it('allowed hosts are reachable through the proxy only; other hosts get 403; direct connections stay off', async () => {
    const network = { network: { allowedHosts: ['127.0.0.1'] } };
    const s = await sandboxStatus(network);
    expect(s.notes.join('\n')).toMatch(/network: only 127\.0\.0\.1, through wield's proxy/);
    // An HTTP client that honours HTTP_PROXY, written with node's http module (no curl needed).
    const viaProxy = (url: string) =>
      `"${process.execPath}" -e "const p = new URL(process.env.HTTP_PROXY); require('http').get({ host: p.hostname, port: p.port, path: '${url}' }, (r) => { let b = ''; r.on('data', (d) => (b += d)); r.on('end', () => console.log(r.statusCode, b.trim())); }).on('error', (e) => console.log('error', e.message))"`;
    const allowed = await run(viaProxy(`http://127.0.0.1:${port}/`), network);
    expect(allowed.stdout.trim()).toBe('200 served');
    const refused = await run(viaProxy(`http://localhost:${port}/`), network);
    expect(refused.stdout).toMatch(/^403 wield sandbox: localhost is not in sandbox\.network\.allowedHosts/);
    const directly = await run(
      `"${process.execPath}" -e "fetch('http://127.0.0.1:${port}/').then(() => process.exit(0), () => process.exit(3))"`,
      network,
    );
    expect(directly.code).toBe(3);
    // The command's exit code and its fd 3 come through the bridge unchanged.
    const exit = await run('echo side >&3; exit 7', network);
    expect({ code: exit.code, fd3: exit.fd3 }).toEqual({ code: 7, fd3: 'side\n' });
  });

  it.skipIf(!hasCurl)("explains curl's failures: the proxy's 403 hidden by -f, and a connection that skips the proxy", async () => {
    const network = { network: { allowedHosts: ['127.0.0.1'] } };
    const forbidden = await run('curl -sSf http://example.com/', network);
    expect(forbidden.code).toBe(22);
    expect(explainSandboxFailure(forbidden.stderr, 22)).toMatch(/proxy.*allowedHosts/);
    const skipped = await run(`curl -sS --noproxy '*' http://127.0.0.1:${port}/`, network);
    expect(skipped.code).toBe(7);
    expect(explainSandboxFailure(skipped.stderr, 7)).toMatch(/private loopback/);
  });
});
