// Bundles our own code (dependencies stay external and load on first use) and emits types.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { bundleOptions, workerEntryPoints } from './esbuild-options.mjs';

rmSync('dist', { recursive: true, force: true });
const result = await build({
  entryPoints: {
    cli: 'src/cli/main.ts',
    index: 'src/index.ts',
    coding: 'src/coding/index.ts',
    mcp: 'src/runtime/mcp/index.ts',
    search: 'src/runtime/search/index.ts',
    'ai-sdk': 'src/adapters/ai-sdk.ts',
    'openai-agents': 'src/adapters/openai-agents.ts',
    langchain: 'src/adapters/langchain.ts',
    ...workerEntryPoints,
  },
  ...bundleOptions,
  outdir: 'dist',
  splitting: true,
  // Whitespace and syntax only: names stay readable in stack traces. With the dependencies now
  // bundled this takes the chunks from 8.8 to 6.1 MB; source maps would add as much again.
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
chmodSync('dist/cli.js', 0o755);
// The two WASM files the Bash analyser loads (parser.ts looks beside the chunks first).
copyFileSync('node_modules/web-tree-sitter/tree-sitter.wasm', 'dist/tree-sitter.wasm');
copyFileSync('node_modules/tree-sitter-bash/tree-sitter-bash.wasm', 'dist/tree-sitter-bash.wasm');
// QuickJS for RunCode (runtime/codemode/quickjs.ts looks beside the chunks first, under this name).
copyFileSync('node_modules/@jitl/quickjs-ng-wasmfile-release-sync/dist/emscripten-module.wasm', 'dist/quickjs-ng.wasm');
// Every package whose code is inside the bundle ships without its own folder, so its licence
// travels with the bundle: the list comes from what esbuild actually put in.
const bundled = new Set(['web-tree-sitter', 'tree-sitter-bash']);
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match) bundled.add(match[1]);
}
const notices = [...bundled].sort().map((name) => {
  const manifest = JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8'));
  const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name;
  const file = ['LICENSE', 'license', 'LICENSE.md', 'LICENSE.txt', 'LICENCE']
    .map((entry) => `node_modules/${name}/${entry}`)
    .find(existsSync);
  const text = file ? readFileSync(file, 'utf8').trim() : `${manifest.license} licence${author ? `, copyright ${author}` : ''}.`;
  return `## ${name} ${manifest.version}\n\n${text}\n`;
});
writeFileSync('dist/THIRD-PARTY-LICENSES.md', `# Bundled third-party code\n\n${notices.join('\n')}`);
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
