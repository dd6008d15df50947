// Once per test run: the CLI bundled from src/ for every test that runs it as a child process
// (buildCli in test/cli/helpers.ts). Bundling it in each of the ~40 files that do cost a few
// seconds of CPU each on two cores — the most of it esbuild's — for the same bytes every time.
import { bundleCli, CLI_BUNDLE_ENV } from '../cli/helpers.js';

export default async function setup(): Promise<() => void> {
  const { cli, cleanup } = await bundleCli();
  // Test workers are started after this and inherit the variable.
  process.env[CLI_BUNDLE_ENV] = cli;
  return () => {
    cleanup();
    delete process.env[CLI_BUNDLE_ENV];
  };
}
