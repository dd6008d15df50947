// End to end through the built CLI: `wield check bash` and `wield -p` with a stand-in model, for
// compound lines whose read-only parts need no rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startStandin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from '../cli/helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

async function check(command: string, flags: string[] = []): Promise<{ decision: string; reason: string; commands: string[] }> {
  const cwd = tempDir('wield-compound-cwd-');
  const run = await runCli(cli, ['check', 'bash', command, '--json', ...flags], { cwd, env: cleanEnv(tempDir('wield-compound-home-')) });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

describe('wield check bash with compound lines', () => {
  it('allows `ls && rm x` with only `Bash(rm *)`, and the like', async () => {
    for (const command of ['ls && rm x', 'git status && rm x', 'cat a | rm x']) {
      expect(await check(command, ['--allow', 'Bash(rm *)']), command).toMatchObject({ decision: 'allow' });
    }
  });
  it('still asks for a part no rule allows, and suggests only the rules needed', async () => {
    const r = await check('ls && rm x');
    expect(r.decision).toBe('ask');
    expect(r.reason).toContain('to allow it: Bash(rm x)');
    expect(r.reason).not.toContain('Bash(ls');
    expect((await check('cd /etc && cat passwd', ['--allow', 'Bash(cd *)'])).decision).toBe('ask');
  });
  it('a deny rule on a read-only part denies', async () => {
    expect(await check('ls && rm x', ['--allow', 'Bash(rm *)', '--deny', 'Bash(ls *)'])).toMatchObject({ decision: 'deny' });
  });
});

describe('wield -p with a compound line', () => {
  it('runs `git status; touch made.txt` with only `Bash(touch *)`, and refuses it without', async () => {
    const home = tempDir('wield-compound-home-');
    for (const allow of [[], ['--allow', 'Bash(touch *)']]) {
      const cwd = tempDir('wield-compound-cwd-');
      const standin = await startStandin({ dialect: 'anthropic', script: [{ toolCalls: [{ name: 'Bash', arguments: { command: 'git status; touch made.txt' } }] }, { text: 'done' }] });
      try {
        const run = await runCli(cli, [...providerArgs('anthropic'), '-p', 'go', ...allow], { cwd, env: cleanEnv(home, providerEnv('anthropic', standin.url)) });
        expect(run.code, run.stderr).toBe(0);
        const result = JSON.stringify(standin.requests[1]);
        if (allow.length) {
          expect(existsSync(path.join(cwd, 'made.txt'))).toBe(true);
        } else {
          expect(existsSync(path.join(cwd, 'made.txt'))).toBe(false);
          expect(result).toContain('Bash(touch *)');
          expect(result).not.toContain('Bash(git status)');
        }
      } finally {
        await standin.close();
      }
    }
  });
});
