// The client against a server of our own that crashes, hangs, prints garbage, lists broken
// schemas and pages 2,000 tools — every case through the real pipeline.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { faultyConfig, tempDir, testRuntime, textOf, until } from './helpers.js';

const managers: McpManager[] = [];
function manager(): McpManager {
  const created = new McpManager();
  managers.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

describe('MCP client: faults', () => {
  it('lists, calls and maps results through the pipeline', async () => {
    const { registry, call, events } = testRuntime(allowAll);
    const m = manager();
    m.connectAll({ faulty: faultyConfig() }, { registry });
    await m.ready();
    expect(m.list()[0]).toMatchObject({ name: 'faulty', state: 'connected', toolCount: 8 });
    const echo = await call('mcp__faulty__echo', { text: 'hello' });
    expect(echo).toMatchObject({ isError: false, content: [{ type: 'text', text: 'hello' }] });
    const structured = await call('mcp__faulty__structured', {});
    expect(structured.structured).toEqual({ answer: 42 });
    const failed = await call('mcp__faulty__fail', {});
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain('it went wrong');
    const invalid = await call('mcp__faulty__echo', {});
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/text/);
    const progress = await call('mcp__faulty__progress', { steps: 3 });
    expect(textOf(progress)).toBe('done 3');
    const steps = events.filter((event) => event.type === 'tool_progress');
    expect(steps.map((event) => (event.type === 'tool_progress' ? event.progress.progress : 0))).toEqual([1, 2, 3]);
  });

  it('a crash mid-call gives an error naming the server, and the next call restarts it', async () => {
    const { registry, call } = testRuntime(allowAll);
    const logDir = tempDir('logs');
    const m = manager();
    m.connectAll({ flaky: faultyConfig() }, { registry, logDir });
    await m.ready();
    const firstPid = textOf(await call('mcp__flaky__pid', {}));
    const crashed = await call('mcp__flaky__crash', {});
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/MCP server "flaky" crashed or disconnected/);
    expect(textOf(crashed)).toContain('restarted on the next call');
    const after = await call('mcp__flaky__pid', {});
    expect(after.isError).toBe(false);
    expect(textOf(after)).not.toBe(firstPid);
    expect(m.list()[0]).toMatchObject({ state: 'connected', restarts: 1 });
    // stderr goes to the server's log, never to the terminal.
    expect(readFileSync(m.list()[0].logFile as string, 'utf8')).toContain('faulty: crashing on purpose');
  });

  it('a call for a server still connecting waits for it', async () => {
    const { registry } = testRuntime(allowAll);
    const m = manager();
    m.connectAll({ late: faultyConfig() }, { registry });
    expect(registry.get('mcp__late__echo')).toBeUndefined();
    const tool = await m.waitForTool('mcp__late__echo', registry);
    expect(tool?.name).toBe('mcp__late__echo');
    expect(await m.waitForTool('mcp__nobody__echo', registry)).toBeUndefined();
  });

  it('a hanging call hits the per-server timeout and other calls still work', async () => {
    const { registry, call } = testRuntime(allowAll);
    const m = manager();
    m.connectAll({ slow: faultyConfig([], { timeout: 300 }) }, { registry });
    await m.ready();
    const started = Date.now();
    const hung = await call('mcp__slow__hang', {});
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(hung.isError).toBe(true);
    expect(textOf(hung)).toMatch(/MCP server "slow" did not answer "hang" within 0.3 s/);
    expect(textOf(await call('mcp__slow__echo', { text: 'still here' }))).toBe('still here');
  });

  it('an aborted call is cancelled without breaking the connection', async () => {
    const { registry, call } = testRuntime(allowAll);
    const m = manager();
    m.connectAll({ s: faultyConfig() }, { registry });
    await m.ready();
    const controller = new AbortController();
    const pending = call('mcp__s__hang', {}, controller.signal);
    setTimeout(() => controller.abort(), 100);
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(textOf(await call('mcp__s__echo', { text: 'ok' }))).toBe('ok');
  });

  it('garbage on stdout and broken schemas are reported; the other tools work', async () => {
    const { registry, call } = testRuntime(allowAll);
    const m = manager();
    m.connectAll({ messy: faultyConfig(['--garbage', '--invalid-schema', '--page-size', '3']) }, { registry });
    await m.ready();
    const [status] = m.list();
    expect(status.state).toBe('connected');
    expect(status.toolCount).toBe(8);
    expect(status.toolErrors).toHaveLength(2);
    expect(status.toolErrors.join('\n')).toMatch(/bad_type.*not valid JSON Schema/);
    expect(status.toolErrors.join('\n')).toMatch(/not_object/);
    expect(registry.get('mcp__messy__bad_type')).toBeUndefined();
    expect(textOf(await call('mcp__messy__echo', { text: 'clean' }))).toBe('clean');
  });

  it('pages through 2,000 tools', async () => {
    const { registry, call } = testRuntime(allowAll);
    const m = manager();
    m.connectAll({ big: faultyConfig(['--tools', '2000', '--page-size', '150']) }, { registry });
    await m.ready();
    expect(m.list()[0].toolCount).toBe(2008);
    expect(registry.all().filter((tool) => tool.server === 'big')).toHaveLength(2008);
    expect(textOf(await call('mcp__big__gen_1999', { n: 1 }))).toBe('gen_1999 ok {"n":1}');
  });

  it('tools/list_changed refreshes the pool', async () => {
    const { registry, call } = testRuntime(allowAll);
    const m = manager();
    const changes: string[] = [];
    m.connectAll({ live: faultyConfig() }, { registry, onChange: (server) => changes.push(server) });
    await m.ready();
    expect(registry.get('mcp__live__fresh')).toBeUndefined();
    await call('mcp__live__add_tool', { text: 'fresh' });
    await until(() => registry.get('mcp__live__fresh') !== undefined);
    expect(changes).toEqual(['live', 'live']);
    expect(textOf(await call('mcp__live__fresh', {}))).toBe('fresh ok {}');
  });

  it('a tool announced before the call is answered is registered when the call returns, every time', async () => {
    const { registry, call } = testRuntime(allowAll);
    const m = manager();
    m.connectAll({ live: faultyConfig() }, { registry });
    await m.ready();
    // Without waiting for the listing that list_changed starts, about half of these missed it.
    for (let i = 0; i < 20; i++) {
      await call('mcp__live__add_tool', { text: `tool_${i}` });
      expect(registry.get(`mcp__live__tool_${i}`), `tool_${i}`).toBeDefined();
    }
  });

  it('a server that cannot start is reported and does not block the others', async () => {
    const { registry } = testRuntime(allowAll);
    const m = manager();
    m.connectAll({ missing: { command: '/nonexistent/program' }, good: faultyConfig() }, { registry });
    await m.ready();
    const states = Object.fromEntries(m.list().map((status) => [status.name, status]));
    expect(states.missing.state).toBe('failed');
    expect(states.missing.error).toBeTruthy();
    expect(states.good.state).toBe('connected');
  });

  it('a server that crashes at start is quoted by its error, not by the "Node.js v20" line its crash ends with', async () => {
    const { registry } = testRuntime(allowAll);
    const m = manager();
    const crash = "require('wield-no-such-module')";
    m.connectAll({ crashed: { command: process.execPath, args: ['-e', crash] } }, { registry });
    await m.ready();
    const [status] = m.list();
    expect(status.state).toBe('failed');
    expect(status.error).toMatch(/its stderr said: Error: Cannot find module 'wield-no-such-module'/);
    expect(status.error).not.toMatch(/Node\.js v\d/);
  });
});
