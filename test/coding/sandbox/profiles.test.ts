// The ways a command runs in bubblewrap, by what allowed it (wrap.ts profileFor): contained (ran
// without asking on a read-only verdict), sandboxed, guarded (nobody approved it, containment off).
// The view itself (contained, confined) has its own tests in view-bwrap.test.ts.
// Real commands, real bwrap; each protection is checked against the same command in plain bash.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxWrap, sandboxStatus, sandboxTempDir, type SandboxSettings } from '../../../src/coding/sandbox/index.js';
import { profileFor } from '../../../src/coding/sandbox/wrap.js';
import type { AllowBasis } from '../../../src/runtime/tool/types.js';
import { bash, makeFixture, runWrapped, type Fixture, type RunResult } from './helpers.js';

describe('profileFor', () => {
  it('puts what nobody approved in the view (contained or confined); sandboxes what a rule allowed; leaves what a person approved', () => {
    const cases: [boolean | undefined, boolean | undefined, AllowBasis | undefined, string | undefined][] = [
      // enabled, contain, allowedBy → profile
      [undefined, undefined, 'verdict', 'contained'],
      [undefined, undefined, 'rule', 'sandboxed'],
      [undefined, undefined, 'mode', 'confined'],
      [undefined, undefined, undefined, undefined],
      [true, undefined, 'verdict', 'contained'],
      [true, undefined, undefined, 'sandboxed'],
      [true, undefined, 'mode', 'confined'],
      [undefined, false, 'mode', 'guarded'],
      [true, false, 'mode', 'sandboxed'],
      [undefined, false, 'verdict', 'guarded'],
      [undefined, false, 'rule', 'guarded'],
      [true, false, 'verdict', 'sandboxed'],
    ];
    for (const [enabled, contain, allowedBy, profile] of cases) {
      expect(profileFor({ enabled, contain }, allowedBy), JSON.stringify({ enabled, contain, allowedBy })).toBe(profile);
    }
  });
});

const status = await sandboxStatus();
const title = status.available ? 'with bubblewrap' : `with bubblewrap (skipped: ${status.reason})`;

describe.skipIf(!status.available)(`profiles ${title}`, () => {
  let f: Fixture;
  let server: net.Server;
  let port = 0;
  const run = async (script: string, allowedBy: AllowBasis, settings: SandboxSettings = {}): Promise<RunResult> => {
    const wrap = createSandboxWrap(settings, f.session, { home: f.home });
    const cmd = await wrap(bash(script), { ...f.ctx, allowedBy }, { command: script });
    expect(cmd.sandboxed).toBe(true);
    const result = await runWrapped(cmd, f.ws);
    await cmd.afterRun?.();
    return result;
  };
  const direct = (script: string): Promise<RunResult> => runWrapped({ file: 'bash', args: ['-c', script], sandboxed: false }, f.ws);

  beforeAll(async () => {
    f = makeFixture();
    // Credentials the analyser knows (class 11): each must be unreadable inside.
    mkdirSync(path.join(f.home, '.config', 'gh'), { recursive: true });
    writeFileSync(path.join(f.home, '.config', 'gh', 'hosts.yml'), 'oauth_token: gho_secret\n');
    writeFileSync(path.join(f.home, '.git-credentials'), 'https://u:secret@example.com\n');
    mkdirSync(path.join(f.home, '.docker'), { recursive: true });
    writeFileSync(path.join(f.home, '.docker', 'config.json'), '{"auths":{"x":{"auth":"secret"}}}\n');
    writeFileSync(path.join(f.home, '.npmrc'), '//registry.npmjs.org/:_authToken=secret\n');
    server = net.createServer((socket) => socket.end('host-service\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(f.base, { recursive: true, force: true });
  });

  it('contained: nothing writable but its temp folder', async () => {
    const script = 'echo x > made-contained.txt; echo "ws=$?"; echo t > "$TMPDIR/t"; echo "tmp=$?"';
    const r = await run(script, 'verdict');
    expect(r.stdout).toMatch(/ws=1/);
    expect(r.stdout).toMatch(/tmp=0/);
    expect(existsSync(path.join(f.ws, 'made-contained.txt'))).toBe(false);
    expect(existsSync(path.join(sandboxTempDir(f.session), 't'))).toBe(true);
  });

  it('contained: the credential files the analyser knows are hidden (class 11)', async () => {
    const files = ['.config/gh/hosts.yml', '.git-credentials', '.docker/config.json', '.npmrc', '.ssh/id_rsa', '.netrc'];
    const script = files.map((file) => `cat "${path.join(f.home, file)}"`).join('; ');
    // The hole: plain bash reads every one.
    expect((await direct(script)).stdout).toMatch(/gho_secret[\s\S]*u:secret[\s\S]*auth[\s\S]*_authToken/);
    const r = await run(script, 'verdict');
    expect(r.stdout).toBe('');
    // Not even there: the view has no home folder.
    expect(r.stderr.match(/No such file or directory/g)?.length).toBe(files.length);
  });

  it('contained: no network, not even the host loopback', async () => {
    const script = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
    expect((await direct(script)).stdout).toBe('host-service\n');
    const r = await run(script, 'verdict');
    expect(r.stdout).toBe('');
  });

  it('guarded (containment off): the workspace and the rest stay as outside, the network too; protected files stay read-only', async () => {
    const outsideFile = path.join(f.outside, 'guarded.txt');
    const script = [
      'echo w > guarded-made.txt',
      `echo o > ${outsideFile}`,
      `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`,
      'echo evil > .git/hooks/post-checkout; echo "hook=$?"',
      'git config core.fsmonitor ./evil; echo "config=$?"',
    ].join('; ');
    const r = await run(script, 'mode', { contain: false });
    expect(readFileSync(path.join(f.ws, 'guarded-made.txt'), 'utf8')).toBe('w\n');
    expect(readFileSync(outsideFile, 'utf8')).toBe('o\n');
    expect(r.stdout).toContain('host-service');
    expect(r.stdout).toMatch(/hook=1/);
    expect(r.stdout).not.toMatch(/config=0/);
    expect(existsSync(path.join(f.ws, '.git', 'hooks', 'post-checkout'))).toBe(false);
    expect(readFileSync(path.join(f.ws, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
  });
});
