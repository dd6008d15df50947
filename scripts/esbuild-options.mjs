// The esbuild options every bundle of wield's code shares (the build, the CLI tests, benches).
// Pure-JS dependencies are bundled in: loading one file is several times faster than resolving
// hundreds (the Anthropic SDK: ~170 ms as files, ~40 ms bundled), which is most of start-up.
// These stay external because they find files next to themselves at run time (WASM grammars,
// the ripgrep binary), generate code that requires their own files (Ajv), or are heavy and
// only loaded when used (the MCP SDK, turndown's DOM). The adapters' frameworks are the user's
// own peer dependencies: their copy must be the one the adapter talks to. The OpenTelemetry SDK
// loads only when trace export is on; bundled into a split chunk, a CommonJS package's named
// exports would sit under `default` (the runtime's @opentelemetry/api is bundled: it is small,
// always loaded, and shares the SDK's state through its global registry).
export const externalPackages = [
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/resources',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@opentelemetry/exporter-trace-otlp-http',
  'ai',
  'ai/*',
  '@openai/agents',
  '@openai/agents-core',
  '@langchain/core',
  '@langchain/core/*',
  'web-tree-sitter',
  'tree-sitter-bash',
  '@vscode/ripgrep',
  '@modelcontextprotocol/*',
  'ajv',
  'ajv/*',
  'turndown',
  'sharp',
  'esbuild',
];

/** @type {import('esbuild').BuildOptions} */
export const bundleOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: externalPackages,
  // Bundled CommonJS dependencies call require(); give ESM output one.
  banner: {
    js: "import { createRequire as __wieldCreateRequire } from 'node:module'; const require = __wieldCreateRequire(import.meta.url);",
  },
  logLevel: 'error',
};
