// createCodingAgent: the CLI's agent without a terminal — its settings, tools, permission engine,
// instructions and context — driven by a scripted model (the only fake), on real files.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodingAgent } from '../../../src/coding/agent/create.js';
import { callTools, prompt, reply, scriptedProvider } from '../../runtime/agent/scripted.js';

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'wield-coding-agent-')));
  dirs.push(dir);
  return dir;
}

describe('createCodingAgent', () => {
  it("runs with the user's settings, the built-in tools, AGENTS.md and the permission engine", async () => {
    const home = workspace();
    const cwd = workspace();
    // A deny rule in the user's settings: the engine must apply it.
    const settingsDir = path.join(home, '.wield');
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({ permissions: { deny: ['Write(secret.txt)'] } }));
    writeFileSync(path.join(cwd, 'AGENTS.md'), 'Answer in haiku.\n');
    const provider = scriptedProvider([
      callTools([
        { id: 'w1', name: 'Write', input: JSON.stringify({ file_path: 'notes.txt', content: 'hi\n' }) },
        { id: 'w2', name: 'Write', input: JSON.stringify({ file_path: 'secret.txt', content: 'x' }) },
      ]),
      reply('wrote it'),
    ]);
    const agent = await createCodingAgent({
      cwd,
      home,
      env: { ...process.env, WIELD_HOME: home },
      provider,
      model: 'scripted',
      askPermission: async () => ({ behavior: 'allow' }),
    });
    try {
      expect(agent.runtime.rt.toolNames()).toEqual(expect.arrayContaining(['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob']));
      const result = await agent.send('write notes', new AbortController().signal);
      expect(result.answer).toBe('wrote it');
      expect(readFileSync(path.join(cwd, 'notes.txt'), 'utf8')).toBe('hi\n');
      expect(existsSync(path.join(cwd, 'secret.txt'))).toBe(false);
      const sent = JSON.stringify(provider.requests[1].messages.at(-1));
      expect(sent).toContain('denied by rule `Write(secret.txt)`');
      expect(provider.requests[0].system).toContain('Answer in haiku.');
      expect(agent.messages.length).toBeGreaterThan(2);
      expect(agent.messages[0]).toEqual(prompt('write notes'));
    } finally {
      await agent.close();
    }
  });

  it('examples/coding-agent.mjs runs against the built package', () => {
    expect(existsSync('dist/coding.js'), 'build first: npm run build').toBe(true);
    const out = execFileSync(process.execPath, ['examples/coding-agent.mjs'], { encoding: 'utf8', timeout: 20_000 });
    expect(out).toMatch(/^tools: Bash, Edit, Grep, Read$/m);
    expect(out).toMatch(/^instructions: AGENTS\.md$/m);
    expect(out).toMatch(/^e1 ok: Edited CHANGELOG\.md/m);
    expect(out).toMatch(/^b1 error: Permission denied for Bash: the user declined: not now/m);
    expect(out).toContain('system prompt has AGENTS.md: true');
    expect(out).toContain('CHANGELOG.md: "# Changelog\\n\\n- Faster start\\n"');
    expect(out).toMatch(/^answer: Added the entry\./m);
  });
});
