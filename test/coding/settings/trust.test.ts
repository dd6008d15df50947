import { describe, expect, it } from 'vitest';
import { ignoredByDistrust, ignoredLines, parseTrustReply, shouldAskTrust, untold } from '../../../src/coding/settings/trust.js';

describe('what an untrusted project file would change', () => {
  it('names the keys that need trust, and nothing for keys that only tighten', () => {
    expect(
      ignoredByDistrust({
        permissions: { allow: ['Bash(x *)'], additionalDirectories: ['../lib'], defaultMode: 'acceptEdits' },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './x' }] }] },
        mcpServers: { s: { command: 'x' } },
        sandbox: { autoAllowBash: true },
      }),
    ).toEqual(['allow rules', 'hooks', 'MCP servers', 'extra folders', 'permission mode acceptEdits', 'sandbox exemptions']);
    expect(
      ignoredByDistrust({
        permissions: { deny: ['WebFetch'], ask: ['Bash(git push *)'], defaultMode: 'plan' },
        sandbox: { enabled: true, denyRead: ['secrets/'] },
      }),
    ).toEqual([]);
    expect(ignoredByDistrust({ sandbox: { denyRead: ['!.env'] } })).toEqual(['sandbox exemptions']);
  });

  it('makes one line per file with something ignored', () => {
    expect(
      ignoredLines([
        { name: 'a', items: ['hooks'] },
        { name: 'b', items: [] },
      ]),
    ).toEqual(['a: hooks']);
  });
});

describe('when to ask and what to tell', () => {
  it('asks only an untrusted folder with ignored settings and no earlier "no"', () => {
    expect(shouldAskTrust(false, ['a: hooks'], {})).toBe(true);
    expect(shouldAskTrust(true, ['a: hooks'], {})).toBe(false);
    expect(shouldAskTrust(false, [], {})).toBe(false);
    expect(shouldAskTrust(false, ['a: hooks'], { declined: true })).toBe(false);
  });

  it('tells only what was not told before', () => {
    expect(untold(['a: hooks', '.mcp.json: MCP servers'], { noticed: ['a: hooks'] })).toEqual(['.mcp.json: MCP servers']);
    expect(untold(['a: hooks'], { noticed: ['a: hooks'] })).toEqual([]);
  });

  it('reads y/yes and n/no, nothing else', () => {
    expect(parseTrustReply(' Y ')).toBe('yes');
    expect(parseTrustReply('no')).toBe('no');
    expect(parseTrustReply('sure')).toBe('invalid');
    expect(parseTrustReply('')).toBe('invalid');
  });
});
