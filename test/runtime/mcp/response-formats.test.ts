// A server's "responseFormats": true gives its tools concise and detailed results, through a
// real stdio MCP server and the real pipeline; the server never sees the parameter.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { toolSpec } from '../../../src/runtime/registry/spec.js';
import { faultyConfig, testRuntime, textOf } from './helpers.js';

const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

async function connect(responseFormats: boolean) {
  const runtime = testRuntime(allowAll);
  const m = new McpManager();
  managers.push(m);
  m.connectAll({ s: faultyConfig(['--tools', '1'], responseFormats ? { responseFormats } : {}) }, { registry: runtime.registry });
  await m.ready();
  return runtime;
}

describe('MCP response formats (opt-in per server)', () => {
  it('off by default: the schema is the server’s own', async () => {
    const { registry } = await connect(false);
    const schema = toolSpec(registry.get('mcp__s__echo')!, '/').inputSchema as { properties: object };
    expect(Object.keys(schema.properties)).toEqual(['text']);
  });

  it('on: concise keeps 2,000 characters and spills the rest; detailed is the whole result; the server gets no response_format', async () => {
    const { registry, call } = await connect(true);
    const schema = toolSpec(registry.get('mcp__s__echo')!, '/').inputSchema as { properties: Record<string, { enum?: string[] }> };
    expect(schema.properties.response_format.enum).toEqual(['concise', 'detailed']);
    const long = Array.from({ length: 800 }, (_, i) => `row ${i}`).join('\n');
    const detailed = await call('mcp__s__echo', { text: long, response_format: 'detailed' });
    expect(textOf(detailed)).toBe(long);
    const concise = textOf(await call('mcp__s__echo', { text: long, response_format: 'concise' }));
    expect(concise.length).toBeLessThanOrEqual(2_000);
    expect(concise).toContain('row 0\n');
    expect(concise).toContain('row 799');
    const file = /saved in (\S+)\./.exec(concise)?.[1] as string;
    expect(readFileSync(file, 'utf8')).toBe(long);
    const args = await call('mcp__s__gen_0000', { n: 1, response_format: 'concise' });
    expect(textOf(args)).toBe('gen_0000 ok {"n":1}');
  });
});
