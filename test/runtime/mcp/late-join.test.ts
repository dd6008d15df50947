// A server slower than its connect timeout: callers stop waiting for it at that timeout, its
// connection goes on in the background, and its tools join the registry when it is up (the person
// is told); one that never comes up is given up at its join timeout, its process stopped. The
// server is the tests' own (faulty.mjs), held at a gate file the test opens: no timing guesses.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import type { McpStdioConfig } from '../../../src/runtime/mcp/config.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { FAULTY_SERVER, tempDir, testRuntime, textOf } from './helpers.js';

const SLOW_START = path.join(path.dirname(FAULTY_SERVER), 'slow-start.mjs');

const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

/** faulty.mjs behind a gate: it starts once `open()` creates the gate file. */
function gated(extra: Partial<McpStdioConfig> = {}) {
  const gate = path.join(tempDir('gate'), 'open');
  const config: McpStdioConfig = { command: process.execPath, args: [SLOW_START, gate, FAULTY_SERVER], ...extra };
  const pids = (): number[] =>
    existsSync(`${gate}.pids`) ? readFileSync(`${gate}.pids`, 'utf8').split('\n').filter(Boolean).map(Number) : [];
  return { config, open: () => writeFileSync(gate, ''), pids };
}

/** A manager whose notices resolve the waits of `nextNotice`. */
function managerWithNotices() {
  const notices: string[] = [];
  const waiting: { match: RegExp; resolve: (notice: string) => void }[] = [];
  const manager = new McpManager({
    notify: (message) => {
      notices.push(message);
      for (const wait of waiting.filter((w) => w.match.test(message))) wait.resolve(message);
    },
  });
  managers.push(manager);
  const nextNotice = (match: RegExp): Promise<string> =>
    new Promise((resolve) => {
      const seen = notices.find((notice) => match.test(notice));
      if (seen) resolve(seen);
      else waiting.push({ match, resolve });
    });
  return { manager, notices, nextNotice };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a server slower than its connect timeout', () => {
  it('is waited for only its connect timeout, then joins the registry when it is up, and the person is told', async () => {
    const { registry, call } = testRuntime(allowAll);
    const { manager, notices, nextNotice } = managerWithNotices();
    const server = gated({ connectTimeout: 300 });
    const changes: string[] = [];
    manager.connectAll({ late: server.config }, { registry, logDir: tempDir('late-logs'), onChange: (name) => changes.push(name) });

    // ready() (the first request, `wield mcp list`) returns with the gate still shut.
    await manager.ready();
    expect(manager.list()[0]).toMatchObject({ state: 'connecting', error: 'no answer within 0.3 s yet', toolCount: 0 });
    expect(registry.get('mcp__late__echo')).toBeUndefined();
    // Callers that wait for a connecting server stop waiting at once for one already late.
    expect(await manager.waitForTool('mcp__late__echo', registry)).toBeUndefined();
    expect(await manager.settleConnecting(undefined, 60_000)).toEqual(['late']);
    expect(manager.explainMissing('mcp__late__echo')).toContain('MCP server "late" is connecting: no answer within 0.3 s yet');
    expect(notices).toEqual([]);

    server.open();
    expect(await nextNotice(/joined/)).toBe('MCP server "late" joined: 8 tools');
    expect(changes).toEqual(['late']);
    expect(manager.list()[0]).toMatchObject({ state: 'connected', toolCount: 8, restarts: 0 });
    expect(manager.list()[0].error).toBeUndefined();
    const echo = await call('mcp__late__echo', { text: 'late but here' });
    expect(echo.isError).toBe(false);
    expect(textOf(echo)).toBe('late but here');
  }, 60_000);

  it('that never comes up is given up at its join timeout, says why, and its processes are stopped', async () => {
    const { registry } = testRuntime(allowAll);
    const { manager, nextNotice } = managerWithNotices();
    const server = gated({ connectTimeout: 200, joinTimeout: 1_500 });
    const logDir = tempDir('never-logs');
    manager.connectAll({ never: server.config }, { registry, logDir });
    await manager.ready();
    expect(manager.list()[0].state).toBe('connecting');

    const notice = await nextNotice(/did not start/);
    expect(notice).toMatch(
      /^MCP server "never" did not start, so its tools are missing: no answer within 1.5 s \(its output: .*never\.log\)$/,
    );
    expect(manager.list()[0]).toMatchObject({ state: 'failed', error: 'no answer within 1.5 s' });
    // The server/discover probe's process and the server's own: none is left running.
    expect(server.pids().length).toBeGreaterThan(0);
    await expect.poll(() => server.pids().filter(alive), { timeout: 10_000 }).toEqual([]);
    expect(manager.explainMissing('mcp__never__echo')).toContain('MCP server "never" is failed: no answer within 1.5 s');
  }, 60_000);

  it('still connecting when the manager closes is stopped then, not at its join timeout', async () => {
    const { registry } = testRuntime(allowAll);
    const { manager, notices } = managerWithNotices();
    const server = gated({ connectTimeout: 200, joinTimeout: 600_000, protocol: '2025-11-25' });
    manager.connectAll({ held: server.config }, { registry });
    await manager.ready();
    await expect.poll(() => server.pids().length, { timeout: 10_000 }).toBe(1);
    expect(alive(server.pids()[0])).toBe(true);
    managers.splice(managers.indexOf(manager), 1);
    await manager.close();
    expect(manager.list()[0].state).toBe('closed');
    await expect.poll(() => server.pids().filter(alive), { timeout: 10_000 }).toEqual([]);
    // Shutting down is not a failure to report.
    expect(notices).toEqual([]);
  }, 60_000);
});
