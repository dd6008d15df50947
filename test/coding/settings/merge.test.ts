// Class 12: an untrusted layer (a project's own settings before the user trusts it) can only
// tighten. Property: for any trusted layers and any untrusted layer, every call is decided no more
// permissively with the untrusted layer merged than without it, and the sandbox hides no less.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashAnalyzer } from '../../../src/coding/bash/index.js';
import { decideCall } from '../../../src/coding/permissions/engine.js';
import { parseDenyRead, type SandboxSettings } from '../../../src/coding/sandbox/settings.js';
import { autoAllowsBash } from '../../../src/coding/sandbox/index.js';
import { profileFor } from '../../../src/coding/sandbox/wrap.js';
import { mergeSettings, type SettingsLayer, type WieldSettings } from '../../../src/coding/settings/merge.js';
import type { SettingsFile } from '../../../src/coding/settings/schema.js';
import { PERMISSION_MODES } from '../../../src/runtime/pipeline/types.js';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { fileTool } from '../permissions/file-tool.js';
import type { AnyTool, SessionState } from '../../../src/runtime/tool/types.js';

const HOME = '/home/u';
const WS = '/ws';

// Pure fakes: a shell split on `&&` whose read-only programs are ls and cat, and file tools.
const parts = (command: string) => command.split('&&').map((s) => s.trim());
const shell = defineTool<{ command: string }>({
  name: 'Bash',
  description: 'shell',
  inputJSONSchema: { type: 'object' },
  isReadOnly: (i) => parts(i.command).every((c) => /^(ls|cat)\b/.test(c)),
  ruleParts: (i) => parts(i.command).map((command) => ({ ...i, command })),
  permissionMatcher: (i) => (content) =>
    content.endsWith(' *') ? i.command === content.slice(0, -2) || i.command.startsWith(content.slice(0, -1)) : i.command === content,
  call: async () => '',
});
const fetchTool = defineTool<{ url: string }>({
  name: 'WebFetch',
  description: 'x',
  inputJSONSchema: { type: 'object' },
  call: async () => '',
});

const CALLS: [AnyTool, Record<string, unknown>][] = [
  [shell, { command: 'ls' }],
  [shell, { command: 'rm x' }],
  [shell, { command: 'ls && rm x' }],
  [shell, { command: 'npm test' }],
  [fileTool('Read', 'read'), { file_path: '/ws/.env' }],
  [fileTool('Read', 'read'), { file_path: '/ws/src/a.ts' }],
  [fileTool('Write', 'write'), { file_path: '/ws/src/a.ts' }],
  [fetchTool, { url: 'https://example.com/x' }],
];
const RULES = [
  'Bash',
  'Bash(ls *)',
  'Bash(rm *)',
  'Bash(npm test)',
  'Read',
  'Read(.env)',
  'Edit(src/**)',
  'WebFetch',
  'WebFetch(domain:example.com)',
];
const DENY_READ = ['~/.kube', '*.pem', '.env.local', '!.env', '!*.pem', '!.env.example'];

const session: SessionState = { id: 's', dir: '/tmp/s', cwd: WS, roots: [WS], fileState: new Map() };
const RANK = { deny: 0, ask: 1, allow: 2 } as const;
// contained < confined < sandboxed < guarded < as it is (undefined): how much a command may do once it runs.
const PROFILE_RANK = (p: string | undefined): number =>
  p === undefined ? 4 : ({ contained: 0, confined: 1, sandboxed: 2, guarded: 3 }[p] ?? 4);

const rules = fc.subarray(RULES, { maxLength: 4 });
const layerData: fc.Arbitrary<SettingsFile> = fc.record(
  {
    permissions: fc.record(
      {
        allow: rules,
        ask: rules,
        deny: rules,
        defaultMode: fc.constantFrom(...PERMISSION_MODES),
        additionalDirectories: fc.subarray(['../lib', '/opt/x']),
      },
      { requiredKeys: [] },
    ),
    sandbox: fc.record(
      {
        enabled: fc.boolean(),
        autoAllowBash: fc.boolean(),
        contain: fc.boolean(),
        denyRead: fc.subarray(DENY_READ),
        writableRoots: fc.subarray(['/tmp/cache']),
        network: fc.record({ allowedHosts: fc.subarray(['example.com']) }),
        bwrapPath: fc.constant('/opt/fake-bwrap'),
      },
      { requiredKeys: [] },
    ),
    mcpServers: fc.constant({ srv: { command: 'evil' } }),
    hooks: fc.constant({ PreToolUse: [{ hooks: [{ type: 'command' as const, command: './evil.sh' }] }] }),
  },
  { requiredKeys: [] },
);

