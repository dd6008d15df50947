import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import path from 'node:path';
import { defineTool } from '../../../src/runtime/tool/define.js';
import { fileTool } from './file-tool.js';
import type { AnyTool, PermissionCheck, SessionState } from '../../../src/runtime/tool/types.js';
import type { PermissionMode, PermissionRequest } from '../../../src/runtime/pipeline/types.js';
import { createPolicy, decideCall, type DecisionContext } from '../../../src/coding/permissions/engine.js';
import { parseRule, type Rule } from '../../../src/coding/permissions/rules.js';
import { emptySettings } from '../../../src/coding/settings/load.js';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { readTool } from '../../../src/coding/tools/read.js';
import { writeTool } from '../../../src/coding/tools/write.js';
import { createSession } from '../../../src/runtime/tool/session.js';
import { loadBashAnalyzer } from '../../../src/coding/bash/index.js';

// Pure fakes: a shell whose parts are split on `&&`, file tools that declare their paths, an MCP
// tool and a fetch tool. The guard is lexical (no file system) so every case is a pure decision.
const READ_ONLY_PROGRAMS = ['ls', 'cat', 'git status'];
const isReadOnlyCommand = (c: string) => READ_ONLY_PROGRAMS.some((p) => c === p || c.startsWith(`${p} `));
const parts = (command: string) => command.split('&&').map((s) => s.trim());
const wordPrefix = (content: string, command: string) =>
  content.endsWith(' *') ? command === content.slice(0, -2) || command.startsWith(content.slice(0, -1)) : command === content;

const shell = defineTool<{ command: string; sandbox?: boolean }>({
  name: 'Bash',
  aliases: ['Shell'],
  description: 'shell',
  inputJSONSchema: { type: 'object' },
  isReadOnly: (i) => parts(i.command).every(isReadOnlyCommand),
  ruleParts: (i) => parts(i.command).map((command) => ({ ...i, command })),
  permissionMatcher: (i) => (content) => wordPrefix(content, i.command),
  call: async () => '',
});
const Read = fileTool('Read', 'read');
const Edit = fileTool('Edit', 'write');
const Write = fileTool('Write', 'write');
const mcp = defineTool({
  name: 'mcp__srv__do',
  source: 'mcp',
  server: 'srv',
  description: 'x',
  inputJSONSchema: { type: 'object' },
  call: async () => '',
});
const fetch = defineTool<{ url: string }>({
  name: 'WebFetch',
  description: 'x',
  inputJSONSchema: { type: 'object' },
  call: async () => '',
});

// The engine also asks the analyser for the forms deny and ask rules see, and suggestions ask it
// which subcommands are read-only on their own; without it both fail closed.
beforeAll(async () => {
  await loadBashAnalyzer();
});

const session: SessionState = { id: 's', dir: '/tmp/s', cwd: '/ws', roots: ['/ws'], fileState: new Map() };
const rules = (texts: string[] = []): Rule[] =>
  texts.map((text) => {
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return { ...parsed.rule, text, source: 'test', base: '/ws' };
  });

interface Case {
  mode?: PermissionMode;
  allow?: string[];
  ask?: string[];
  deny?: string[];
  hook?: 'allow' | 'deny' | 'ask';
  toolCheck?: PermissionCheck;
  sandbox?: DecisionContext['sandbox'];
}

function decide(tool: AnyTool, input: Record<string, unknown>, c: Case = {}) {
  const req: PermissionRequest = {
    tool,
    input,
    toolCheck: c.toolCheck ?? { behavior: 'passthrough' },
    hookDecision: c.hook ? { behavior: c.hook, reason: 'hook says so' } : undefined,
    session,
  };
  return decideCall(req, {
    rules: { allow: rules(c.allow), ask: rules(c.ask), deny: rules(c.deny) },
    mode: c.mode ?? 'default',
    roots: ['/ws'],
    home: '/home/u',
    base: '/ws',
    sandbox: c.sandbox,
    guard: (p, o) => {
      const resolved = path.resolve(o.cwd, p);
      const inside = o.roots.some((r) => resolved === r || resolved.startsWith(`${r}/`));
      return { inside, resolved, reason: inside ? 'inside' : `${resolved} is outside the workspace` };
    },
  });
}

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'];

