import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseHookStdout, runCommandHook } from '../../../src/coding/hooks/command.js';
import { hooksFromSettings } from '../../../src/coding/hooks/settings.js';
import type { HookInput } from '../../../src/runtime/hooks/types.js';

let dir: string;
const logs: string[] = [];
const opts = () => ({ cwd: dir, log: (m: string) => logs.push(m) });
const input: HookInput = {
  hook_event_name: 'PreToolUse',
  session_id: 'sess-1',
  cwd: '/ws',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf build' },
  tool_use_id: 'toolu_1',
};

async function script(name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}
const run = (command: string, timeout?: number, signal = new AbortController().signal) =>
  runCommandHook({ type: 'command', command, timeout }, input, signal, opts());

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'wield-hooks-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('command hooks (real scripts)', () => {
  it('receives the hook input as JSON on stdin, in the project folder', async () => {
    const s = await script('capture.sh', `cat > "${dir}/stdin.json"; pwd > "${dir}/pwd.txt"; echo "$WIELD_PROJECT_DIR" > "${dir}/env.txt"`);
    expect(await run(s)).toEqual({});
    expect(JSON.parse(await readFile(path.join(dir, 'stdin.json'), 'utf8'))).toEqual(input);
    const real = await import('node:fs/promises').then((fs) => fs.realpath(dir));
    expect((await readFile(path.join(dir, 'pwd.txt'), 'utf8')).trim()).toBe(real);
    expect((await readFile(path.join(dir, 'env.txt'), 'utf8')).trim()).toBe(dir);
  });

  it('exit 0 with JSON: permission decision, updated input, context', async () => {
    const out = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no rm here',
        updatedInput: { command: 'ls' },
        additionalContext: 'policy: no deletes',
      },
    };
    const s = await script('json.sh', `cat >/dev/null; echo '${JSON.stringify(out)}'`);
    expect(await run(s)).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm here',
      updatedInput: { command: 'ls' },
      additionalContext: 'policy: no deletes',
    });
  });

  it('exit 2 blocks with stderr as the reason (stdin need not be read)', async () => {
    const s = await script('block.sh', 'echo "deleting build is not allowed" >&2; exit 2');
    expect(await run(s)).toEqual({ block: { reason: 'deleting build is not allowed' } });
  });

  it('other exit codes are logged and do not block', async () => {
    logs.length = 0;
    const s = await script('fail.sh', 'echo oops >&2; exit 1');
    expect(await run(s)).toEqual({});
    expect(logs.join('\n')).toMatch(/exit code 1: oops/);
  });

  it('bad JSON on stdout is logged, not obeyed', async () => {
    logs.length = 0;
    const s = await script('badjson.sh', 'echo "{not json"');
    expect(await run(s)).toEqual({});
    expect(logs.join('\n')).toContain('not valid JSON');
  });

  it('a timeout kills the whole process group and does not block', async () => {
    logs.length = 0;
    const marker = path.join(dir, 'late-marker');
    // The child would write the marker after 2 s if the group survived the kill.
    const s = await script('slow.sh', `(sleep 2; touch "${marker}") & sleep 30`);
    const started = Date.now();
    expect(await run(s, 0.3)).toEqual({});
    expect(Date.now() - started).toBeLessThan(2000);
    expect(logs.join('\n')).toContain('timed out after 0.3 s');
    await new Promise((r) => setTimeout(r, 2300));
    expect(existsSync(marker)).toBe(false);
  });

  it('an abort kills the hook without an outcome', async () => {
    const s = await script('sleep.sh', 'sleep 30');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    expect(await run(s, undefined, ac.signal)).toEqual({});
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('hooksFromSettings builds one handler per command, keeping event and matcher', async () => {
    const s = await script('allow.sh', `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`);
    const handlers = hooksFromSettings(
      {
        PreToolUse: [{ matcher: 'Bash|Edit', hooks: [{ type: 'command', command: s }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'true' }] }],
      },
      opts(),
    );
    expect(handlers.map((h) => [h.event, h.matcher])).toEqual([
      ['PreToolUse', 'Bash|Edit'],
      ['Stop', undefined],
    ]);
    expect(await handlers[0].run(input, new AbortController().signal)).toEqual({ permissionDecision: 'allow' });
  });
});

describe('parseHookStdout', () => {
  it.each([
    ['', {}],
    ['{"decision":"block","reason":"tests fail"}', { block: { reason: 'tests fail' } }],
    ['{"decision":"approve","reason":"fine"}', { permissionDecision: 'allow', permissionDecisionReason: 'fine' }],
    ['{"continue":false,"stopReason":"halt"}', { block: { reason: 'halt' }, halt: { reason: 'halt' } }],
    [
      '{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"nope"}}}',
      { permissionDecision: 'deny', permissionDecisionReason: 'nope' },
    ],
  ])('%s', (stdout, outcome) => {
    expect(parseHookStdout('PreToolUse', stdout).outcome).toEqual(outcome);
  });
  it('continue: false on Stop halts without blocking (a block there would mean "go on")', () => {
    expect(parseHookStdout('Stop', '{"continue":false,"stopReason":"done"}').outcome).toEqual({ halt: { reason: 'done' } });
  });
  it('plain stdout is context for UserPromptSubmit only', () => {
    expect(parseHookStdout('UserPromptSubmit', 'today is Monday\n').outcome).toEqual({ additionalContext: 'today is Monday' });
    expect(parseHookStdout('PreToolUse', 'hello').outcome).toEqual({});
  });
  it('PermissionRequest: decision.behavior, message and updatedInput', () => {
    const allow =
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"echo rewritten > pr.txt"}}}}';
    expect(parseHookStdout('PermissionRequest', allow)).toEqual({
      outcome: { permissionDecision: 'allow', updatedInput: { command: 'echo rewritten > pr.txt' } },
      problems: [],
    });
    const deny = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not here"}}}';
    expect(parseHookStdout('PermissionRequest', deny).outcome).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: 'not here',
    });
  });
  it('reports fields of the wrong kind', () => {
    const { problems } = parseHookStdout('PreToolUse', '{"hookSpecificOutput":{"permissionDecision":"maybe","updatedInput":"x"}}');
    expect(problems).toHaveLength(2);
  });
});
