// The official conformance suite's client scenarios with wield as the client (the CLI bundle,
// driven by test/support/conformance/wield-client.mjs), OAuth ones included: the suite's
// authorization servers are completed headless by a BROWSER script that follows the redirects.
// Two releases: 0.1.16 (the stable one) and 0.2.0-alpha.12, whose new scenarios run at the
// revision they test (2026-07-28's stateless wire, or both revisions). Scenarios run four at a
// time (the suite's own `--suite all` starts them all at once, and on a loaded 2-core machine each
// wield start then outlasts the suite's timeout).
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../cli/helpers.js';
import { failed, runSuite, type SuiteRun, type SuiteVersion } from '../../support/conformance/run.js';

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

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

/**
 * 0.2.0-alpha.12's client scenarios that 0.1.16 does not have, at the revision each is run at
 * (none: an extension, run at the suite's default). Its 0.1.16 scenarios are run again only on
 * the 2026-07-28 wire, and only a few (a plain call, discovery, step-up): the other auth
 * scenarios differ from 0.1.16's by the wire alone and passed there too when measured (README).
 * Not run: the four sep-2640-client-* scenarios (the skills extension, which wield does not
 * implement; the suite reports their checks skipped, nothing scored).
 */
const NEXT_SCENARIOS: [string, string | undefined][] = [
  ['tools_call', MODERN],
  ['auth/metadata-default', MODERN],
  ['auth/scope-step-up', MODERN],
  ['request-metadata', MODERN],
  ['auth/authorization-server-migration', MODERN],
  ['auth/iss-supported', MODERN],
  ['auth/iss-not-advertised', MODERN],
  ['auth/iss-supported-missing', MODERN],
  ['auth/iss-wrong-issuer', MODERN],
  ['auth/iss-unexpected', MODERN],
  ['auth/iss-normalized', MODERN],
  ['auth/metadata-issuer-mismatch', MODERN],
  ['sep-2322-client-request-state', MODERN],
  ['http-standard-headers', MODERN],
  ['http-custom-headers', MODERN],
  ['http-invalid-tool-headers', MODERN],
  ['json-schema-ref-no-deref', MODERN],
  ['json-schema-2020-12-preservation', MODERN],
  ['json-schema-2020-12-preservation', LEGACY],
  ['auth/enterprise-managed-authorization', undefined],
  ['auth/wif-jwt-bearer', undefined],
  ['auth/dpop', undefined],
  ['auth/dpop-nonce', undefined],
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
/** None: every alpha.12 scenario run above passes each of its checks. */
const NEXT_KNOWN_FAILURES: string[] = [];

interface Job {
  suite: SuiteVersion;
  scenario: string;
  specVersion?: string;
}

const jobName = (job: Job) => `${job.suite} ${job.scenario}${job.specVersion ? `@${job.specVersion}` : ''}`;

let cleanup = (): void => undefined;
const runs = new Map<string, SuiteRun>();
const jobs: Job[] = [
  ...SCENARIOS.map((scenario): Job => ({ suite: '0.1.16', scenario })),
  ...NEXT_SCENARIOS.map(([scenario, specVersion]): Job => ({ suite: '0.2.0-alpha.12', scenario, specVersion })),
];

beforeAll(async () => {
  const built = await buildCli();
  cleanup = built.cleanup;
  process.env.WIELD_CLI = built.cli;
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(driver)}`;
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const args = ['client', '--command', command, '--scenario', job.scenario, '--timeout', '90000'];
      runs.set(jobName(job), await runSuite(job.suite, job.specVersion ? [...args, '--spec-version', job.specVersion] : args, 120_000));
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}, 720_000);

afterAll(() => {
  delete process.env.WIELD_CLI;
  cleanup();
});

/** The suite's checks that passed or failed, and the ids of the failures (`scenario/check`). */
function outcome(suite: SuiteVersion): { passed: number; scored: number; failures: string[] } {
  const own = jobs.filter((job) => job.suite === suite);
  for (const job of own) expect(Object.keys(runs.get(jobName(job))?.scenarios ?? {}), jobName(job)).toContain(job.scenario);
  const suiteRuns = own.map((job) => runs.get(jobName(job))).filter((run) => run !== undefined);
  const scored = suiteRuns
    .flatMap((run) => Object.values(run.scenarios).flat())
    .filter((check) => check.status === 'SUCCESS' || check.status === 'FAILURE');
  const failures = suiteRuns
    .flatMap(failed)
    .map((line) => line.split(':')[0])
    .sort();
  return { passed: scored.filter((check) => check.status === 'SUCCESS').length, scored: scored.length, failures };
}

describe('conformance, client scenarios (wield as the client)', () => {
  it('0.1.16: passes every check but the known gaps', () => {
    const { passed, scored, failures } = outcome('0.1.16');
    console.log(`conformance 0.1.16 client: ${passed} of ${scored} checks passed`);
    expect(failures.filter((id) => !KNOWN_FAILURES.includes(id))).toEqual([]);
  });

  it('0.2.0-alpha.12: passes every check of the new scenarios, on both revisions', () => {
    const { passed, scored, failures } = outcome('0.2.0-alpha.12');
    console.log(`conformance 0.2.0-alpha.12 client: ${passed} of ${scored} checks passed`);
    expect(failures.filter((id) => !NEXT_KNOWN_FAILURES.includes(id))).toEqual([]);
  });
});
