// The official conformance suite's server scenarios, in one run against server-everything (the
// anchor), wield's gateway alone, and wield's gateway proxying server-everything: the gateway
// must pass every check the anchor passes, and the DNS-rebinding checks the anchor fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cleanEnv } from '../../cli/helpers.js';
import { failed, passed, runSuite, type SuiteRun, type SuiteVersion } from '../../support/conformance/run.js';
import { type RunningServer, startEverythingHttp, startGateway } from '../../support/conformance/servers.js';
import { tempDir } from './helpers.js';

const servers: RunningServer[] = [];
let cleanup = (): void => undefined;
const runs: Record<string, Record<SuiteVersion, SuiteRun>> = {};

beforeAll(async () => {
  const built = await buildCli();
  cleanup = built.cleanup;
  const home = tempDir('conf-home');
  const project = tempDir('conf-project');
  const env = cleanEnv(home);
  const [anchor, bare, proxy] = await Promise.all([
    startEverythingHttp(),
    startGateway(built.cli, project, env, false),
    startGateway(built.cli, project, env, true),
  ]);
  servers.push(anchor, bare, proxy);
  // All runs at once: the suite's scenarios are short, the servers independent.
  const targets = { anchor, bare, proxy };
  const versions: SuiteVersion[] = ['0.1.16', '0.2.0-alpha.12'];
  const jobs = Object.entries(targets).flatMap(([name, server]) =>
    versions.map(async (version) => {
      const run = await runSuite(version, ['server', '--url', server.url], 120_000);
      runs[name] ??= {} as Record<SuiteVersion, SuiteRun>;
      runs[name][version] = run;
    }),
  );
  await Promise.all(jobs);
}, 240_000);

afterAll(() => {
  for (const server of servers) server.stop();
  cleanup();
});

function summary(run: SuiteRun): string {
  const checks = Object.values(run.scenarios).flat();
  return `${checks.filter((c) => c.status === 'SUCCESS').length}/${checks.filter((c) => c.status === 'SUCCESS' || c.status === 'FAILURE').length}`;
}

describe.each(['0.1.16', '0.2.0-alpha.12'] as SuiteVersion[])('conformance %s, server scenarios', (version) => {
  it('the gateway proxying server-everything passes every check server-everything passes', () => {
    const anchor = runs.anchor[version];
    const proxy = runs.proxy[version];
    expect(Object.keys(anchor.scenarios).length, anchor.output.slice(-2000)).toBeGreaterThan(20);
    console.log(
      `conformance ${version}: anchor ${summary(anchor)}, gateway ${summary(runs.bare[version])}, gateway+everything ${summary(proxy)}`,
    );
    const missing = [...passed(anchor)].filter((id) => !passed(proxy).has(id));
    expect(missing, failed(proxy).join('\n')).toEqual([]);
  });

  it('both gateways pass the DNS-rebinding checks', () => {
    for (const name of ['bare', 'proxy']) {
      const checks = runs[name][version].scenarios['dns-rebinding-protection'] ?? [];
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.filter((check) => check.status !== 'SUCCESS')).toEqual([]);
    }
  });
});
