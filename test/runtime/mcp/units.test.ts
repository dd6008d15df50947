// Pure parts: names, configuration, annotation flags, result mapping, backoff, late joins, HTTP guards.
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  flagsFromAnnotations,
  mapCallResult,
  mapContentBlock,
  describeTool,
  MAX_DESCRIPTION_CHARS,
} from '../../../src/runtime/mcp/adapt.js';
import { restartDelay, remainingDelay, MAX_RESTART_DELAY_MS } from '../../../src/runtime/mcp/backoff.js';
import { expandEnv, parseServerConfig, parseServerRecord } from '../../../src/runtime/mcp/config.js';
import { loadMcpConfigs } from '../../../src/runtime/mcp/load.js';
import { assignToolNames, mcpToolName, MAX_TOOL_NAME } from '../../../src/runtime/mcp/names.js';
import { nextProgress } from '../../../src/runtime/mcp/gateway-content.js';
import { tokenMatches } from '../../../src/runtime/mcp/serve.js';
import { checkToolList } from '../../../src/runtime/mcp/tools.js';
import { declineNotice } from '../../../src/runtime/mcp/elicit.js';
import { connectFailure, givenUpNotice, joinedNotice, stillConnecting } from '../../../src/runtime/mcp/connect-attempt.js';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { tempDir } from './helpers.js';

describe('tool names', () => {
  it('are always valid provider names, at most 64 characters', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (server, tool) => {
        expect(mcpToolName(server, tool)).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      }),
    );
  });

  it('keep short names readable and cut long ones with a hash', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('my server', 'do.it')).toBe('mcp__my_server__do_it');
    const long = mcpToolName('srv', 'x'.repeat(100));
    expect(long).toHaveLength(MAX_TOOL_NAME);
    expect(long).toMatch(/_[0-9a-f]{8}$/);
    expect(mcpToolName('srv', `${'x'.repeat(100)}a`)).not.toBe(mcpToolName('srv', `${'x'.repeat(100)}b`));
  });

  it('stay unique within a server even when sanitising makes originals alike', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 80 }), { maxLength: 30 }), (tools) => {
        const names = assignToolNames('s', tools);
        expect(new Set(names.values()).size).toBe(tools.length);
      }),
    );
    const names = assignToolNames('s', ['a.b', 'a_b']);
    expect(names.get('a.b')).toBe('mcp__s__a_b');
    expect(names.get('a_b')).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
  });
});

