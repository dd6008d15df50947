// The official conformance suite's client scenarios with wield as the client (the CLI bundle,
// driven by test/support/conformance/wield-client.mjs), OAuth ones included: the suite's
// authorization servers are completed headless by a BROWSER script that follows the redirects.
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../cli/helpers.js';
import { failed, runSuite, type SuiteRun } from '../../support/conformance/run.js';

const require = createRequire(import.meta.url);
const driver = path.join(path.dirname(require.resolve('../../support/conformance/browser.mjs')), 'wield-client.mjs');

let cleanup = (): void => undefined;
let run: SuiteRun;

beforeAll(async () => {
  const built = await buildCli();
  cleanup = built.cleanup;
  process.env.WIELD_CLI = built.cli;
  // The suite runs its client scenarios in parallel; each starts one wield process.
  run = await runSuite(
    '0.1.16',
    ['client', '--command', `${JSON.stringify(process.execPath)} ${JSON.stringify(driver)}`, '--suite', 'all', '--timeout', '120000'],
    400_000,
  );
}, 420_000);

afterAll(() => {
  delete process.env.WIELD_CLI;
  cleanup();
});

describe('conformance 0.1.16, client scenarios (wield as the client)', () => {
  it('passes every check of every scenario', () => {
    const scenarios = Object.keys(run.scenarios);
    expect(scenarios.length, run.output.slice(-3000)).toBeGreaterThan(20);
    const checks = Object.values(run.scenarios).flat();
    console.log(`conformance client: ${checks.filter((c) => c.status === 'SUCCESS').length} of ${checks.length} checks passed`);
    expect(failed(run)).toEqual([]);
  });

  it('ran the OAuth scenarios', () => {
    expect(Object.keys(run.scenarios).filter((name) => name.startsWith('auth')).length).toBeGreaterThan(15);
  });
});
