// Bundles our own code (dependencies stay external and load on first use) and emits types.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
// Packages bundled from devDependencies ship inside dist/ but are not installed beside it, so
// their licences travel with the bundle. (pi-tui is a devDependency because its optional
// Windows-only FFI dependency, koffi, would add ~28 MB to every install.)
const bundledDevPackages = ['@mariozechner/pi-tui', 'get-east-asian-width'];
const notices = bundledDevPackages.map((name) => {
  const manifest = JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8'));
  const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name;
  const file = ['LICENSE', 'license', 'LICENSE.md'].map((entry) => `node_modules/${name}/${entry}`).find(existsSync);
  const text = file ? readFileSync(file, 'utf8').trim() : `${manifest.license} licence, copyright ${author}.`;
  return `## ${name} ${manifest.version}\n\n${text}\n`;
});
writeFileSync('dist/THIRD-PARTY-LICENSES.md', `# Bundled third-party code\n\n${notices.join('\n')}`);
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
