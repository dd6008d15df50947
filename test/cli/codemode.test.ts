// Code mode through the CLI: a scripted model sends one RunCode program; the person sees each of
// its calls as it happens; a call that needs approval asks once (interactive) or is refused with
// the rule to add (-p); the program's side effect happens exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

/** Three notes with owners; the program counts TODOs per owner from Glob, Grep and Read. */
function project(): string {
  const cwd = tempDir('wield-codemode-cwd-');
  writeFileSync(path.join(cwd, 'a.md'), 'TODO(ann) one\nTODO(bob) two\n');
  writeFileSync(path.join(cwd, 'b.md'), 'TODO(ann) three\nnothing\n');
  writeFileSync(path.join(cwd, 'c.md'), 'done\n');
  return cwd;
}

const PROGRAM = `
const files = (await tools.Glob({ pattern: "*.md" })).split("\\n").filter(Boolean);
const hits = await tools.Grep({ pattern: "TODO\\\\(", output_mode: "files_with_matches" });
const counts = {};
for (const file of files.filter((f) => hits.includes(f.split("/").pop()))) {
  const text = await tools.Read({ file_path: file });
  for (const [, owner] of text.matchAll(/TODO\\((\\w+)\\)/g)) counts[owner] = (counts[owner] ?? 0) + 1;
}
console.log("files", files.length, JSON.stringify(counts));
try {
  console.log(await tools.Bash({ command: "echo ran >> side.txt" }));
} catch (error) {
  console.log("Bash refused:", error.message);
}
`;

/** The text of the last tool_result the model got. */
function lastResult(request: unknown): string {
  const messages = (request as { messages: { content: unknown }[] }).messages;
  const parts = messages.at(-1)?.content as { type: string; content?: unknown }[];
  return JSON.stringify(parts.filter((part) => part.type === 'tool_result'));
}

describe('RunCode in the CLI', () => {
  it('-p: stream-json shows each inner call as it happens; an inner call that needs approval is refused with the rule to add', async () => {
    const cwd = project();
    const home = tempDir('wield-codemode-home-');
    const standin = await startStandin({
      dialect: 'anthropic',
      script: [{ toolCalls: [{ id: 'prog', name: 'RunCode', arguments: { code: PROGRAM } }] }, { text: 'ann 2, bob 1.' }],
    });
    try {
      const run = await runCli(cli, [...providerArgs('anthropic'), '-p', 'count the TODOs', '--output-format', 'stream-json'], {
        cwd,
        env: cleanEnv(home, providerEnv('anthropic', standin.url)),
        timeoutMs: 60_000,
      });
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      // RunCode is offered, always loaded, its description listing the pool as signatures.
      const offered = (standin.requests[0] as { tools: { name: string; description: string }[] }).tools;
      expect(offered.find((tool) => tool.name === 'RunCode')?.description).toContain('tools.Grep(input: { pattern: string;');
      const inner = lines.filter((line) => line.parent_tool_use_id === 'prog');
      const calls = inner.flatMap((line) =>
        line.type === 'assistant' ? (line.message as { content: { name: string }[] }).content.map((part) => part.name) : [],
      );
      expect(calls).toEqual(['Glob', 'Grep', 'Read', 'Read', 'Bash']);
      // Each inner call's result follows its call, before the program's own result.
      expect(inner.map((line) => line.type)).toEqual([
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
      ]);
      const programResult = lines.findIndex((line) => line.type === 'user' && line.parent_tool_use_id === null);
      expect(programResult).toBeGreaterThan(lines.lastIndexOf(inner.at(-1) as Record<string, unknown>));
      const got = lastResult(standin.requests[1]);
      expect(got).toContain('files 3 {\\"ann\\":2,\\"bob\\":1}');
      expect(got).toMatch(/Bash refused:.*no one can approve it in this non-interactive run/);
      expect(got).toContain('the user can add the rule \\"Bash(echo ran >> side.txt)\\" to permissions.allow');
      expect(got).toContain('Tool calls (5): Glob ok · Grep ok · Read ok ×2 · Bash denied');
      expect(existsSync(path.join(cwd, 'side.txt'))).toBe(false);
      const result = lines.at(-1) as { permission_denials: { tool_name: string; tool_use_id: string }[] };
      expect(result.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Bash', tool_use_id: 'prog.5' })]);
    } finally {
      await standin.close();
    }
  });

  it('--no-code-mode and settings codeMode: false leave RunCode out', async () => {
    const cwd = project();
    const home = tempDir('wield-codemode-home-');
    const standin = await startStandin({ dialect: 'anthropic', script: [{ text: 'a' }, { text: 'b' }] });
    try {
      const env = cleanEnv(home, providerEnv('anthropic', standin.url));
      const flagged = await runCli(cli, [...providerArgs('anthropic'), '-p', 'hi', '--no-code-mode'], { cwd, env });
      expect(flagged.code, flagged.stderr).toBe(0);
      mkdirSync(path.join(home, '.wield'), { recursive: true });
      writeFileSync(path.join(home, '.wield', 'settings.json'), JSON.stringify({ codeMode: false }));
      const set = await runCli(cli, [...providerArgs('anthropic'), '-p', 'hi'], { cwd, env });
      expect(set.code, set.stderr).toBe(0);
      for (const request of standin.requests)
        expect((request as { tools: { name: string }[] }).tools.map((tool) => tool.name)).not.toContain('RunCode');
    } finally {
      await standin.close();
    }
  });
});

describe('RunCode in the interactive CLI', () => {
  let tmux: TmuxSession | undefined;
  afterAll(() => tmux?.kill());

  it('shows each inner call as it happens, asks once for the inner Bash, resumes, and the side effect happens once', async () => {
    const cwd = project();
    const home = tempDir('wield-codemode-tty-home-');
    const standin = await startStandin({
      dialect: 'anthropic',
      script: [{ toolCalls: [{ id: 'prog', name: 'RunCode', arguments: { code: PROGRAM } }] }, { text: 'Counted; side.txt written.' }],
    });
    try {
      tmux = TmuxSession.start(
        `wield-codemode-${process.pid}`,
        [process.execPath, cli, ...providerArgs('anthropic')],
        cleanEnv(home, { ...providerEnv('anthropic', standin.url), TERM: 'xterm' }),
        cwd,
      );
      await tmux.waitForPrompt();
      tmux.type('count the TODOs');
      let screen = await tmux.waitFor('? Allow Bash(');
      // The calls before the pause are on screen already, under the program.
      expect(screen).toMatch(/● RunCode\(.*\)\n\s+● Glob\(\*\.md\)\n(.*\n)*?\s+● Grep\(TODO/);
      expect(screen).toMatch(/\n {2}● Read\(a\.md\)/);
      expect(screen).toMatch(/\n {2}● Bash\(echo ran >> side\.txt\)/);
      expect(existsSync(path.join(cwd, 'side.txt'))).toBe(false);
      tmux.type('y');
      screen = await tmux.waitFor('Counted; side.txt written.');
      expect(screen.split('? Allow Bash(').length - 1).toBe(1);
      expect(screen).toContain('Tool calls (5): Glob ok · Grep ok · Read ok ×2 · Bash ok');
      expect(readFileSync(path.join(cwd, 'side.txt'), 'utf8')).toBe('ran\n');
      expect(standin.requests).toHaveLength(2);
      const got = lastResult(standin.requests[1]);
      expect(got).toContain('files 3 {\\"ann\\":2,\\"bob\\":1}');
      expect(got.split('exit code').length).toBeLessThanOrEqual(2);
    } finally {
      await standin.close();
    }
  });
});
