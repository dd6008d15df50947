// The servers' resources and prompts for wield itself, against real server-everything over stdio:
// the ListMcpResources / ReadMcpResource tools through the pipeline (rules apply, failures are
// errors the model reads) and the functions the CLI uses (`server:uri`, prompts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicy } from '../../../src/coding/permissions/engine.js';
import { parseRule } from '../../../src/coding/permissions/rules.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import { McpManager } from '../../../src/runtime/mcp/manager.js';
import {
  createResourceTools,
  getMcpPrompt,
  listMcpPrompts,
  listMcpResources,
  readMcpResource,
  resourceContent,
  resourceRuleMatches,
} from '../../../src/runtime/mcp/resources.js';
import { allowAll } from '../../../src/runtime/pipeline/policies.js';
import { serverEntry, tempDir, testRuntime, textOf, type TestRuntime } from './helpers.js';
import { parseResourceReference } from '../../../src/runtime/mcp/reference.js';

const EVERYTHING = serverEntry('@modelcontextprotocol/server-everything');
const DOC = 'demo://resource/static/document/architecture.md';
const signal = new AbortController().signal;

let manager: McpManager;
let runtime: TestRuntime;

beforeAll(async () => {
  runtime = testRuntime(allowAll);
  manager = new McpManager();
  manager.connectAll(
    {
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      gone: { command: process.execPath, args: ['-e', 'process.exit(2)'] },
    },
    { registry: runtime.registry, logDir: tempDir('res-logs') },
  );
  for (const tool of createResourceTools(manager)) runtime.registry.register(tool);
  await manager.ready();
}, 30_000);

afterAll(async () => {
  await manager.close();
});

describe('resource references and rules', () => {
  it('server:uri splits at the first colon; the URI keeps its own', () => {
    expect(parseResourceReference(`everything:${DOC}`)).toEqual({ server: 'everything', uri: DOC });
    for (const bad of ['everything', ':demo://x', 'everything:']) expect(parseResourceReference(bad)).toBeUndefined();
  });

  it('a rule names a server, or a server and a URI glob', () => {
    expect(resourceRuleMatches('everything', 'everything', DOC)).toBe(true);
    expect(resourceRuleMatches('everything', 'other', DOC)).toBe(false);
    expect(resourceRuleMatches('everything:demo://resource/static/**', 'everything', DOC)).toBe(true);
    expect(resourceRuleMatches('everything:demo://resource/dynamic/**', 'everything', DOC)).toBe(false);
  });
});