describe('modes, with no rules', () => {
  // tool, input, expected per mode: default, acceptEdits, plan, bypassPermissions, dontAsk
  const table: [string, AnyTool, Record<string, unknown>, string[]][] = [
    ['Read inside', Read, { file_path: 'src/a.ts' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
    ['Read outside', Read, { file_path: '/etc/passwd' }, ['deny', 'deny', 'deny', 'deny', 'deny']],
    ['Edit inside', Edit, { file_path: 'src/a.ts' }, ['ask', 'allow', 'deny', 'allow', 'deny']],
    ['Write outside', Write, { file_path: '../x' }, ['deny', 'deny', 'deny', 'deny', 'deny']],
    ['Write .git/hooks', Write, { file_path: '.git/hooks/pre-commit' }, ['deny', 'deny', 'deny', 'deny', 'deny']],
    ['Edit .bashrc', Edit, { file_path: '.bashrc' }, ['deny', 'deny', 'deny', 'deny', 'deny']],
    ['Write .wield settings', Write, { file_path: 'sub/.wield/settings.json' }, ['deny', 'deny', 'deny', 'deny', 'deny']],
    ['Write .mcp.json', Write, { file_path: '.mcp.json' }, ['deny', 'deny', 'deny', 'deny', 'deny']],
    ['Bash read-only', shell, { command: 'ls -la && git status' }, ['allow', 'allow', 'allow', 'allow', 'allow']],
    ['Bash writes', shell, { command: 'npm install' }, ['ask', 'ask', 'deny', 'allow', 'deny']],
    ['MCP tool', mcp, {}, ['ask', 'ask', 'deny', 'allow', 'deny']],
  ];
  for (const [label, tool, input, expected] of table) {
    it.each(MODES.map((m, n) => [m, expected[n]]))(`${label} in %s → %s`, (mode, want) => {
      expect(decide(tool, input, { mode: mode as PermissionMode }).behavior).toBe(want);
    });
  }

  it('plan mode says so', () => {
    expect(decide(Edit, { file_path: 'a' }, { mode: 'plan' }).reason).toContain('plan mode');
  });
  it('hard blocks name the file and why', () => {
    expect(decide(Write, { file_path: '.git/config' }, { mode: 'bypassPermissions', allow: ['Write'] }).reason).toContain('.git/');
    expect(decide(Read, { file_path: '/etc/passwd' }, { allow: ['Read'] }).reason).toContain('outside the workspace');
  });
});

describe('rules', () => {
  it('deny rules beat allow rules and every mode', () => {
    for (const mode of MODES) {
      const d = decide(shell, { command: 'ls && rm -rf x' }, { mode, allow: ['Bash'], deny: ['Bash(rm *)'] });
      expect(d).toMatchObject({ behavior: 'deny', rule: 'Bash(rm *)' });
    }
  });
  it('a compound command is allowed only when every part is allowed', () => {
    const allow = ['Bash(git push *)', 'Bash(npm test)'];
    expect(decide(shell, { command: 'git push origin' }, { allow })).toMatchObject({ behavior: 'allow', rule: 'Bash(git push *)' });
    expect(decide(shell, { command: 'npm test && git push' }, { allow }).behavior).toBe('allow');
    const partial = decide(shell, { command: 'git push && rm -rf x' }, { allow });
    expect(partial.behavior).toBe('ask');
    expect(partial.suggestions).toEqual(['Bash(rm -rf x)']);
  });
  it('ask rules ask even where allow rules or the mode would allow', () => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
      expect(decide(shell, { command: 'git push' }, { mode, allow: ['Bash'], ask: ['Bash(git push *)'] }).behavior).toBe('ask');
    }
    expect(decide(shell, { command: 'git push' }, { mode: 'dontAsk', ask: ['Bash(git push *)'] }).behavior).toBe('deny');
  });
  it('path rules: Edit rules cover Edit and Write, Read deny rules cover writes too', () => {
    expect(decide(Edit, { file_path: 'src/a.ts' }, { allow: ['Edit(src/**)'] }).behavior).toBe('allow');
    expect(decide(Write, { file_path: 'src/new.ts' }, { allow: ['Edit(src/**)'] }).behavior).toBe('allow');
    expect(decide(Write, { file_path: 'src/new.ts' }, { allow: ['Write(/src/*.ts)'] }).behavior).toBe('allow');
    expect(decide(Write, { file_path: 'docs/a.md' }, { allow: ['Edit(src/**)'] }).behavior).toBe('ask');
    expect(decide(Read, { file_path: '.env' }, { deny: ['Read(.env)'], mode: 'bypassPermissions' }).behavior).toBe('deny');
    expect(decide(Edit, { file_path: 'app/.env' }, { deny: ['Read(.env)'], mode: 'bypassPermissions' }).behavior).toBe('deny');
    expect(decide(Read, { file_path: 'secrets/k' }, { ask: ['Read(/secrets/**)'] }).behavior).toBe('ask');
  });
  it('MCP server and tool rules, aliases and domains', () => {
    expect(decide(mcp, {}, { allow: ['mcp__srv'] }).behavior).toBe('allow');
    expect(decide(mcp, {}, { allow: ['mcp__srv'], deny: ['mcp__srv__do'] }).behavior).toBe('deny');
    expect(decide(mcp, {}, { allow: ['mcp__other'] }).suggestions).toEqual(['mcp__srv__do']);
    expect(decide(shell, { command: 'make' }, { allow: ['Shell(make)'] }).behavior).toBe('allow');
    expect(decide(fetch, { url: 'https://docs.example.com/a' }, { allow: ['WebFetch(domain:*.example.com)'] }).behavior).toBe('allow');
    const other = decide(fetch, { url: 'https://other.org/a' }, { allow: ['WebFetch(domain:*.example.com)'] });
    expect(other).toMatchObject({ behavior: 'ask', suggestions: ['WebFetch(domain:other.org)'] });
  });
});