describe('configuration', () => {
  it('accepts the shapes users write and infers the transport', () => {
    expect(parseServerConfig({ command: 'npx', args: ['-y', 'pkg'], env: { K: 'v' } })).toMatchObject({
      ok: true,
      config: { command: 'npx' },
    });
    expect(parseServerConfig({ type: 'http', url: 'https://example.com/mcp', headers: { A: 'b' } })).toMatchObject({
      ok: true,
      config: { type: 'http' },
    });
    expect(parseServerConfig({ url: 'http://127.0.0.1:3000/mcp' })).toMatchObject({ ok: true, config: { type: 'http' } });
  });

  it('explains what is wrong with a bad entry', () => {
    const sse = parseServerConfig({ type: 'sse', url: 'http://x/sse' });
    expect(sse).toMatchObject({ ok: false });
    expect(!sse.ok && sse.message).toMatch(/not supported.*"http"/);
    const noCommand = parseServerConfig({ args: ['x'] });
    expect(!noCommand.ok && noCommand.message).toMatch(/command/);
    const badUrl = parseServerConfig({ type: 'http', url: 'ftp://x' });
    expect(!badUrl.ok && badUrl.message).toMatch(/http\(s\) URL/);
    const typo = parseServerConfig({ command: 'x', arg: [] });
    expect(!typo.ok && typo.message).toMatch(/arg/);
    expect(parseServerConfig('npx pkg')).toMatchObject({ ok: false });
  });

  it('reports errors per server and keeps the good ones', () => {
    const set = parseServerRecord({ mcpServers: { good: { command: 'a' }, bad: { command: 5 } } }, '.mcp.json');
    expect(Object.keys(set.servers)).toEqual(['good']);
    expect(set.errors).toEqual([expect.objectContaining({ server: 'bad', source: '.mcp.json' })]);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const set = parseServerRecord(value, 'settings');
        expect(Object.keys(set.servers).length + set.errors.length).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('expands ${VAR} and ${VAR:-default}', () => {
    expect(expandEnv('Bearer ${TOKEN}', { TOKEN: 't' })).toBe('Bearer t');
    expect(expandEnv('${MISSING:-fallback}/x', {})).toBe('fallback/x');
    const set = parseServerRecord({ s: { type: 'http', url: 'https://h/${P}', headers: { A: '${K}' } } }, 'settings', {
      P: 'mcp',
      K: 'key',
    });
    expect(set.servers.s).toMatchObject({ url: 'https://h/mcp', headers: { A: 'key' } });
  });

  it('reads .mcp.json only for trusted projects; --mcp-config wins and may be a file', () => {
    const dir = tempDir('config');
    writeFileSync(
      path.join(dir, '.mcp.json'),
      JSON.stringify({ mcpServers: { proj: { command: 'p', cwd: 'sub' }, shared: { command: 'from-project' } } }),
    );
    mkdirSync(path.join(dir, 'cfg'));
    writeFileSync(path.join(dir, 'cfg', 'extra.json'), JSON.stringify({ mcpServers: { file: { command: 'f' } } }));
    const settings = { mcpServers: { shared: { command: 'from-settings' } } };
    const untrusted = loadMcpConfigs({ cwd: dir, settings, trusted: false });
    expect(Object.keys(untrusted.servers)).toEqual(['shared']);
    expect(untrusted.notes[0]).toMatch(/not trusted/);
    const trusted = loadMcpConfigs({
      cwd: dir,
      settings,
      trusted: true,
      mcpConfigFlag: '{"mcpServers": {"shared": {"command": "from-flag"}}}',
    });
    expect(trusted.servers.shared).toMatchObject({ command: 'from-flag' });
    expect(trusted.servers.proj).toMatchObject({ cwd: path.join(dir, 'sub') });
    expect(Object.keys(loadMcpConfigs({ cwd: dir, trusted: false, mcpConfigFlag: 'cfg/extra.json' }).servers)).toEqual(['file']);
    expect(loadMcpConfigs({ cwd: dir, trusted: false, mcpConfigFlag: '{oops' }).errors[0].message).toMatch(
      /^inline JSON:1:2: invalid JSON/,
    );
  });

  it('an entry with neither command nor url says what a server needs and where servers go', () => {
    const { errors } = parseServerRecord({ servers: {} }, 'test');
    expect(errors).toEqual([
      { server: 'servers', source: 'test', message: expect.stringMatching(/needs "command".*or "url".*\{"mcpServers"/) },
    ]);
  });

  it('a malformed .mcp.json is reported with its line and column', () => {
    const dir = tempDir('config');
    writeFileSync(path.join(dir, '.mcp.json'), '{\n  "mcpServers": {\n    "a": {"command": "x"},,\n  }\n}');
    const [error] = loadMcpConfigs({ cwd: dir, trusted: true }).errors;
    expect(error.source).toBe('.mcp.json');
    expect(error.message).toContain(`${path.join(dir, '.mcp.json')}:3:27: invalid JSON`);
  });
});

describe('annotations → flags', () => {
  const hints = fc.record({
    readOnlyHint: fc.option(fc.boolean(), { nil: undefined }),
    destructiveHint: fc.option(fc.boolean(), { nil: undefined }),
  });

  it('an untrusted server can never make a tool look safer than the defaults', () => {
    fc.assert(
      fc.property(hints, (annotations) => {
        expect(flagsFromAnnotations(annotations, false)).toEqual({ readOnly: false, concurrencySafe: false, destructive: true });
      }),
    );
  });

  it('a trusted server: read-only means parallel and not destructive; destructive defaults to true', () => {
    fc.assert(
      fc.property(hints, (annotations) => {
        const flags = flagsFromAnnotations(annotations, true);
        expect(flags.concurrencySafe).toBe(flags.readOnly);
        if (flags.readOnly) expect(flags.destructive).toBe(false);
        if (annotations.readOnlyHint !== true) expect(flags.destructive).toBe(annotations.destructiveHint !== false);
      }),
    );
  });
});

describe('result mapping', () => {
  it('maps text, image, audio, resources and links', () => {
    expect(mapContentBlock({ type: 'image', data: 'AAAA', mimeType: 'image/gif' })).toEqual({
      type: 'image',
      mediaType: 'image/gif',
      data: 'AAAA',
    });
    expect(mapContentBlock({ type: 'resource', resource: { uri: 'file:///a', text: 'body', mimeType: 'text/plain' } })).toEqual({
      type: 'text',
      text: '[resource file:///a (text/plain)]\nbody',
    });
    expect(mapContentBlock({ type: 'resource', resource: { uri: 'file:///b', blob: 'AAAA', mimeType: 'application/zip' } })).toMatchObject({
      text: expect.stringMatching(/binary application\/zip, 3 bytes, not shown/),
    });
    expect(mapContentBlock({ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' })).toMatchObject({ text: expect.stringMatching(/audio/) });
    expect(mapContentBlock({ type: 'resource_link', name: 'n', uri: 'u' })).toEqual({ type: 'text', text: '[resource link n u]' });
  });

  it('keeps isError and structured content; an empty result still says something', () => {
    expect(mapCallResult({ content: [{ type: 'text', text: 'bad' }], isError: true })).toEqual({
      content: [{ type: 'text', text: 'bad' }],
      isError: true,
    });
    expect(mapCallResult({ content: [], structuredContent: { a: 1 } })).toEqual({
      content: [{ type: 'text', text: '{\n  "a": 1\n}' }],
      structured: { a: 1 },
    });
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.boolean(), (content, isError) => {
        const mapped = mapCallResult({ content, isError });
        expect(mapped.content.length).toBeGreaterThan(0);
        expect(mapped.isError === true).toBe(isError);
      }),
    );
  });

  it('keeps a long description whole (usage rules), and cuts only a runaway one', () => {
    const manual = `${'Rules for this tool. '.repeat(320)}Never call it twice.`;
    expect(manual.length).toBeGreaterThan(6_500);
    expect(describeTool('s', { name: 't', description: manual, inputSchema: { type: 'object' } })).toBe(manual);
    const runaway = describeTool('s', { name: 't', description: 'x'.repeat(1_000_000), inputSchema: { type: 'object' } });
    expect(runaway.length).toBeLessThan(MAX_DESCRIPTION_CHARS + 40);
    expect(runaway).toMatch(/\(description truncated\)$/);
    expect(describeTool('s', { name: 't', inputSchema: { type: 'object' } })).toContain('MCP server "s"');
  });
});

describe('tool list checks', () => {
  it('skips bad entries with a reason and strips a draft-07 dialect', () => {
    const checked = checkToolList([
      {
        name: 'ok',
        inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string' } } },
      },
      { name: 'bad', inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } },
      { name: 'ok', inputSchema: { type: 'object' } },
      { inputSchema: { type: 'object' } },
      42,
    ]);
    expect(checked.tools.map((tool) => tool.name)).toEqual(['ok']);
    expect(checked.tools[0].inputSchema.$schema).toBeUndefined();
    expect(checked.errors).toHaveLength(4);
    expect(checked.errors[1]).toMatch(/listed twice/);
  });

  it('keeps a 2020-12 schema as the server wrote it ($schema, $defs, $anchor, combinators)', () => {
    const inputSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'addr', type: 'object' } },
      properties: { home: { $ref: '#/$defs/address' } },
      allOf: [{ anyOf: [{ required: ['home'] }] }],
      additionalProperties: false,
    };
    expect(checkToolList([{ name: 'rich', inputSchema }]).tools[0].inputSchema).toEqual(inputSchema);
  });

  it('skips a tool with malformed x-mcp-header declarations and keeps the valid ones', () => {
    const tool = (name: string, properties: Record<string, unknown>) => ({ name, inputSchema: { type: 'object', properties } });
    const checked = checkToolList([
      tool('valid', { region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'integer', 'x-mcp-header': 'N' } }),
      tool('empty', { v: { type: 'string', 'x-mcp-header': '' } }),
      tool('number', { v: { type: 'number', 'x-mcp-header': 'Score' } }),
      tool('duplicate', { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }),
      tool('colon', { v: { type: 'string', 'x-mcp-header': 'Region:Primary' } }),
      tool('non-ascii', { v: { type: 'string', 'x-mcp-header': 'Région' } }),
      tool('nested', { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }),
    ]);
    expect(checked.tools.map((entry) => entry.name)).toEqual(['valid']);
    expect(checked.errors).toHaveLength(6);
    expect(checked.errors.join('\n')).toMatch(/declared twice/);
  });
});

