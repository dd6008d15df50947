// Replay as a regression tool: sessions recorded in every mode replay with no false difference,
// and a changed tool shows exactly the calls it changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type ScriptStep } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';
import { openAgentSession } from '../../src/cli/agent-session.js';
import { persistRule } from '../../src/coding/settings/persist.js';
import { alwaysRules } from '../../src/cli/permission-prompt.js';
import type { AskPermission, PermissionAnswer } from '../../src/runtime/pipeline/types.js';
import { readSession, sessionFile } from '../../src/runtime/agent/session-store.js';
import { replaySession } from '../../src/runtime/agent/replay.js';
import { createCliRuntime } from '../../src/cli/runtime.js';
import { defineTool } from '../../src/runtime/tool/define.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

const call = (id: string, name: string, args: object) => ({ id, name, arguments: args });
/** One AskUserQuestion call, the same in every recorded session. */
const askWhich = call('q1', 'AskUserQuestion', {
  questions: [
    {
      question: 'Which?',
      header: 'Pick',
      options: [
        { label: 'A', description: 'a' },
        { label: 'B', description: 'b' },
      ],
      multiSelect: false,
    },
  ],
});

function project() {
  const cwd = tempDir('wield-replay-cwd-');
  const home = tempDir('wield-replay-home-');
  writeFileSync(path.join(cwd, 'notes.txt'), 'first line\nsecond line\n');
  mkdirSync(path.join(cwd, 'src'));
  writeFileSync(path.join(cwd, 'src', 'a.ts'), 'export const a = 1;\n');
  return { cwd, home };
}

function replay(id: string, home: string, cwd: string, extra: string[] = []) {
  return runCli(cli, ['replay', id, ...extra], { cwd, env: cleanEnv(home) });
}

