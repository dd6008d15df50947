// The official conformance suite's client scenarios with wield as the client (the CLI bundle,
// driven by test/support/conformance/wield-client.mjs), OAuth ones included: the suite's
// authorization servers are completed headless by a BROWSER script that follows the redirects.
// Scenarios run four at a time (the suite's own `--suite all` starts all 26 at once, and on a
// loaded 2-core machine each wield start then outlasts the suite's timeout).
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../cli/helpers.js';
import { failed, runSuite, type SuiteRun } from '../../support/conformance/run.js';

const require = createRequire(import.meta.url);
const driver = path.join(path.dirname(require.resolve('../../support/conformance/browser.mjs')), 'wield-client.mjs');

const SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/cross-app-access-complete-flow',
];

/**
 * Known gaps, the only checks allowed to fail: sse-retry's reconnection delay, a timing check
 * that passes alone but has failed on a loaded machine (the SDK transport's backoff against its
 * window). scope-retry-limit, once a timing failure too, passes since a refused scope is
 * re-authorized within the same connection (7 of 7 runs, 4 at once, load average ~11). The
 * 2025-03-26 metadata fallback passes since wield takes root metadata whose issuer is a path on
 * the server's own origin (oauth-legacy.ts); other origins stay refused (oauth-legacy.test.ts).
 */
const KNOWN_FAILURES = ['sse-retry/client-sse-retry-timing'];

let cleanup = (): void => undefined;
const runs: Record<string, SuiteRun> = {};

beforeAll(async () => {
  const built = await buildCli();
  cleanup = built.cleanup;
  process.env.WIELD_CLI = built.cli;
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(driver)}`;
  const queue = [...SCENARIOS];
  const worker = async () => {
    for (let scenario = queue.shift(); scenario; scenario = queue.shift()) {
      runs[scenario] = await runSuite('0.1.16', ['client', '--command', command, '--scenario', scenario, '--timeout', '90000'], 120_000);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}, 540_000);

afterAll(() => {
  delete process.env.WIELD_CLI;
  cleanup();
});

describe('conformance 0.1.16, client scenarios (wield as the client)', () => {
  it('passes every check but the known gaps', () => {
    const all = Object.values(runs)
      .flatMap((run) => Object.values(run.scenarios).flat())
      .filter((check) => check.status === 'SUCCESS' || check.status === 'FAILURE');
    console.log(`conformance client: ${all.filter((c) => c.status === 'SUCCESS').length} of ${all.length} checks passed`);
    for (const scenario of SCENARIOS) expect(Object.keys(runs[scenario]?.scenarios ?? {}), scenario).toContain(scenario);
    const failures = Object.values(runs)
      .flatMap(failed)
      .map((line) => line.split(':')[0])
      .sort();
    expect(failures.filter((id) => !KNOWN_FAILURES.includes(id))).toEqual([]);
  });
});