describe('gateway progress values', () => {
  const sendAll = (reported: (number | undefined)[]): number[] => {
    const sent: number[] = [];
    for (const value of reported) sent.push(nextProgress(sent.at(-1), value));
    return sent;
  };

  it("keeps a tool's own values while they increase, a first 0 included", () => {
    expect(sendAll([0, 0.25, 0.5, 1])).toEqual([0, 0.25, 0.5, 1]);
    expect(sendAll([undefined, undefined, 7, 7, 3])).toEqual([1, 2, 7, 8, 9]);
  });

  it('never repeats or goes back, whatever a tool reports', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: undefined }), { maxLength: 30 }), (reported) => {
        const sent = sendAll(reported);
        for (let i = 1; i < sent.length; i++) expect(sent[i]).toBeGreaterThan(sent[i - 1]);
      }),
    );
  });
});

describe('backoff', () => {
  it('restarts at once after one failure, then backs off up to a cap', () => {
    expect(restartDelay(0)).toBe(0);
    expect(restartDelay(1)).toBe(0);
    expect(restartDelay(2)).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (n) => {
        expect(restartDelay(n + 1)).toBeGreaterThanOrEqual(restartDelay(n));
        expect(restartDelay(n)).toBeLessThanOrEqual(MAX_RESTART_DELAY_MS);
      }),
    );
    expect(remainingDelay(3, 1_000, 1_500)).toBe(restartDelay(3) - 500);
    expect(remainingDelay(3, 0, 1_000_000)).toBe(0);
  });
});

