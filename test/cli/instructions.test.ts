// Project instructions through the real CLI: AGENTS.md / CLAUDE.md from the repository root down
// to the working folder and the user's ~/.wield/AGENTS.md reach the model's system prompt, the
// same on every request; `wield doctor` names them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

function systemOf(request: unknown): string {
  const system = (request as { system?: string | { text: string }[] }).system;
  return typeof system === 'string' ? system : (system ?? []).map((block) => block.text).join('\n');
}

function project() {
  const repo = tempDir('wield-instr-repo-');
  const home = tempDir('wield-instr-home-');
  mkdirSync(path.join(repo, '.git'));
  mkdirSync(path.join(repo, 'pkg', 'deep'), { recursive: true });
  mkdirSync(path.join(home, '.wield'));
  writeFileSync(path.join(home, '.wield', 'AGENTS.md'), 'USER-RULE: answer tersely.\n');
  writeFileSync(path.join(repo, 'AGENTS.md'), 'ROOT-RULE: run npm test.\n');
  writeFileSync(path.join(repo, 'CLAUDE.md'), 'ROOT-CLAUDE: shadowed by AGENTS.md.\n');
  writeFileSync(path.join(repo, 'pkg', 'CLAUDE.md'), 'PKG-RULE: tabs here.\n');
  return { repo, home, cwd: path.join(repo, 'pkg', 'deep') };
}

describe('project instructions', () => {
  it('puts the user file and each folder’s file in the system prompt, unchanged across requests', async () => {
    const { home, cwd } = project();
    const standin = await startStandin({
      dialect: 'anthropic',
      script: [{ toolCalls: [{ name: 'LS', arguments: { path: cwd } }] }, { text: 'done' }],
    });
    try {
      const env = cleanEnv(home, providerEnv('anthropic', standin.url));
      const run = await runCli(cli, [...providerArgs('anthropic'), '-p', 'look around'], { cwd, env });
      expect(run.code).toBe(0);
      const first = systemOf(standin.requests[0]);
      expect(first).toContain('USER-RULE');
      expect(first).toContain('ROOT-RULE');
      expect(first).toContain('PKG-RULE');
      expect(first).not.toContain('ROOT-CLAUDE');
      expect(first.indexOf('USER-RULE')).toBeLessThan(first.indexOf('ROOT-RULE'));
      expect(first.indexOf('ROOT-RULE')).toBeLessThan(first.indexOf('PKG-RULE'));
      // Untrusted project: framed as data.
      expect(first).toContain('not marked as trusted');
      expect(systemOf(standin.requests[1])).toBe(first);

      const doctor = await runCli(cli, ['doctor'], { cwd, env });
      const line = doctor.stdout.split('\n').find((l) => l.includes('instructions')) ?? '';
      expect(line).toContain(path.join(home, '.wield', 'AGENTS.md'));
      expect(line).toContain('AGENTS.md');
      expect(line).toContain(path.join('pkg', 'CLAUDE.md'));
      expect(line).toContain('project not trusted');
    } finally {
      await standin.close();
    }
  });

  it('drops the untrusted frame with --trust, and says none were found where there are none', async () => {
    const { home, cwd } = project();
    const standin = await startStandin({ dialect: 'anthropic', script: [{ text: 'ok' }] });
    try {
      const env = cleanEnv(home, providerEnv('anthropic', standin.url));
      expect((await runCli(cli, [...providerArgs('anthropic'), '--trust', '-p', 'hi'], { cwd, env })).code).toBe(0);
      expect(systemOf(standin.requests[0])).not.toContain('not marked as trusted');
      const empty = tempDir('wield-instr-none-');
      const doctor = await runCli(cli, ['doctor'], { cwd: empty, env: cleanEnv(tempDir('wield-instr-h2-')) });
      expect(doctor.stdout).toMatch(/instructions\s+none found \(looked for AGENTS\.md or CLAUDE\.md in /);
    } finally {
      await standin.close();
    }
  });
});
