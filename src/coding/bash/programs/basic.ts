// Programs whose arguments are data, not files: printing, identity, time, names.
import { isSecretVariable } from '../expansions.js';
import type { Invocation, ProgramContext, ProgramSpec } from '../program.js';
import { isSecretValue } from '../secrets.js';

const data = (spec: ProgramSpec = {}): ProgramSpec => ({ operands: 'data', ...spec });
const none = (spec: ProgramSpec = {}): ProgramSpec => ({ ...spec, maxOperands: { count: 0, why: 'takes no operands' } });

/** Plain decimal numbers only: `inf`, `infinity` or a huge exponent would never end. */
const finite =
  (name: string) =>
  (inv: Invocation): string | undefined => {
    const bad = inv.operands.find((w) => !/^[-+]?\d{1,9}(\.\d*)?[smhd]?$/.test(w.value));
    return bad ? `\`${name} ${bad.text}\`: only plain numbers are accepted (this one may never end)` : undefined;
  };

const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

/** GNU sleep adds up its operands; `sleep 999999999d` is a plain number that does not end either. */
const shortSleep = (inv: Invocation): string | undefined => {
  const problem = finite('sleep')(inv);
  if (problem) return problem;
  const total = inv.operands.reduce((sum, w) => {
    const m = /^[-+]?([\d.]+)([smhd]?)$/.exec(w.value);
    return sum + (m ? parseFloat(m[1]) * UNIT_SECONDS[m[2]] : 0);
  }, 0);
  return total > 3600 ? `\`sleep\` for more than an hour is as good as never ending` : undefined;
};

/** Named variables only (all of them may hold secrets), none named or valued like a credential. */
function checkPrintenv(inv: Invocation, ctx: ProgramContext): string | undefined {
  if (inv.operands.length === 0) return '`printenv` prints the whole environment, which may hold secrets';
  for (const w of inv.operands) {
    if (isSecretVariable(w.value) || isSecretValue(ctx.scope.view.env(w.value) ?? '')) return `\`$${w.value}\` may hold a secret`;
  }
  return undefined;
}

/**
 * `cd DIR` into a folder of the workspace (its path checked like any operand); the walk then
 * judges later commands from there too. Refused: no operand or `-` (home, the previous folder),
 * and a relative name while CDPATH is set (bash would look it up there first).
 */
function checkCd(inv: Invocation, ctx: ProgramContext): string | undefined {
  const dir = inv.operands[0];
  if (!dir || dir.value === '-' || dir.value === '') return '`cd` without a folder goes to the home or previous folder';
  if (ctx.scope.view.env('CDPATH') && !/^\.{0,2}(\/|$)/.test(dir.value)) return '`cd` looks the folder up in CDPATH first';
  return undefined;
}

export const BASIC: Record<string, ProgramSpec> = {
  cd: { short: 'LP', maxOperands: { count: 1, why: 'takes one folder' }, check: checkCd },
  echo: { noOptions: true, operands: 'data', dynamicArgs: true },
  true: { noOptions: true, operands: 'data', dynamicArgs: true },
  false: { noOptions: true, operands: 'data', dynamicArgs: true },
  ':': { noOptions: true, operands: 'data', dynamicArgs: true },
  printf: {
    noOptions: true,
    operands: 'data',
    dynamicArgs: true,
    // `printf -v name` assigns a shell variable; a run-time format could turn into -v.
    check: (inv) => {
      const first = inv.args[0];
      if (first && (first.dynamic || first.value.startsWith('-v'))) return '`printf -v` assigns a shell variable';
      return undefined;
    },
  },
  test: {
    noOptions: true,
    operands: 'data',
    dynamicArgs: true,
    check: (inv) =>
      inv.args.some((w) => w.dynamic || w.value === '-v' || w.value === '-R')
        ? '`test -v` evaluates array subscripts, which can run commands'
        : undefined,
  },
  pwd: none({ short: 'LP' }),
  whoami: none(),
  id: data({ short: 'agGnruzZ', long: ['context', 'group', 'groups', 'name', 'real', 'user', 'zero'] }),
  groups: data(),
  uname: none({
    short: 'asnrvmpio',
    long: [
      'all',
      'kernel-name',
      'nodename',
      'kernel-release',
      'kernel-version',
      'machine',
      'processor',
      'hardware-platform',
      'operating-system',
    ],
  }),
  hostname: {
    short: 'adfiIsAy',
    long: ['alias', 'domain', 'fqdn', 'long', 'ip-address', 'all-ip-addresses', 'short', 'all-fqdns', 'nis'],
    maxOperands: { count: 0, why: 'an operand sets the host name' },
  },
  arch: none(),
  nproc: none({ long: ['all', 'ignore='] }),
  uptime: none({ short: 'ps', long: ['pretty', 'since'] }),
  date: {
    short: 'd:f:r:s:uRI::',
    operands: 'data',
    long: ['date=', 'file=', 'reference=', 'set=', 'utc', 'universal', 'rfc-email', 'iso-8601=?', 'rfc-3339=', 'debug', 'resolution'],
    alias: { '--date': '-d', '--file': '-f', '--reference': '-r', '--set': '-s' },
    unsafe: { '-s': 'sets the system clock' },
    pathOptions: ['-f', '-r'],
    check: (inv) =>
      inv.operands.some((w) => !w.value.startsWith('+')) ? 'an operand that is not +FORMAT sets the system clock' : undefined,
  },
  seq: data({ short: 'f:s:w', long: ['format=', 'separator=', 'equal-width'], check: finite('seq') }),
  sleep: data({ check: shortSleep }),
  expr: { noOptions: true, operands: 'data' },
  locale: data({ short: 'amckv', long: ['all-locales', 'charmaps', 'category-name', 'keyword-name', 'verbose'] }),
  tty: none({ short: 's', long: ['silent', 'quiet'] }),
  getconf: data({ short: 'a', long: ['all'] }),
  // Names only: a run-time value (`basename "$PWD"`) is printed, never opened.
  basename: data({ short: 'as:z', long: ['multiple', 'suffix=', 'zero'], dynamicArgs: true }),
  dirname: data({ short: 'z', long: ['zero'], dynamicArgs: true }),
  printenv: data({ short: '0', long: ['null'], check: checkPrintenv }),
  numfmt: data({
    short: 'd:z',
    long: [
      'debug',
      'delimiter=',
      'field=',
      'format=',
      'from=',
      'from-unit=',
      'grouping',
      'header=?',
      'invalid=',
      'padding=',
      'round=',
      'suffix=',
      'unit-separator=',
      'to=',
      'to-unit=',
      'zero-terminated',
    ],
  }),
  type: data({ short: 'afptP' }),
  which: data({ short: 'as' }),
  // Prints the mask; a mode operand would change the shell's.
  umask: none({ short: 'pS' }),
  // procps free(1); -s and -c repeat it (for ever, or once a second), so they are left out.
  free: none({
    short: 'bkmghltvw',
    long: [
      'bytes',
      'kilo',
      'mega',
      'giga',
      'tera',
      'peta',
      'kibi',
      'mebi',
      'gibi',
      'tebi',
      'pebi',
      'human',
      'si',
      'lohi',
      'total',
      'committed',
      'wide',
    ],
  }),
  tr: data({ short: 'cCdst', long: ['complement', 'delete', 'squeeze-repeats', 'truncate-set1'] }),
};