describe('a connection attempt', () => {
  const attempt = { timedOut: false, joinTimeout: 300_000, pinnedModern: false };

  it('says why it failed: the join timeout when it ran out, else the error, with the fix for a pin', () => {
    expect(connectFailure(new Error('spawn ENOENT'), { ...attempt, timedOut: true })).toBe('no answer within 300 s');
    expect(connectFailure(new Error('spawn ENOENT'), attempt)).toBe('spawn ENOENT');
    const negotiation = new SdkError(SdkErrorCode.EraNegotiationFailed, 'no 2026-07-28');
    expect(connectFailure(negotiation, { ...attempt, pinnedModern: true })).toMatch(
      /no 2026-07-28; it does not speak 2026-07-28: set "protocol"/,
    );
    expect(connectFailure(negotiation, attempt)).toBe('no 2026-07-28');
  });

  it('names a late server, the tools it brought and where its output is', () => {
    expect(stillConnecting(1_500)).toBe('no answer within 1.5 s yet');
    expect(joinedNotice('late', 1)).toBe('MCP server "late" joined: 1 tool');
    expect(joinedNotice('late', 8)).toBe('MCP server "late" joined: 8 tools');
    expect(givenUpNotice('never', 'no answer within 300 s', '/logs/never.log')).toBe(
      'MCP server "never" did not start, so its tools are missing: no answer within 300 s (its output: /logs/never.log)',
    );
    expect(givenUpNotice('never', 'spawn ENOENT', undefined)).toBe(
      'MCP server "never" did not start, so its tools are missing: spawn ENOENT',
    );
  });

  it('takes joinTimeout in a server entry, and refuses one that is not a positive whole number of ms', () => {
    expect(parseServerConfig({ command: 'x', joinTimeout: 600_000 })).toMatchObject({ ok: true, config: { joinTimeout: 600_000 } });
    const bad = parseServerConfig({ command: 'x', joinTimeout: -1 });
    expect(!bad.ok && bad.message).toMatch(/joinTimeout/);
  });
});

