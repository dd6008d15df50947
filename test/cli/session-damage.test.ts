// Damaged session files, through the built CLI: a log torn by a crash keeps every later prompt,
// and a file with no record in it is refused (resume) or reported (replay), never passed off as
// an empty session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin } from '../support/standin/index.js';
import { messagesOf, readSession } from '../../src/runtime/agent/session-store.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

function place() {
  const cwd = tempDir('wield-damage-cwd-');
  const home = tempDir('wield-damage-home-');
  return { cwd, home, sessions: path.join(home, '.wield', 'sessions') };
}

describe('a damaged session file', () => {
  it('resumes a log torn by a crash without losing the next prompt', async () => {
    const { cwd, home, sessions } = place();
    const standin = await startStandin({
      dialect: 'anthropic',
      script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }],
    });
    const env = cleanEnv(home, providerEnv('anthropic', standin.url));
    const args = (prompt: string, ...more: string[]) => [...providerArgs('anthropic'), '-p', prompt, '--output-format', 'json', ...more];
    try {
      const first = await runCli(cli, args('turn one'), { cwd, env });
      expect(first.code).toBe(0);
      const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
      expect((await runCli(cli, args('turn two', '--resume', sessionId), { cwd, env })).code).toBe(0);
      const file = path.join(sessions, `${sessionId}.jsonl`);
      const bytes = readFileSync(file);
      writeFileSync(file, bytes.subarray(0, bytes.length - 40));

      const torn = await runCli(cli, args('t', '--resume', sessionId), { cwd, env });
      expect(torn.code).toBe(0);
      const third = await runCli(cli, args('third', '--resume', sessionId), { cwd, env });
      expect(third.code).toBe(0);

      // The torn bytes are still there, and every prompt after them is a record of its own.
      expect(
        readFileSync(file)
          .subarray(0, bytes.length - 40)
          .equals(bytes.subarray(0, bytes.length - 40)),
      ).toBe(true);
      const userTexts = messagesOf(readSession(file).records)
        .filter((message) => message.role === 'user')
        .map((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
      expect(userTexts).toEqual(['turn one', 'turn two', 't', 'third']);
    } finally {
      await standin.close();
    }
  });

  // Needs src/cli/agent-session.ts to load with loadSessionForResume (notice + SetupError).
  it('names the skipped lines once on resume, and refuses a file with no session record in it', async () => {
    const { cwd, home, sessions } = place();
    mkdirSync(sessions, { recursive: true });
    const torn = path.join(sessions, 'torn.jsonl');
    writeFileSync(torn, `${JSON.stringify({ type: 'session', version: 1, id: 'torn', cwd, createdAt: 'now' })}\n{"type":"message","mess`);
    const junk = path.join(sessions, 'junk.jsonl');
    writeFileSync(junk, 'xx');
    const standin = await startStandin({ dialect: 'anthropic', script: [{ text: 'resumed' }] });
    const env = cleanEnv(home, providerEnv('anthropic', standin.url));
    try {
      const resumed = await runCli(cli, [...providerArgs('anthropic'), '-p', 'hi', '--resume', 'torn'], { cwd, env });
      expect(resumed.code).toBe(0);
      expect(resumed.stderr.match(/skipped 1 unreadable line \(line 2;/g)).toHaveLength(1);

      const refused = await runCli(cli, [...providerArgs('anthropic'), '-p', 'hi', '--resume', 'junk'], { cwd, env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/Cannot resume "junk": .*holds no session records \(1 unreadable line\)/);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
      expect(standin.requests).toHaveLength(1);
      expect(readFileSync(junk, 'utf8')).toBe('xx');
    } finally {
      await standin.close();
    }
  });

  it('resumes past a valid-JSON line of the wrong shape, naming it', async () => {
    const { cwd, home, sessions } = place();
    mkdirSync(sessions, { recursive: true });
    const lines = [
      { type: 'session', version: 1, id: 'shape', cwd, createdAt: 'now' },
      { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'first prompt' }] } },
      { type: 'message', message: null },
      { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] } },
    ];
    writeFileSync(path.join(sessions, 'shape.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const standin = await startStandin({ dialect: 'anthropic', script: [{ text: 'resumed' }] });
    try {
      const run = await runCli(cli, [...providerArgs('anthropic'), '-p', 'again', '--resume', 'shape'], {
        cwd,
        env: cleanEnv(home, providerEnv('anthropic', standin.url)),
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('resumed\n');
      expect(run.stderr).toMatch(/skipped 1 unreadable line \(line 3;/);
      expect(run.stderr).not.toMatch(/Cannot read properties|\n\s+at /);
      const sent = JSON.stringify(standin.requests[0]);
      expect(sent).toContain('first prompt');
      expect(sent).toContain('first answer');
    } finally {
      await standin.close();
    }
  });

  it('a tool input nested 20,000 deep is refused as a call; the turn goes on and the session stays saved', async () => {
    const { cwd, home, sessions } = place();
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const standin = await startStandin({
      dialect: 'anthropic',
      script: [{ toolCalls: [{ name: 'Read', arguments: deep }] }, { text: 'went on' }],
    });
    try {
      const run = await runCli(cli, [...providerArgs('anthropic'), '-p', 'hi', '--output-format', 'json'], {
        cwd,
        env: cleanEnv(home, providerEnv('anthropic', standin.url)),
      });
      expect(run.stderr).not.toMatch(/Maximum call stack|no longer saved|\n\s+at /);
      expect(JSON.parse(run.stdout)).toMatchObject({ answer: 'went on', isError: false });
      expect(/nest 20000 levels deep; at most 100 are accepted/.test(JSON.stringify(standin.requests[1]))).toBe(true);
      const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };
      expect(messagesOf(readSession(path.join(sessions, `${sessionId}.jsonl`)).records)).toHaveLength(4);
    } finally {
      await standin.close();
    }
  });

  it('`wield replay` of a file with no session record fails instead of reporting 0 calls', async () => {
    const { cwd, home } = place();
    const file = path.join(cwd, 'junk.jsonl');
    writeFileSync(file, 'xx\n{"type":"nope"}\n');
    const run = await runCli(cli, ['replay', file], { cwd, env: cleanEnv(home) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('line 1: not valid JSON');
    expect(run.stderr).toMatch(/holds no session records \(2 unreadable lines\).*Nothing to replay/);
    expect(run.stdout).not.toMatch(/0 calls/);
  });
});
