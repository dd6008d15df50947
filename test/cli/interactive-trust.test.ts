// Trust that sticks, in a real terminal: the first run in a folder whose files would change what
// wield does asks once; the answer is recorded; an "always" answer is saved where the next run
// applies it, in an untrusted project and a trusted one alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type Standin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, tempDir } from './helpers.js';
import { TmuxSession } from './tmux.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

const bash = (command: string) => ({ toolCalls: [{ name: 'Bash', arguments: { command } }] });

function projectWithAllowRule(rule: string): { cwd: string; home: string } {
  const cwd = tempDir('wield-trust-cwd-');
  const home = tempDir('wield-trust-home-');
  mkdirSync(path.join(cwd, '.wield'));
  writeFileSync(path.join(cwd, '.wield', 'settings.json'), JSON.stringify({ permissions: { allow: [rule] } }));
  return { cwd, home };
}

describe('trust in the interactive session', () => {
  let standin: Standin | undefined;
  const sessions: TmuxSession[] = [];
  afterAll(async () => {
    for (const tmux of sessions) tmux.kill();
    await standin?.close();
  });
  const start = (name: string, cwd: string, home: string, url: string): TmuxSession => {
    const tmux = TmuxSession.start(
      `wield-trust-${name}-${process.pid}`,
      [process.execPath, cli, ...providerArgs('anthropic')],
      cleanEnv(home, { ...providerEnv('anthropic', url), TERM: 'xterm' }),
      cwd,
    );
    sessions.push(tmux);
    return tmux;
  };

  it('asks once; "no" is remembered, and an always-rule saved in the untrusted project is honoured next run', async () => {
    const { cwd, home } = projectWithAllowRule('Bash(touch *)');
    standin = await startStandin({
      dialect: 'anthropic',
      script: [bash('mkdir -p d1'), { text: 'Made d1.' }, bash('mkdir -p d1'), { text: 'Made d1 again, unasked.' }],
    });
    const first = start('no', cwd, home, standin.url);
    let screen = await first.waitFor('? Trust this folder');
    expect(screen).toContain(`${path.join('.wield', 'settings.json')}: allow rules`);
    first.type('n');
    await first.waitFor('not trusted: only the deny and ask rules');
    await first.waitForPrompt();
    first.type('make d1');
    await first.waitFor('? Allow Bash(mkdir -p d1)');
    first.type('A');
    screen = await first.waitFor('Made d1.');
    expect(screen).toContain('projects.json, for this folder');
    const state = readFileSync(path.join(home, '.wield', 'projects.json'), 'utf8');
    expect(JSON.parse(state).projects[realpathSync(cwd)]).toMatchObject({ declined: true, allow: ['Bash(mkdir -p d1)'] });
    // Nothing was written where the untrusted project's own file would be ignored.
    expect(existsSync(path.join(cwd, '.wield', 'settings.local.json'))).toBe(false);
    first.type('/exit');
    await first.waitFor(/\[exit 0\]/);

    const second = start('no-again', cwd, home, standin.url);
    await second.waitForPrompt();
    second.type('make d1 again');
    screen = await second.waitFor('Made d1 again, unasked.');
    expect(screen).not.toContain('? Allow');
    expect(screen).not.toContain('? Trust this folder');
    // The ignored settings were told once (by the answer), not again.
    expect(screen).not.toContain('not trusted');
    second.type('/exit');
    await second.waitFor(/\[exit 0\]/);
  });

  it('"yes" trusts the folder: its allow rules apply, and always-rules go to its local settings', async () => {
    const { cwd, home } = projectWithAllowRule('Bash(touch *)');
    await standin?.close();
    standin = await startStandin({
      dialect: 'anthropic',
      script: [bash('touch t1'), { text: 'Touched t1.' }, bash('mkdir -p d2'), { text: 'Made d2.' }],
    });
    const tmux = start('yes', cwd, home, standin.url);
    await tmux.waitFor('? Trust this folder');
    tmux.type('y');
    await tmux.waitFor('trusted: its settings');
    await tmux.waitForPrompt();
    tmux.type('touch t1');
    let screen = await tmux.waitFor('Touched t1.');
    expect(screen).not.toContain('? Allow');
    expect(existsSync(path.join(cwd, 't1'))).toBe(true);
    const settings = JSON.parse(readFileSync(path.join(home, '.wield', 'settings.json'), 'utf8'));
    expect(settings.trustedProjects).toEqual([realpathSync(cwd)]);
    tmux.type('make d2');
    await tmux.waitFor('? Allow Bash(mkdir -p d2)');
    tmux.type('A');
    screen = await tmux.waitFor('Made d2.');
    expect(screen).toContain('saved to .wield/settings.local.json');
    expect(readFileSync(path.join(cwd, '.wield', 'settings.local.json'), 'utf8')).toContain('Bash(mkdir -p d2)');
    tmux.type('/exit');
    await tmux.waitFor(/\[exit 0\]/);
  });

  it('Ctrl-C twice (or Ctrl-D) at the trust question exits at once, recording no answer', async () => {
    for (const [name, keys, code] of [
      ['ctrl-c', ['C-c', 'C-c'], 130],
      ['ctrl-d', ['C-d'], 0],
    ] as const) {
      const { cwd, home } = projectWithAllowRule('Bash(touch *)');
      const tmux = start(`quit-${name}`, cwd, home, 'http://127.0.0.1:9');
      await tmux.waitFor('? Trust this folder');
      for (const key of keys) tmux.keys(key);
      await tmux.waitFor(`[exit ${code}]`);
      expect(existsSync(path.join(home, '.wield', 'projects.json'))).toBe(false);
      expect(existsSync(path.join(home, '.wield', 'settings.json'))).toBe(false);
    }
  });
});