describe('HTTP guards', () => {
  it('checks the bearer token exactly', () => {
    expect(tokenMatches('Bearer abc', 'abc')).toBe(true);
    expect(tokenMatches('bearer  abc', 'abc')).toBe(true);
    expect(tokenMatches('Bearer abcd', 'abc')).toBe(false);
    expect(tokenMatches(undefined, 'abc')).toBe(false);
    expect(tokenMatches('Basic abc', 'abc')).toBe(false);
    const token68 = fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,40}$/);
    fc.assert(
      fc.property(token68, token68, (given, expected) => {
        expect(tokenMatches(`Bearer ${given}`, expected)).toBe(given === expected);
      }),
    );
  });
});

describe('questions with no one to answer (-p)', () => {
  it('the notice quotes the question and names what would answer it', () => {
    const notice = declineNotice({ server: 'gw', message: 'Allow Write?', mode: 'form', requestedSchema: {} });
    expect(notice).toContain('MCP server "gw" asked: "Allow Write?"; declined');
    expect(notice).toContain('"elicitation": "accept-defaults"');
    expect(notice).toContain('--allow RULE');
  });
});

describe('execution.taskSupport', () => {
  it('is read from a listed tool when it is one the spec defines, and ignored otherwise', () => {
    const schema = { type: 'object' };
    const { tools, errors } = checkToolList([
      { name: 'a', inputSchema: schema, execution: { taskSupport: 'required' } },
      { name: 'b', inputSchema: schema, execution: { taskSupport: 'optional' } },
      { name: 'c', inputSchema: schema, execution: { taskSupport: 'sometimes' } },
      { name: 'd', inputSchema: schema, execution: 'no' },
      { name: 'e', inputSchema: schema },
    ]);
    expect(errors).toEqual([]);
    expect(tools.map((tool) => tool.taskSupport)).toEqual(['required', 'optional', undefined, undefined, undefined]);
  });
});

describe('oauth private_key_jwt settings', () => {
  it('takes a key and algorithm with a client ID, and refuses a key without one', () => {
    const url = 'https://example.com/mcp';
    const oauth = { grant: 'client_credentials', clientId: 'c', privateKey: '$KEY', signingAlgorithm: 'ES256' };
    expect(parseServerConfig({ type: 'http', url, oauth })).toMatchObject({ ok: true, config: { oauth } });
    const orphan = parseServerConfig({ type: 'http', url, oauth: { grant: 'client_credentials', privateKey: 'k' } });
    expect(orphan).toMatchObject({ ok: false, message: expect.stringContaining('oauth.privateKey needs oauth.clientId') });
    const weak = parseServerConfig({ type: 'http', url, oauth: { clientId: 'c', privateKey: 'k', signingAlgorithm: 'HS256' } });
    expect(weak.ok).toBe(false);
  });
});

describe('oauth jwt-bearer (workload identity) settings', () => {
  it('takes an assertion with a client ID, and refuses the grant or the assertion alone', () => {
    const url = 'https://example.com/mcp';
    const oauth = { grant: 'jwt-bearer', clientId: 'workload', assertion: '${WORKLOAD_JWT}' };
    expect(parseServerConfig({ type: 'http', url, oauth })).toMatchObject({ ok: true, config: { oauth } });
    for (const broken of [
      { grant: 'jwt-bearer', clientId: 'workload' },
      { grant: 'jwt-bearer', assertion: 'a.b.c' },
      { clientId: 'workload', assertion: 'a.b.c' },
    ]) {
      const parsed = parseServerConfig({ type: 'http', url, oauth: broken });
      expect(parsed).toMatchObject({ ok: false, message: expect.stringContaining('oauth.assertion goes with "grant": "jwt-bearer"') });
    }
  });
});

describe('a refused oauth entry', () => {
  it('names the field at fault, not the union around it', () => {
    const parsed = parseServerConfig({ type: 'http', url: 'https://example.com/mcp', oauth: { clientId: 5 } });
    expect(parsed).toEqual({ ok: false, message: 'oauth.clientId: Invalid input: expected string, received number' });
    const neither = parseServerConfig({ type: 'http', url: 'https://example.com/mcp', oauth: 'yes' });
    expect(neither).toEqual({ ok: false, message: 'oauth: Invalid input' });
  });
});
