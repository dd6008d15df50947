// Developer toolchains: only the calls that print a version or list installed packages. Others
// (yarn, pnpm, go, cargo) are left out: a version query there may first download or run a
// toolchain pinned by the project.
import { runProgram, type Invocation, type ProgramContext, type ProgramSpec } from '../program.js';

/** Exactly one argument, one of `flags`. */
const versionOnly = (...flags: string[]): ProgramSpec => ({
  noOptions: true,
  operands: 'data',
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

function checkNpm(inv: Invocation, ctx: ProgramContext): string | undefined {
  const [first, ...rest] = inv.args;
  if (inv.args.length === 1 && (first.value === '--version' || first.value === '-v')) return undefined;
  if (!first || !['ls', 'list', 'll', 'la'].includes(first.value)) {
    return `\`npm ${first?.text ?? ''}\` is not a read-only npm command`;
  }
  return runProgram(`npm ${first.value}`, NPM_LS, rest, ctx);
}

export const TOOLS: Record<string, ProgramSpec> = {
  node: versionOnly('--version', '-v'),
  python: versionOnly('--version', '-V'),
  python3: versionOnly('--version', '-V'),
  npm: { noOptions: true, operands: 'data', check: checkNpm },
};