describe("the tool's own check", () => {
  it('deny holds in every mode, ask holds even in bypass, allow allows', () => {
    for (const mode of MODES) {
      const d = decide(shell, { command: 'x' }, { mode, toolCheck: { behavior: 'deny', message: 'no' } });
      expect(d).toMatchObject({ behavior: 'deny', reason: mode === 'plan' ? expect.stringContaining('plan mode') : 'no' });
    }
    expect(decide(shell, { command: 'x' }, { mode: 'bypassPermissions', allow: ['Bash'], toolCheck: { behavior: 'ask' } }).behavior).toBe(
      'ask',
    );
    expect(decide(mcp, {}, { toolCheck: { behavior: 'allow' } }).behavior).toBe('allow');
    expect(decide(mcp, {}, { toolCheck: { behavior: 'ask', suggestions: ['mcp__srv__do'] } }).suggestions).toEqual(['mcp__srv__do']);
  });
});

describe('hooks tighten, never loosen a deny or an ask rule', () => {
  it.each([
    [{}, 'deny', 'deny'],
    [{}, 'ask', 'ask'],
    [{}, 'allow', 'allow'], // skips the final "ask the user"
    [{ ask: ['Bash(npm *)'] }, 'allow', 'ask'],
    [{ deny: ['Bash(npm *)'] }, 'allow', 'deny'],
    [{ allow: ['Bash(npm *)'] }, 'ask', 'ask'],
    [{ allow: ['Bash(npm *)'] }, 'deny', 'deny'],
    [{ mode: 'plan' }, 'allow', 'deny'],
    [{ mode: 'dontAsk' }, 'ask', 'deny'],
    [{ toolCheck: { behavior: 'ask' } }, 'allow', 'ask'],
  ] as [Case, 'allow' | 'deny' | 'ask', string][])('%j + hook %s → %s', (c, hook, want) => {
    const d = decide(shell, { command: 'npm install' }, { ...c, hook });
    expect(d.behavior).toBe(want);
  });
  it("a hook's reason reaches the decision", () => {
    expect(decide(shell, { command: 'ls' }, { hook: 'deny' }).reason).toContain('hook says so');
  });
  it('property: with a matching deny rule no mode, hook or allow rule yields anything but deny', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MODES), fc.constantFrom(undefined, 'allow', 'ask', 'deny'), fc.boolean(), (mode, hook, allowAll) => {
        const d = decide(
          shell,
          { command: 'ls && rm x' },
          { mode, hook: hook as Case['hook'], allow: allowAll ? ['Bash'] : [], deny: ['Bash(rm *)'] },
        );
        expect(d.behavior).toBe('deny');
      }),
    );
  });
});

describe('sandbox auto-allow', () => {
  const sandbox = { autoAllowBash: true, available: true };
  it('allows a Bash call that would ask, with the reason', () => {
    expect(decide(shell, { command: 'npm install' }, { sandbox })).toMatchObject({ behavior: 'allow', reason: 'runs in the sandbox' });
    expect(decide(shell, { command: 'npm install' }, { sandbox, mode: 'dontAsk' }).behavior).toBe('allow');
  });
  it('not when unavailable, opted out, asked by a rule or a hook, or denied', () => {
    expect(decide(shell, { command: 'npm install' }, { sandbox: { autoAllowBash: true, available: false } }).behavior).toBe('ask');
    expect(decide(shell, { command: 'npm install', sandbox: false }, { sandbox }).behavior).toBe('ask');
    expect(decide(shell, { command: 'npm install' }, { sandbox, ask: ['Bash(npm *)'] }).behavior).toBe('ask');
    expect(decide(shell, { command: 'npm install' }, { sandbox, hook: 'ask' }).behavior).toBe('ask');
    expect(decide(shell, { command: 'npm install' }, { sandbox, deny: ['Bash(npm *)'] }).behavior).toBe('deny');
    expect(decide(shell, { command: 'npm install' }, { sandbox, mode: 'plan' }).behavior).toBe('deny');
    expect(decide(mcp, {}, { sandbox }).behavior).toBe('ask');
  });
});