describe('wield replay', () => {
  it('a -p session (read, echo, denied touch, a question, denied write) replays by id with no difference', async () => {
    const { cwd, home } = project();
    const script: ScriptStep[] = [
      {
        toolCalls: [
          call('r1', 'Read', { file_path: path.join(cwd, 'notes.txt') }),
          call('b1', 'Bash', { command: 'echo hi' }),
          call('b2', 'Bash', { command: 'touch t1' }),
          askWhich,
          call('w1', 'Write', { file_path: path.join(cwd, 'out.txt'), content: 'x' }),
        ],
      },
      { text: 'done' },
    ];
    const id = await recordOneShot(script, cwd, home);
    // The project changes after the session: replay must use what the session saw.
    writeFileSync(path.join(cwd, 'notes.txt'), 'changed since\n');
    const out = await replay(id, home, cwd);
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/^5 calls: 5 same( \(\d in other words\))?$/m);
    expect(out.code).toBe(0);
    const json = JSON.parse((await replay(id, home, cwd, ['--json'])).stdout);
    expect(json.calls.filter((c: { status: string }) => c.status === 'differs')).toEqual([]);
    expect(json).toMatchObject({ same: 5, differs: 0, unrecorded: 0 });
  });

  it('an interactive session answered y, n, a, A, with a question and a Ctrl-C, replays with no difference, quickly', async () => {
    const { cwd, home } = project();
    const env = cleanEnv(home);
    const script: ScriptStep[] = [
      { toolCalls: [call('r1', 'Read', { file_path: 'notes.txt' })] },
      { toolCalls: [call('e1', 'Edit', { file_path: 'notes.txt', old_string: 'second', new_string: '2nd' })] },
      { toolCalls: [call('b1', 'Bash', { command: 'touch t1' })] },
      { toolCalls: [call('b2', 'Bash', { command: 'touch t2' })] },
      { toolCalls: [call('b3', 'Bash', { command: 'mkdir -p d1' })] },
      { toolCalls: [call('b4', 'Bash', { command: 'mkdir -p d1' })] },
      { toolCalls: [call('w1', 'Write', { file_path: 'made.txt', content: 'made\n' })] },
      {
        toolCalls: [askWhich],
      },
      { toolCalls: [call('s1', 'Bash', { command: 'sleep 30' })] },
      { text: 'never reached' },
    ];
    const standin = await startStandin({ dialect: 'anthropic', script });
    const controller = new AbortController();
    const answers: Record<string, string> = { e1: 'y', b1: 'y', b2: 'n', b3: 'a', w1: 'A', s1: 'y' };
    let session: Awaited<ReturnType<typeof openAgentSession>> | undefined;
    // Answers as the terminal prompt gives them: y, n, a (this session), A (saved for the project).
    const askPermission: AskPermission = async (request): Promise<PermissionAnswer> => {
      const reply = answers[request.toolUseId];
      if (reply === 'n') return { behavior: 'deny', message: 'not now' };
      if (reply === 'a' || reply === 'A') {
        const rules = alwaysRules(request.decision);
        if (reply === 'A') for (const rule of rules) await persistRule(cwd, rule);
        session?.runtime.policy.addSessionRules(rules);
        return { behavior: 'allow', remember: { rules, scope: reply === 'A' ? 'project' : 'session' } };
      }
      return { behavior: reply === 'y' ? 'allow' : 'deny' };
    };
    try {
      session = await openAgentSession({
        cwd,
        flags: { provider: 'anthropic', model: 'standin-model' },
        askPermission,
        askUser: async () => [['B']],
        env: { ...env, ...providerEnv('anthropic', standin.url) },
      });
      // Ctrl-C 300 ms into `sleep 30`.
      const result = await session.send('go', controller.signal, (event) => {
        if (event.type === 'tool_start' && event.toolUseId === 's1')
          setTimeout(() => controller.abort(new Error('interrupted by the user')), 300);
      });
      expect(result.stopReason).toBe('aborted');
      await session.close();
    } finally {
      await standin.close();
    }
    const id = session?.id as string;
    const recorded = readSession(sessionFile(id, env)).records;
    expect(
      recorded.some((record) => record.type === 'file' && record.path === 'notes.txt' && record.content === 'first line\nsecond line\n'),
    ).toBe(true);
    expect(recorded.filter((record) => record.type === 'answer')).toEqual([{ type: 'answer', questions: ['Which?'], answers: [['B']] }]);

    const started = Date.now();
    const out = await replay(id, home, tempDir('wield-replay-elsewhere-'));
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/^9 calls: 9 same( \(\d in other words\))?$/m);
    expect(out.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000); // the interrupted sleep 30 is interrupted again

    // A changed tool: Read now answers in capitals — exactly the one Read call differs.
    const workspace = tempDir('wield-replay-changed-');
    const runtime = await createCliRuntime({ cwd: workspace, flags: {}, env });
    const read = runtime.registry.get('Read');
    if (!read) throw new Error('Read is missing');
    runtime.registry.unregister('Read');
    runtime.registry.register(defineTool({ ...read, source: 'builtin', call: async (input, ctx) => upper(await read.call(input, ctx)) }));
    try {
      const report = await replaySession({ records: recorded, workspace, rt: runtime.rt, signal: new AbortController().signal });
      expect(report.calls.filter((c) => c.status === 'differs').map((c) => c.toolUseId)).toEqual(['r1']);
      expect(report.same).toBe(8);
    } finally {
      await runtime.close();
    }
  });

  it('a Bash command that reads project files replays against the files as the session saw them', async () => {
    const { cwd, home } = project();
    const script: ScriptStep[] = [{ toolCalls: [call('c1', 'Bash', { command: 'cat notes.txt && wc -l "src/a.ts"' })] }, { text: 'done' }];
    const id = await recordOneShot(script, cwd, home);
    const recorded = readSession(sessionFile(id, cleanEnv(home))).records;
    expect(recorded.filter((r) => r.type === 'file').map((r) => r.type === 'file' && r.path)).toEqual(['notes.txt', 'src/a.ts']);
    // Both change after the session; the replay still sees what the command saw.
    writeFileSync(path.join(cwd, 'notes.txt'), 'changed since\n');
    writeFileSync(path.join(cwd, 'src', 'a.ts'), '1\n2\n3\n');
    const out = await replay(id, home, cwd);
    expect(out.stdout).toMatch(/^1 calls?: 1 same/m);
    expect(out.code).toBe(0);
  });

  it('a real session replays without false differences: Glob order kept, git marked not comparable, no trace in projects.json', async () => {
    const { cwd, home } = project();
    execFileSync('git', ['init', '-q'], { cwd });
    // Newest first is neither name order nor its reverse, so restoring in any order without the times differs.
    for (const [name, age] of [
      ['b.md', 1],
      ['c.md', 2],
      ['a.md', 3],
    ] as const) {
      writeFileSync(path.join(cwd, name), `${name}\n`);
      utimesSync(path.join(cwd, name), 1_700_000_000 - age * 60, 1_700_000_000 - age * 60);
    }
    const script: ScriptStep[] = [
      { toolCalls: [call('g1', 'Glob', { pattern: '*.md' }), call('s1', 'Bash', { command: 'git status --short' })] },
      { text: 'done' },
    ];
    const id = await recordOneShot(script, cwd, home);
    const recorded = readSession(sessionFile(id, cleanEnv(home))).records;
    const globbed = recorded.find(
      (r) => r.type === 'message' && r.message.content.some((p) => p.type === 'tool_result' && p.toolUseId === 'g1'),
    );
    expect(JSON.stringify(globbed)).toMatch(/b\.md.*c\.md.*a\.md/);
    const out = await replay(id, home, cwd);
    expect(out.stdout).toContain('✓ Glob g1: same');
    expect(out.stdout).toContain('– Bash s1: not compared: it runs git, and a session does not record the repository');
    expect(out.stdout).toMatch(/^2 calls: 1 same, 1 not compared$/m);
    expect(out.code).toBe(0);
    // The recording's own folder is remembered; the replay's temporary one (wield-replay-XXXXXX) is not.
    const projects = path.join(home, '.wield', 'projects.json');
    const folders = Object.keys(existsSync(projects) ? JSON.parse(readFileSync(projects, 'utf8')).projects : {});
    expect(folders.filter((folder) => /\/wield-replay-[^-/]{6}$/.test(folder))).toEqual([]);
  });

  it('says which id was not found', async () => {
    const { cwd, home } = project();
    const out = await replay('no-such-session', home, cwd);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/No session "no-such-session" in .*: pass an id wield printed/);
  });
});

/** Runs `wield -p` against a stand-in playing `script`; the recorded session's id. */
async function recordOneShot(script: ScriptStep[], cwd: string, home: string): Promise<string> {
  const standin = await startStandin({ dialect: 'anthropic', script });
  try {
    const run = await runCli(cli, [...providerArgs('anthropic'), '-p', 'go'], {
      cwd,
      env: cleanEnv(home, providerEnv('anthropic', standin.url)),
    });
    return /session ([A-Za-z0-9_-]+)/.exec(run.stderr)?.[1] ?? readdirId(home);
  } finally {
    await standin.close();
  }
}

/** The id of the only session recorded under this home. */
function readdirId(home: string): string {
  const file = readdirSync(path.join(home, '.wield', 'sessions')).find((name) => name.endsWith('.jsonl'));
  return (file ?? '').replace(/\.jsonl$/, '');
}

/** Read's output with its text in capitals: a tool changed on purpose. */
function upper(output: unknown): unknown {
  return JSON.parse(JSON.stringify(output), (key, value) => (key === 'text' && typeof value === 'string' ? value.toUpperCase() : value));
}
