// Developer toolchains: only the calls that print a version or list installed packages. Others
// (yarn, pnpm, go, cargo) are left out: a version query there may first download or run a
// toolchain pinned by the project.
import { runProgram, type Invocation, type ProgramContext, type ProgramSpec } from '../program.js';

/**
 * Files version managers read from the project (asdf, mise, rtx, nodenv, pyenv, fnm): a shim on
 * PATH standing in for node or python may install the version they name, or, for mise, run the
 * scripts and set the environment its config lists. `.nvmrc` is read by nvm only on `nvm use`,
 * but mise, asdf (legacy version files) and fnm read it as their own. Audit of the other programs
 * in the table: none reads config from the workspace that can write, run or reach the network
 * (rg reads RIPGREP_CONFIG_PATH, awk AWKPATH, file MAGIC, gzip GZIP and unzip UNZIP, and jq
 * ~/.jq: the user's, and a command that sets one asks; git's repository config, hooks, work tree
 * and git folder are checked before git runs; ignore files only narrow what a search reads;
 * .editorconfig is read by editors only). Not covered: volta pins a node version in package.json
 * (`"volta"`), which its node shim downloads; only the sandbox (no network) stops that.
 */
const TOOLCHAIN_FILES = [
  '.tool-versions',
  '.mise.toml',
  '.mise.local.toml',
  'mise.toml',
  'mise.local.toml',
  '.mise',
  '.config/mise.toml',
  '.config/mise',
  '.rtx.toml',
  '.rtx.local.toml',
  'rtx.toml',
  '.node-version',
  '.nvmrc',
  '.python-version',
];

/** Exactly one argument, one of `flags`. */
const versionOnly = (...flags: string[]): ProgramSpec => ({
  noOptions: true,
  operands: 'data',
  configFiles: TOOLCHAIN_FILES,
  check: (inv) => (inv.args.length === 1 && flags.includes(inv.args[0].value) ? undefined : 'only a version query is read-only'),
});

/** `npm ls` options that stay in the workspace (not -g, --prefix, --location) and write nothing. */
const NPM_LS: ProgramSpec = {
  short: 'alpw:',
  long: [
    'all',
    'depth=',
    'json',
    'long',
    'parseable',
    'omit=',
    'include=',
    'link',
    'workspace=',
    'workspaces',
    'include-workspace-root',
    'package-lock-only',
    'unicode',
    'prod',
    'production',
    'dev',
    'color=',
    'no-color',
  ],
  operands: 'data',
};

/** `npm pkg get [KEY…]` prints fields of package.json (`set`, `delete` and `fix` change it). */
const NPM_PKG_GET: ProgramSpec = { long: ['json', 'workspace=', 'workspaces', 'include-workspace-root'], short: 'w:', operands: 'data' };

function checkNpm(inv: Invocation, ctx: ProgramContext): string | undefined {
  const [first, ...rest] = inv.args;
  if (inv.args.length === 1 && (first.value === '--version' || first.value === '-v')) return undefined;
  if (first?.value === 'pkg' && rest[0]?.value === 'get') return runProgram('npm pkg get', NPM_PKG_GET, rest.slice(1), ctx);
  if (!first || !['ls', 'list', 'll', 'la'].includes(first.value)) {
    return `\`npm ${first?.text ?? ''}\` is not a read-only npm command`;
  }
  return runProgram(`npm ${first.value}`, NPM_LS, rest, ctx);
}

export const TOOLS: Record<string, ProgramSpec> = {
  node: versionOnly('--version', '-v'),
  python: versionOnly('--version', '-V'),
  python3: versionOnly('--version', '-V'),
  // npm reads `.npmrc` from the project: cache, logs-dir and prefix folders anywhere, a registry and update checks over the network.
  npm: { noOptions: true, operands: 'data', check: checkNpm, configFiles: ['.npmrc', ...TOOLCHAIN_FILES] },
};
