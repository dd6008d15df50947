// OpenAI strict mode from the CLI: --strict-tools, or `strictTools` in settings, reaches the
// request a real OpenAI SDK sends to a stand-in server; without either, tools go non-strict.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin } from '../support/standin/index.js';
import { buildCli, cleanEnv, providerArgs, providerEnv, runCli, tempDir } from './helpers.js';

let cli: string;
let cleanup: () => void;
beforeAll(async () => ({ cli, cleanup } = await buildCli()));
afterAll(() => cleanup?.());

type SentTool = { type: string; function: { name: string; strict?: boolean; parameters: { additionalProperties?: unknown } } };

async function sentTools(args: string[], settings?: Record<string, unknown>): Promise<SentTool[]> {
  const home = tempDir('wield-strict-home-');
  if (settings) {
    mkdirSync(path.join(home, '.wield'), { recursive: true });
    writeFileSync(path.join(home, '.wield', 'settings.json'), JSON.stringify(settings));
  }
  const standin = await startStandin({ dialect: 'openai', script: [{ text: 'ok' }] });
  try {
    const run = await runCli(cli, [...providerArgs('openai'), '-p', 'hi', ...args], {
      cwd: tempDir('wield-strict-cwd-'),
      env: cleanEnv(home, providerEnv('openai', standin.url)),
    });
    expect(run.code, run.stderr).toBe(0);
    return (standin.requests[0] as { tools: SentTool[] }).tools;
  } finally {
    await standin.close();
  }
}

describe('strict mode from the CLI', () => {
  it('--strict-tools sends strict schemas; the setting does too; neither sends none', async () => {
    const byFlag = await sentTools(['--strict-tools']);
    const read = byFlag.find((tool) => tool.function.name === 'Read');
    expect(read?.function).toMatchObject({ strict: true, parameters: { additionalProperties: false } });
    const bySetting = await sentTools([], { strictTools: true });
    expect(bySetting.find((tool) => tool.function.name === 'Read')?.function.strict).toBe(true);
    const plain = await sentTools([]);
    expect(plain.some((tool) => tool.function.strict === true)).toBe(false);
  });
});
