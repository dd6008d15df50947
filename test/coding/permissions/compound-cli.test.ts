// End to end through the built CLI: `wield check bash` and `wield -p` with a stand-in model, for
// compound lines whose read-only parts need no rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin } from '../../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from '../../cli/helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

async function check(
  command: string,
  flags: string[] = [],
  settings?: object,
): Promise<{ decision: string; reason: string; commands: string[] }> {
  const cwd = tempDir('wield-compound-cwd-');
  if (settings) {
    mkdirSync(path.join(cwd, '.wield'));
    writeFileSync(path.join(cwd, '.wield', 'settings.json'), JSON.stringify(settings));
  }
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

describe('wield check bash: deny and ask rules see through wrappers; narrow suggestions', () => {
  it('denies the reported bypasses of `Bash(rm *)` under bypassPermissions', async () => {
    for (const command of [
      '/bin/rm x',
      '\\rm x',
      '"rm" x',
      'nohup rm x',
      'exec rm x',
      'sudo rm x',
      'ls | xargs rm',
      'eval rm x',
      'find . -exec rm {} \\;',
    ]) {
      expect(await check(command, ['--permission-mode', 'bypassPermissions', '--deny', 'Bash(rm *)']), command).toMatchObject({
        decision: 'deny',
      });
    }
  });
  it('asks for `git -C . push` under an ask rule for `git push *` (project ask rules apply untrusted)', async () => {
    const r = await check('git -C . push origin main', ['--allow', 'Bash(git *)'], { permissions: { ask: ['Bash(git push *)'] } });
    expect(r).toMatchObject({ decision: 'ask' });
    expect(r.reason).toContain('Bash(git push *)');
  });
  it('suggests the exact command where a prefix rule would run code, and rules that together allow the line', async () => {
    expect((await check('sed -i s/a/b/ x')).reason).toContain('to allow it: Bash(sed -i s/a/b/ x)');
    expect((await check('cat ~/.ssh/id_rsa')).reason).toMatch(/^Bash may read a secret .*to allow it: Bash\(cat ~\/\.ssh\/id_rsa\)$/);
    expect((await check('cd /etc && cat passwd')).reason).toContain('to allow it: Bash(cd /etc) and Bash(cat passwd)');
    expect((await check('cd /etc && cat passwd', ['--allow', 'Bash(cd /etc)', '--allow', 'Bash(cat passwd)'])).decision).toBe('allow');
  });
  it('lists a here-string once', async () => {
    expect((await check('cat <<<"$(rm x)"')).commands).toEqual(['cat <<<"$(rm x)"', 'rm x']);
  });
});

describe('wield -p with a compound line', () => {
  it('runs `git status; touch made.txt` with only `Bash(touch *)`, and refuses it without', async () => {
    const home = tempDir('wield-compound-home-');
    for (const allow of [[], ['--allow', 'Bash(touch *)']]) {
      const cwd = tempDir('wield-compound-cwd-');
      const standin = await startStandin({
        dialect: 'anthropic',
        script: [{ toolCalls: [{ name: 'Bash', arguments: { command: 'git status; touch made.txt' } }] }, { text: 'done' }],
      });
      try {
        const run = await runCli(cli, [...providerArgs('anthropic'), '-p', 'go', ...allow], {
          cwd,
          env: cleanEnv(home, providerEnv('anthropic', standin.url)),
        });
        expect(run.code, run.stderr).toBe(0);
        const result = JSON.stringify(standin.requests[1]);
        if (allow.length) {
          expect(existsSync(path.join(cwd, 'made.txt'))).toBe(true);
        } else {
          expect(existsSync(path.join(cwd, 'made.txt'))).toBe(false);
          expect(result).toContain('Bash(touch made.txt)');
          expect(result).not.toContain('Bash(git status)');
        }
      } finally {
        await standin.close();
      }
    }
  });
});