describe('ListMcpResources and ReadMcpResource', () => {
  it('a listing or a read right after start waits for servers still connecting', async () => {
    const fresh = new McpManager();
    try {
      fresh.connectAll(
        { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
        { registry: testRuntime(allowAll).registry },
      );
      expect(fresh.list()[0].state).toBe('connecting');
      const [listed] = await listMcpResources(fresh, signal);
      expect(listed.error).toBeUndefined();
      expect(listed.resources.map((r) => r.uri)).toContain(DOC);
    } finally {
      await fresh.close();
    }
    const another = new McpManager();
    try {
      another.connectAll(
        { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
        { registry: testRuntime(allowAll).registry },
      );
      const read = await readMcpResource(another, `everything:${DOC}`, signal);
      expect(read.ok).toBe(true);
    } finally {
      await another.close();
    }
  });

  it('lists resources and templates as server:uri lines, and says why a server is missing', async () => {
    const result = await runtime.call('ListMcpResources', {});
    expect(result.isError).toBe(false);
    const text = textOf(result);
    expect(text).toContain(`everything:${DOC}`);
    expect(text).toContain('everything:demo://resource/dynamic/text/{resourceId} (template)');
    expect(text).toMatch(/gone: MCP server "gone" is failed/);
  });

  it('reads text as text, also a text/* blob, and describes binary content', async () => {
    const doc = await runtime.call('ReadMcpResource', { server: 'everything', uri: DOC });
    expect(doc.isError).toBe(false);
    expect(textOf(doc)).toContain('Architecture');
    // server-everything sends this text/plain resource as a base64 blob.
    const blob = await runtime.call('ReadMcpResource', { server: 'everything', uri: 'demo://resource/dynamic/blob/1' });
    expect(textOf(blob)).toMatch(
      /^\[everything:demo:\/\/resource\/dynamic\/blob\/1\] \(text\/plain\)\nResource 1: This is a base64 blob created at /,
    );
    const bytes = (mimeType: string, data: Buffer) =>
      resourceContent('s', { contents: [{ uri: 'x://1', mimeType, blob: data.toString('base64') }] })[0];
    expect(bytes('application/octet-stream', Buffer.from('abc'))).toMatchObject({
      text: expect.stringMatching(/binary content, 3 bytes, not shown/),
    });
    expect(bytes('text/plain', Buffer.from([0xff, 0xfe, 0x00]))).toMatchObject({
      text: expect.stringMatching(/binary content, 3 bytes, not shown/),
    });
  });

  it('a missing server or resource is an error result the model can read', async () => {
    const unknown = await runtime.call('ReadMcpResource', { server: 'nope', uri: DOC });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('No MCP server named "nope" (configured: "everything", "gone")');
    const missing = await runtime.call('ReadMcpResource', { server: 'everything', uri: 'demo://nothing/here' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('could not read demo://nothing/here');
  });

  it('permission rules apply: a deny rule on a server:uri glob refuses the read', async () => {
    const settings = emptySettings();
    const rt = runtime.rt;
    settings.permissions.deny = ['ReadMcpResource(everything:demo://resource/static/**)'].map((text) => {
      const parsed = parseRule(text);
      if (!parsed.ok) throw new Error(parsed.message);
      return { ...parsed.rule, text, source: 'test', base: rt.session.cwd };
    }) as typeof settings.permissions.deny;
    const guarded = testRuntime(
      createPolicy({ settings, cwd: rt.session.cwd, roots: [rt.session.cwd], home: '/nonexistent-home' }),
      runtime.registry,
    );
    const denied = await guarded.call('ReadMcpResource', { server: 'everything', uri: DOC });
    expect(denied.isError).toBe(true);
    expect(denied.errorKind).toBe('denied');
    expect(textOf(denied)).toContain('ReadMcpResource(everything:demo://resource/static/**)');
    const other = await guarded.call('ReadMcpResource', { server: 'everything', uri: 'demo://resource/dynamic/text/1' });
    expect(other.isError).toBe(false);
  });
});

describe('functions for the CLI', () => {
  it('reads a resource by server:uri, each failure a value with a kind', async () => {
    const read = await readMcpResource(manager, `everything:${DOC}`, signal);
    expect(read.ok && read.result.contents[0].uri).toBe(DOC);
    expect(await readMcpResource(manager, 'no-colon', signal)).toMatchObject({ ok: false, kind: 'bad-reference' });
    expect(await readMcpResource(manager, `nope:${DOC}`, signal)).toMatchObject({ ok: false, kind: 'unknown-server' });
    expect(await readMcpResource(manager, `gone:${DOC}`, signal)).toMatchObject({ ok: false, kind: 'not-connected' });
  });

  it('lists prompts with their server and gets one filled with its arguments', async () => {
    const prompts = await listMcpPrompts(manager, signal);
    expect(prompts.find((p) => p.name === 'args-prompt')).toMatchObject({
      server: 'everything',
      arguments: [{ name: 'city' }, { name: 'state' }],
    });
    const got = await getMcpPrompt(manager, 'everything', 'args-prompt', { city: 'Lyon' }, signal);
    expect(got.ok && JSON.stringify(got.result.messages)).toContain('Lyon');
    expect(await getMcpPrompt(manager, 'everything', 'no-such-prompt', {}, signal)).toMatchObject({ ok: false, kind: 'failed' });
  });
});