function decisions(settings: WieldSettings): number[] {
  const sandbox = { autoAllowBash: autoAllowsBash(settings.sandbox), available: true };
  return CALLS.map(([tool, input]) => {
    const { allow, ask, deny, defaultMode } = settings.permissions;
    const d = decideCall(
      { tool, input, toolCheck: { behavior: 'passthrough' }, session },
      {
        rules: { allow, ask, deny },
        mode: defaultMode,
        roots: [WS],
        home: HOME,
        base: WS,
        sandbox,
        guard: (p) => ({ inside: p.startsWith(`${WS}/`), resolved: p, reason: 'lexical' }),
      },
    );
    return RANK[d.behavior];
  });
}

/** What the sandbox hides: more fixed paths and patterns, fewer exemptions, means more hidden. */
function hidesAtLeast(tight: SandboxSettings, loose: SandboxSettings): boolean {
  const a = parseDenyRead(tight.denyRead ?? [], HOME);
  const b = parseDenyRead(loose.denyRead ?? [], HOME);
  return (
    b.paths.every((p) => a.paths.includes(p)) &&
    b.patterns.every((p) => a.patterns.includes(p)) &&
    a.exempt.every((p) => b.exempt.includes(p))
  );
}

const layer = (data: SettingsFile, trusted: boolean, source: string): SettingsLayer => ({ data, source, base: WS, trusted });

beforeAll(async () => {
  await loadBashAnalyzer();
});

describe('mergeSettings: an untrusted layer only tightens', () => {
  it('the holes, shown one by one: a denyRead exemption and turning on the sandbox the user auto-allows', () => {
    const user = layer({ sandbox: { autoAllowBash: true }, permissions: { defaultMode: 'plan' } }, true, 'user');
    const project = layer({ sandbox: { enabled: true, denyRead: ['!.env'] }, permissions: { defaultMode: 'default' } }, false, 'project');
    const merged = mergeSettings([user, project], HOME);
    // The project turned the sandbox on (tighter), but not the user's auto-allow waiting for it.
    expect(merged.sandbox.enabled).toBe(true);
    expect(autoAllowsBash(merged.sandbox)).toBe(false);
    // Its exemption would show .env files the defaults hide: dropped.
    expect(merged.sandbox.denyRead ?? []).not.toContain('!.env');
    // `default` would let through what plan refuses.
    expect(merged.permissions.defaultMode).toBe('plan');
    // Trusted, the same file applies whole.
    const trusted = mergeSettings([user, { ...project, trusted: true }], HOME);
    expect(autoAllowsBash(trusted.sandbox)).toBe(true);
    expect(trusted.sandbox.denyRead).toContain('!.env');
  });

  it('property: no call is decided more permissively, no command runs less contained, nothing is hidden less', () => {
    fc.assert(
      fc.property(layerData, layerData, layerData, fc.boolean(), (user, untrusted, flags, sandboxFlag) => {
        const flagLayer = layer({ permissions: flags.permissions ?? {} }, true, 'flags');
        const without = mergeSettings([layer(user, true, 'user'), flagLayer], HOME);
        const withIt = mergeSettings([layer(user, true, 'user'), layer(untrusted, false, 'project'), flagLayer], HOME);
        // --sandbox is applied after the merge, as in the CLI.
        for (const s of [without, withIt]) if (sandboxFlag) s.sandbox.enabled = true;
        const [a, b] = [decisions(withIt), decisions(without)];
        for (const [i, rank] of a.entries()) expect(rank, `call ${i}`).toBeLessThanOrEqual(b[i]);
        for (const allowedBy of ['verdict', 'rule', 'mode', undefined] as const) {
          expect(PROFILE_RANK(profileFor(withIt.sandbox, allowedBy))).toBeLessThanOrEqual(
            PROFILE_RANK(profileFor(without.sandbox, allowedBy)),
          );
        }
        expect(autoAllowsBash(withIt.sandbox) && !autoAllowsBash(without.sandbox)).toBe(false);
        expect(hidesAtLeast(withIt.sandbox, without.sandbox)).toBe(true);
        // What only trust grants is exactly what the trusted layers gave.
        expect(withIt.permissions.allow).toEqual(without.permissions.allow);
        expect(withIt.permissions.additionalDirectories).toEqual(without.permissions.additionalDirectories);
        expect(withIt.hooks).toEqual(without.hooks);
        expect(withIt.mcpServers).toEqual(without.mcpServers);
        expect([withIt.sandbox.writableRoots, withIt.sandbox.network, withIt.sandbox.bwrapPath]).toEqual([
          without.sandbox.writableRoots,
          without.sandbox.network,
          without.sandbox.bwrapPath,
        ]);
      }),
      { numRuns: 100 },
    );
  });
});
