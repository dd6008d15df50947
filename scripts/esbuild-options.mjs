// The esbuild options every bundle of wield's code shares (the build, the CLI tests, benches).
// Pure-JS dependencies are bundled in: loading one file is several times faster than resolving
// hundreds (the Anthropic SDK: ~170 ms as files, ~40 ms bundled), which is most of start-up.
// These stay external: the adapters' frameworks are the user's own peer dependencies (their copy
// must be the one the adapter talks to); ripgrep and sharp ship native binaries found next to
// their own files and are optional peers; Ajv's generated code requires Ajv's own files. The rest
// (the MCP SDK, the OpenTelemetry SDK, turndown, web-tree-sitter) is bundled, so an install
// holds only what the runtime uses (`npm i wield zod`: ~24 MB, was 193 MB); the code that only the
// CLI or a feature needs sits in split chunks loaded on first use. The tree-sitter WASM files
// are copied beside the chunks by the build.
export const externalPackages = [
  'ai',
  'ai/*',
  '@openai/agents',
  '@openai/agents-core',
  '@langchain/core',
  '@langchain/core/*',
  '@vscode/ripgrep',
  'ajv',
  'ajv/*',
  'sharp',
  'esbuild',
];

/**
 * Optional peers of bundled packages that wield never uses: @redis/client (the gateway's shared
 * store) imports @node-rs/xxhash only inside its `digest` helper. Each becomes a module that fails
 * to load, so the package imports nothing it does not depend on and the bundled package's own
 * "not installed" error still stands if it is ever reached.
 */
const unusedOptionalPeers = ['@node-rs/xxhash'];
/** @type {import('esbuild').Plugin} */
const absentOptionalPeers = {
  name: 'absent-optional-peers',
  setup(build) {
    const filter = new RegExp(`^(${unusedOptionalPeers.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'absent' }));
    build.onLoad({ filter: /.*/, namespace: 'absent' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not installed`)});`,
    }));
  },
};

/**
 * Worker threads' entries (paths from the repository root), bundled beside every build's own
 * entries: the code starting a worker finds its file there (runtime/util/shipped-file.ts).
 */
export const workerEntryPoints = { 'gateway-heartbeat': 'src/runtime/mcp/gateway-heartbeat.ts' };

/** @type {import('esbuild').BuildOptions} */
export const bundleOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: externalPackages,
  plugins: [absentOptionalPeers],
  // Bundled CommonJS dependencies call require(); give ESM output one.
  banner: {
    js: "import { createRequire as __wieldCreateRequire } from 'node:module'; const require = __wieldCreateRequire(import.meta.url);",
  },
  logLevel: 'error',
};