describe('suggestions', () => {
  it('offer the narrowest rule: sub-command prefix for Bash, the path for edits', () => {
    expect(decide(shell, { command: 'git push origin main' }).suggestions).toEqual(['Bash(git push *)']);
    expect(decide(shell, { command: 'npm run build && make' }).suggestions).toEqual(['Bash(npm run *)', 'Bash(make)']);
    expect(decide(shell, { command: 'python3 -c "print(1)"' }).suggestions).toEqual(['Bash(python3 -c "print\\(1\\)")']);
    expect(decide(Edit, { file_path: 'src/a.ts' }).suggestions).toEqual(['Edit(/src/a.ts)']);
  });
  it('property: a Bash ask never suggests a blanket Bash or Bash(*)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 0, maxLength: 12 }), { minLength: 1, maxLength: 3 }), (cmds) => {
        const d = decide(shell, { command: cmds.join(' && ') });
        for (const s of d.suggestions ?? []) {
          expect(s).not.toBe('Bash');
          expect(s).not.toBe('Bash(*)');
          expect(parseRule(s).ok).toBe(true);
        }
      }),
    );
  });
});

describe('reasons', () => {
  it("a tool's message is a clause: joined without doubled punctuation", () => {
    const toolCheck: PermissionCheck = { behavior: 'ask', message: 'This command asks to run outside the sandbox.' };
    expect(decide(shell, { command: 'ls', sandbox: false }, { toolCheck }).reason).toBe('This command asks to run outside the sandbox');
    expect(decide(shell, { command: 'ls', sandbox: false }, { toolCheck, mode: 'dontAsk' }).reason).toBe(
      'This command asks to run outside the sandbox; dontAsk mode denies what would ask',
    );
  });
});

describe('createPolicy', () => {
  it('uses the settings mode, session rules and mode changes', () => {
    const settings = emptySettings();
    settings.permissions.deny = rules(['Bash(rm *)']);
    const policy = createPolicy({ settings, cwd: '/ws', roots: ['/ws'], home: '/home/u' });
    const req = (command: string): PermissionRequest => ({
      tool: shell,
      input: { command },
      toolCheck: { behavior: 'passthrough' },
      session,
    });
    expect(policy.mode).toBe('default');
    expect(policy.decide(req('npm test')).behavior).toBe('ask');
    policy.addSessionRules(['Bash(npm test)']);
    expect(policy.decide(req('npm test'))).toMatchObject({ behavior: 'allow', rule: 'Bash(npm test)' });
    expect(() => policy.addSessionRules(['Bash('])).toThrow('missing closing');
    policy.setMode('bypassPermissions');
    expect(policy.decide(req('make')).behavior).toBe('allow');
    expect(policy.decide(req('rm -rf /')).behavior).toBe('deny');
  });
});

describe('spill files', () => {
  it('a Read of the session folder (where over-budget results are kept) is allowed; a Write there is not', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'wield-spill-'));
    const ws = path.join(base, 'ws');
    const dir = path.join(base, 'session');
    mkdirSync(ws);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'bash-1.log'), 'full output');
    const session = createSession({ cwd: ws, dir });
    const policy = createPolicy({ settings: emptySettings(), mode: 'acceptEdits', cwd: ws, roots: [ws] });
    const file = path.join(dir, 'bash-1.log');
    const read = await policy.decide({ tool: readTool(), input: { file_path: file }, toolCheck: { behavior: 'passthrough' }, session });
    expect(read.behavior).toBe('allow');
    const write = await policy.decide({
      tool: writeTool(),
      input: { file_path: file, content: 'x' },
      toolCheck: { behavior: 'passthrough' },
      session,
    });
    expect(write.behavior).toBe('deny');
  });
});

describe('what allowed a call, for containment (allowedBy)', () => {
  it('a read-only verdict, a rule, a mode or a hook; nothing on an ask or a deny', () => {
    expect(decide(shell, { command: 'ls' }).allowedBy).toBe('verdict');
    expect(decide(shell, { command: 'npm test' }, { allow: ['Bash(npm test)'] }).allowedBy).toBe('rule');
    expect(decide(shell, { command: 'npm install' }, { mode: 'bypassPermissions' }).allowedBy).toBe('mode');
    // With the mode allowing it anyway, a rule changes nothing: it runs as the mode would run it.
    expect(decide(shell, { command: 'npm test' }, { allow: ['Bash(npm test)'], mode: 'bypassPermissions' }).allowedBy).toBe('mode');
    expect(decide(shell, { command: 'npm install' }, { hook: 'allow' }).allowedBy).toBe('mode');
    expect(decide(shell, { command: 'npm install' }, { sandbox: { autoAllowBash: true, available: true } }).allowedBy).toBe('mode');
    expect(decide(shell, { command: 'npm install' }).allowedBy).toBeUndefined();
    expect(decide(shell, { command: 'ls' }, { deny: ['Bash(ls *)'] }).allowedBy).toBeUndefined();
  });
});
