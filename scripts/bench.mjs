// Runs the benchmarks: each bench/*.bench.ts is bundled with esbuild (dependencies external)
// and run in its own node process, so one bench's memory never skews another's.
// Usage: npm run bench [-- NAME ...]   (NAME filters by file name)
import { build } from 'esbuild';
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import os from 'node:os';
import { bundleOptions } from './esbuild-options.mjs';

const filters = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((n) => f.includes(n)))
  .sort();
mkdirSync('bench/.out', { recursive: true });
mkdirSync('bench/results', { recursive: true });
const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`;
console.log(`machine: ${machine}`);
let failed = 0;
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '');
  const outfile = join('bench/.out', `${name}.mjs`);
  await build({
    entryPoints: [join('bench', file)],
    ...bundleOptions,
    outfile,
  });
  console.log(`\n== ${name}`);
  const run = spawnSync(process.execPath, ['--expose-gc', outfile], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  process.stdout.write(run.stdout);
  writeFileSync(join('bench/results', `${name}.json`), run.stdout);
  if (run.status !== 0) {
    failed++;
    console.log(`!! ${name} exited ${run.status}`);
  }
}
process.exit(failed ? 1 : 0);
