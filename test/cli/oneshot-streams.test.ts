// `wield -p` against a model server that breaks its replies or goes quiet: the reply is asked for
// again, stderr says so while it happens, and the answer is the retried reply's. Real CLI, real
// SDKs, stand-in model server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStandin, type ScriptStep, type StandinDialect } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

async function oneshot(dialect: StandinDialect, script: ScriptStep[], settings?: unknown) {
  const cwd = tempDir('wield-cli-streams-cwd-');
  const home = tempDir('wield-cli-streams-home-');
  if (settings !== undefined) {
    mkdirSync(path.join(home, '.wield'));
    writeFileSync(path.join(home, '.wield', 'settings.json'), JSON.stringify(settings));
  }
  const standin = await startStandin({ dialect, script });
  try {
    const run = await runCli(cli, [...providerArgs(dialect), '-p', 'hi'], { cwd, env: cleanEnv(home, providerEnv(dialect, standin.url)) });
    return { run, requests: standin.requests.length };
  } finally {
    await standin.close();
  }
}

describe('wield -p: replies that break or stall', () => {
  it('a server that accepts and never answers is retried after the first-byte timeout (setting), saying so', async () => {
    const { run, requests } = await oneshot('anthropic', [{ silent: true }, { text: 'Here at last.' }], {
      modelStream: { firstByteTimeout: 0.5 },
    });
    expect(run.stderr).toMatch(/first-byte timeout, setting modelStream\.firstByteTimeout\)\. Asking the model again \(retry 1 of 3\)/);
    expect(run.stdout).toBe('Here at last.\n');
    expect(run.code).toBe(0);
    expect(requests).toBe(2);
  });

  it('a reply overloaded mid-stream after some text is retried and the answer is the new reply only', async () => {
    const { run } = await oneshot('openai', [
      { text: 'Half an answ', breakAfter: { chunks: 2, kind: 'error_event' } },
      { text: 'Whole answer.' },
    ]);
    expect(run.stderr).toMatch(/reported an error mid-stream: Overloaded\. Asking the model again/);
    expect(run.stdout).toBe('Whole answer.\n');
    expect(run.code).toBe(0);
  });

  it('a stream that stops mid-reply is retried after the idle timeout', async () => {
    const { run } = await oneshot('openai-responses', [{ text: 'stalls', breakAfter: { chunks: 3, kind: 'stall' } }, { text: 'Done.' }], {
      modelStream: { idleTimeout: 0.5 },
    });
    expect(run.stderr).toMatch(/idle timeout, setting modelStream\.idleTimeout/);
    expect(run.stdout).toBe('Done.\n');
  });
});
