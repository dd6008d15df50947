// The sandbox wired into the Bash tool: the tool's cwd tracking (fd 3) and process handling
// keep working through bubblewrap.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxWrap, sandboxStatus } from '../../../src/coding/sandbox/index.js';
import { bashTool, type BashInput, type BashOutput } from '../../../src/coding/tools/bash.js';
import type { ToolContext } from '../../../src/runtime/tool/types.js';
import { makeFixture, type Fixture } from './helpers.js';

/** A foreground call's output (these tests start no background job). */
async function foreground(tool: ReturnType<typeof bashTool>, input: BashInput, ctx: ToolContext): Promise<BashOutput> {
  const output = await tool.call(input, ctx);
  if ('jobId' in output) throw new Error(`started job ${output.jobId}`);
  return output;
}

const status = await sandboxStatus();
const title = status.available ? 'Bash tool with the sandbox' : `Bash tool with the sandbox (skipped: ${status.reason})`;

describe.skipIf(!status.available)(title, () => {
  let f: Fixture;
  beforeAll(() => {
    f = makeFixture();
    mkdirSync(path.join(f.ws, 'deeper'));
  });
  afterAll(() => rmSync(f.base, { recursive: true, force: true }));

  it('runs sandboxed, carries a cd over to the next call, and keeps writes contained', async () => {
    const tool = bashTool({ wrap: createSandboxWrap({ enabled: true }, f.session, { home: f.home }) });
    const first = await foreground(tool, { command: 'cd deeper && echo in > here.txt' }, f.ctx);
    expect(first.sandboxed).toBe(true);
    expect(first.exitCode).toBe(0);
    expect(f.session.cwd).toBe(path.join(f.ws, 'deeper'));
    expect(existsSync(path.join(f.ws, 'deeper', 'here.txt'))).toBe(true);

    const second = await foreground(tool, { command: `pwd; echo x > ${f.outside}/no.txt` }, f.ctx);
    expect(second.sandboxed).toBe(true);
    expect(second.exitCode).not.toBe(0);
    expect(existsSync(path.join(f.outside, 'no.txt'))).toBe(false);
  });

  it('reaches an allowed host through the network bridge, keeps cwd tracking, and times out through it', async () => {
    const server = http.createServer((_req, res) => res.end('hello from the host'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const tool = bashTool({
        wrap: createSandboxWrap({ enabled: true, network: { allowedHosts: ['127.0.0.1'] } }, f.session, { home: f.home }),
        graceMs: 200,
      });
      // bash's own /dev/tcp speaks to the proxy: no curl needed on the machine.
      const request = `exec 5<>/dev/tcp/127.0.0.1/\${HTTP_PROXY##*:}; printf 'GET http://127.0.0.1:${port}/ HTTP/1.0\\r\\n\\r\\n' >&5; cat <&5`;
      const out = await foreground(tool, { command: `cd ${f.ws} && ${request}` }, f.ctx);
      expect(out.sandboxed).toBe(true);
      expect(out.head).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*hello from the host$/);
      expect(f.session.cwd).toBe(f.ws);
      const started = Date.now();
      const slow = await foreground(tool, { command: 'sleep 20', timeout: 300 }, f.ctx);
      expect(slow.timedOut).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      server.close();
    }
  });

  it('times out and kills the sandboxed command', async () => {
    const tool = bashTool({ wrap: createSandboxWrap({ enabled: true }, f.session, { home: f.home }), graceMs: 200 });
    const started = Date.now();
    const out = await foreground(tool, { command: 'sleep 20 & sleep 20', timeout: 300 }, f.ctx);
    expect(out.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  // Found by the safety differential (bench/safety-diff.bench.ts): contained, `cat $(echo /proc/self/environ)`
  // is read-only to the analyser and read the secrets wield's own process holds (a model key, a
  // connection string), and /proc/1/environ (bubblewrap itself) held them too.
  it('a contained command finds no secret in its environment, nor in bubblewrap’s', async () => {
    const planted = { WIELD_TEST_API_TOKEN: 'CANARY-token', WIELD_TEST_ENDPOINT: 'postgres://u:CANARY-password@db.invalid/x' };
    Object.assign(process.env, planted, { WIELD_TEST_PLAIN: 'visible' });
    try {
      const tool = bashTool({ wrap: createSandboxWrap({}, f.session, { home: f.home }) });
      const script = "cat /proc/self/environ /proc/1/environ | tr '\\0' '\\n' | grep WIELD_TEST_";
      // The hole: a rule-allowed command (the whole machine readable) shows them, as the view did.
      const rule = await foreground(tool, { command: script }, { ...f.ctx, allowedBy: 'rule' });
      expect(rule.head).toContain('CANARY-token');
      const out = await foreground(tool, { command: script }, { ...f.ctx, allowedBy: 'verdict' });
      expect(out.sandboxed).toBe(true);
      expect(out.head).not.toContain('CANARY');
      expect(out.head).toContain('WIELD_TEST_PLAIN=visible');
    } finally {
      for (const name of [...Object.keys(planted), 'WIELD_TEST_PLAIN']) delete process.env[name];
    }
  });

  // bwrap's --new-session puts the command in a session of its own: the process group wield
  // kills is bwrap's, not the command's children (they kept running and held the pipes).
  it.each([
    ['guarded (bypassPermissions)', 'mode'],
    ['contained (read-only, no rule)', 'verdict'],
  ] as const)('a %s command ends at its timeout, children included', async (_name, allowedBy) => {
    const tool = bashTool({ wrap: createSandboxWrap({}, f.session, { home: f.home }), graceMs: 200 });
    const started = Date.now();
    const out = await foreground(tool, { command: 'tail -f /dev/null & sleep 21 & wait', timeout: 500 }, { ...f.ctx, allowedBy });
    expect(out.timedOut).toBe(true);
    expect(out.sandboxed).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toMatch(/^sleep 21$/m);
  });
});
