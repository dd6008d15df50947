// Bundles our own code (dependencies stay external and load on first use) and emits types.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rmSync, chmodSync } from 'node:fs';
import { bundleOptions } from './esbuild-options.mjs';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: {
    cli: 'src/cli/main.ts',
    index: 'src/index.ts',
    coding: 'src/coding/index.ts',
    mcp: 'src/runtime/mcp/index.ts',
    search: 'src/runtime/search/index.ts',
    'ai-sdk': 'src/adapters/ai-sdk.ts',
    'openai-agents': 'src/adapters/openai-agents.ts',
    langchain: 'src/adapters/langchain.ts',
  },
  ...bundleOptions,
  outdir: 'dist',
  splitting: true,
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
chmodSync('dist/cli.js', 0o755);
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
