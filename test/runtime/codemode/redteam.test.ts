// Attempts to get out of the interpreter or past its bounds, each a test: the program reaches
// nothing of the host, and what it does to its own objects never reaches wield's.
import { describe, expect, it } from 'vitest';
import { codeRuntime, runCode } from './helpers.js';

const rt = codeRuntime({ appended: [] }, {}, { cpuMs: 1000, memoryBytes: 16 * 1024 * 1024 });
const run = async (code: string) => (await runCode(rt, code)).text.split('\n\n')[0];

describe('escape to the host', () => {
  it('no host globals: process, require, module loading, timers', async () => {
    expect(await run('console.log(typeof process, typeof require, typeof setTimeout, typeof fetch, typeof Deno)')).toBe(
      'undefined undefined undefined undefined undefined',
    );
    expect(await run("try { await import('node:fs') } catch (e) { console.log('no modules:', e.name) }")).toBe(
      'no modules: ReferenceError',
    );
  });

  it('the Function constructor, reached from anywhere, builds functions of the sandbox only', async () => {
    const out = await run(`
      const viaTools = tools.Lookup.constructor.constructor('return typeof process')();
      const viaConsole = console.log.constructor('return this')();
      const viaPromise = tools.Lookup({ key: 'a' }).constructor.constructor('return typeof require')();
      console.log(viaTools, viaConsole === globalThis, viaPromise, typeof (function () { return this })())`);
    expect(out).toBe('undefined true undefined undefined');
  });

  it('the host functions behind the bridge are gone from the global object', async () => {
    expect(
      await run(
        "console.log(Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('__')).join() || 'none', typeof tools.then)",
      ),
    ).toBe('none undefined');
  });

  it('`this` at the top of a program is the sandbox global, with no host objects on it', async () => {
    expect(await run('console.log(this === globalThis, Object.keys(this).sort().join())')).toBe('true console,performance,tools');
  });
});

describe('prototype pollution of the bridge', () => {
  it("the program's own prototypes and JSON change nothing on the host, nor what a call sends", async () => {
    const out = await run(`
      Object.prototype.polluted = 'yes';
      Array.prototype.map = () => { throw new Error('hijacked') };
      JSON.stringify = () => '{"key":"evil"}';
      Promise.prototype.then = function () { throw new Error('hijacked then') };
      console.log('sent', (await tools.Lookup({ key: 'good' })).includes('"good"'));`);
    expect(out).toBe('sent true');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('__proto__ in an input stays data on the host', async () => {
    const out = await run(`console.log(await tools.Lookup(JSON.parse('{"key":"k","__proto__":{"polluted":"yes"}}')))`);
    expect(out).toContain('"key": "k"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('getters on an input run once, in the sandbox, before the call: the host sees plain data', async () => {
    const out = await run(`
      let reads = 0;
      const input = { get key() { reads++; return 'read' + reads } };
      const result = JSON.parse(await tools.Lookup(input));
      console.log(result.key, reads)`);
    expect(out).toBe('read1 1');
  });

  it('an input that cannot become JSON is an error the program can catch', async () => {
    const out = await run(`
      const cyclic = {}; cyclic.self = cyclic;
      try { await tools.Lookup(cyclic) } catch (e) { console.log('caught', e.name) }
      try { await tools.Lookup(new Proxy({}, { ownKeys() { throw new Error('trap') } })) } catch (e) { console.log('caught', e.message) }`);
    expect(out).toBe('caught TypeError\ncaught trap');
  });
});

describe('resource exhaustion', () => {
  it.each([
    ['CPU', 'for (;;) {}', /CPU/],
    ['CPU in promise jobs', 'const spin = async () => { for (;;) await 0 }; await spin()', /CPU/],
    ['memory', 'const a = []; for (;;) a.push(new Array(1 << 16).fill(1))', /out of memory/],
    ['memory outside the heap limit', 'const a = []; for (;;) a.push(new Uint8Array(1 << 20))', /out of memory/],
    ['the stack', 'const f = () => f(); f()', /Maximum call stack size exceeded/],
    ['a flood of calls', 'for (;;) tools.Lookup({ key: "x" })', /CPU|out of memory/],
  ])('%s', async (_, code, expected) => {
    const { result, text } = await runCode(rt, code);
    expect(result.isError).toBe(true);
    expect(text).toMatch(expected);
  });

  it('a program cannot start a program', async () => {
    expect(await run("try { await tools.RunCode({ code: 'console.log(1)' }) } catch (e) { console.log(e.message) }")).toBe(
      'RunCode cannot run inside a program: call the tools directly, with await tools.Name(input).',
    );
  });
});
