// Programs that run another program: read-only only when the wrapped command is, and the wrapper
// itself adds nothing unsafe. Shells with -c are analysed as scripts.
import { isSafeEnvAssignment } from '../env.js';
import { getopt, type OptionSpec } from '../getopt.js';
import { checkPath } from '../paths.js';
import { hasOption, type Invocation, type ProgramContext, type ProgramSpec } from '../program.js';
import type { Word } from '../types.js';

/** The argv after the options: a wrapper's own options stop at its first operand (POSIX). */
function wrapped(inv: Invocation, skip: number, ctx: ProgramContext, required: boolean): string | undefined {
  const argv = inv.operands.slice(skip);
  if (argv.length === 0) return required ? `\`${inv.name}\` without a command` : undefined;
  return ctx.runArgv(argv);
}

const ENV: ProgramSpec = {
  posix: true,
  short: 'i0vu:C:S:',
  long: ['ignore-environment', 'null', 'debug', 'unset=', 'chdir=', 'split-string='],
  alias: { '--chdir': '-C', '--split-string': '-S' },
  unsafe: { '-C': 'runs the command in another folder', '-S': 'splits a string into a command line' },
  operands: 'data',
  check: (inv, ctx) => {
    let k = 0;
    for (; k < inv.operands.length && inv.operands[k].value.includes('='); k++) {
      const w = inv.operands[k];
      if (w.tilde || !isSafeEnvAssignment(w.value))
        return `\`env ${w.text}\` sets a variable that can change what the program runs or does`;
    }
    if (k === inv.operands.length) return '`env` prints the environment, which may hold secrets';
    return wrapped(inv, k, ctx, true);
  },
};

const SHELL_OPTIONS = new Set(['--norc', '--noprofile', '--login', '--posix']);
const SAFE_SET_O = new Set(['pipefail', 'errexit', 'nounset', 'xtrace', 'noglob']);

/** `sh -c 'script' [name args…]`: the script is analysed; other shell uses are not read-only. */
function checkShell(inv: Invocation, ctx: ProgramContext): string | undefined {
  const args = inv.args;
  let i = 0;
  let command = false;
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (SHELL_OPTIONS.has(v)) continue;
    if (v === '-o' || v === '+o') {
      if (!SAFE_SET_O.has(args[++i]?.value ?? '')) return `\`${inv.name} ${v}\` with an option the analyser does not know`;
      continue;
    }
    if (!/^[-+][a-zA-Z]+$/.test(v)) break;
    if (!/^[-+][celuxvf]+$/.test(v)) return `\`${inv.name} ${v}\` is an option the analyser does not know`;
    if (v.startsWith('-') && v.includes('c')) command = true;
  }
  const script = args[i];
  if (!command || !script) return `\`${inv.name}\` without -c runs a script or reads commands from input`;
  if (script.dynamic) return `the script of \`${inv.name} -c\` is only known at run time`;
  // The script is parsed as bash, but `sh` may be dash, which has no `$'…'` quoting: it reads `$`
  // and a single-quoted string, so `echo $'\'; touch x; #'` runs touch there.
  if (inv.name !== 'bash' && script.value.includes("$'")) {
    return `\`${inv.name}\` may not be bash and would read \`$'…'\` differently`;
  }
  return ctx.runScript(script.value);
}

// `--process-slot-var=NAME` is left out: it sets any environment variable NAME for the command.
export const XARGS: OptionSpec = {
  posix: true,
  short: '0a:d:E:e::I:i::L:l::n:P:prs:tx',
  long: [
    'null',
    'arg-file=',
    'delimiter=',
    'eof=?',
    'replace=?',
    'max-lines=?',
    'max-args=',
    'max-procs=',
    'interactive',
    'no-run-if-empty',
    'max-chars=',
    'verbose',
    'exit',
    'show-limits',
  ],
};

export const WRAPPERS: Record<string, ProgramSpec> = {
  env: ENV,
  timeout: {
    posix: true,
    operands: 'data',
    short: 'k:s:v',
    long: ['kill-after=', 'signal=', 'preserve-status', 'foreground', 'verbose'],
    check: (inv, ctx) => wrapped(inv, 1, ctx, true),
  },
  nice: {
    posix: true,
    numeric: true,
    operands: 'data',
    short: 'n:',
    long: ['adjustment='],
    check: (inv, ctx) => wrapped(inv, 0, ctx, false),
  },
  stdbuf: {
    posix: true,
    operands: 'data',
    short: 'i:o:e:',
    long: ['input=', 'output=', 'error='],
    check: (inv, ctx) => wrapped(inv, 0, ctx, true),
  },
  time: { posix: true, operands: 'data', short: 'p', check: (inv, ctx) => wrapped(inv, 0, ctx, false) },
  command: {
    posix: true,
    operands: 'data',
    short: 'pvV',
    check: (inv, ctx) => (hasOption(inv, '-v', '-V') ? undefined : wrapped(inv, 0, ctx, false)),
  },
  sh: { noOptions: true, operands: 'data', check: checkShell },
  bash: { noOptions: true, operands: 'data', check: checkShell },
  dash: { noOptions: true, operands: 'data', check: checkShell },
  xargs: {
    noOptions: true,
    operands: 'data',
    // Input lines become arguments: only programs whose arguments are plain data stay read-only.
    check: (inv, ctx) => {
      const parsed = getopt(inv.args, XARGS);
      if (!parsed.ok) return `xargs: ${parsed.reason}`;
      for (const o of parsed.options) {
        const problem = o.value && (o.key === '-a' || o.key === '--arg-file') ? checkPath(o.value, ctx.scope) : undefined;
        if (problem) return `xargs ${o.word.text}: ${problem}`;
      }
      const argv: readonly Word[] = parsed.operands.length ? parsed.operands : [];
      const name = argv[0]?.value ?? 'echo';
      // Contained, input lines can only make a program without further checks (no embedded
      // program, no subcommands) read what the view holds; its own words still count.
      const program = argv[0] && ctx.program(argv[0]);
      if (argv[0] && !program?.dynamicArgs && !(ctx.scope.contained && program && !program.check))
        return `xargs passes its input as arguments to \`${name}\`, so they may name any file or option`;
      return argv.length ? ctx.runArgv(argv) : undefined;
    },
  },
};
