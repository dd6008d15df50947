import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The suite must not depend on the person running it: every test (and every process it starts)
// sees an empty home folder, no global or system git config, and a fixed git identity for the
// commits fixtures make — as on a fresh CI machine, where git has no identity at all.
const home = mkdtempSync(path.join(tmpdir(), 'wield-test-home-'));

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'wield tests',
      GIT_AUTHOR_EMAIL: 'tests@example.invalid',
      GIT_COMMITTER_NAME: 'wield tests',
      GIT_COMMITTER_EMAIL: 'tests@example.invalid',
    },
    // The JSON report lets CI print one plain closing line with the counts.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/results.json' },
    maxWorkers: 3,
  },
});
