// find: start points, then an expression of primaries. Names and metadata only, except
// `-exec CMD {} +` / `-exec CMD {} ;`, which is read-only when CMD is, judged with `{}` standing
// for the files find passes: `START/PATTERN` for each start point, PATTERN being the `-name`
// test before it (otherwise any name); only in a plain conjunction (no -o, -not, groups). Two of them stand for `+` (many files), so
// an operand limit counts right. What find passes is not known until it walks, so the command is
// refused where a walked name could mislead it: a symlink below a start point (find passes the
// link, the command follows it), Read deny rules (files they cover may be among the names), and
// `-L`/`-follow` (the walk itself follows links).
import { checkPath } from '../paths.js';
import type { ProgramContext, ProgramSpec } from '../program.js';
import type { PathScope, Word } from '../types.js';

/** find's expression: primaries and how many arguments each takes. */
const FIND_PRIMARIES: Record<string, 0 | 1 | 'path'> = {
  '-print': 0,
  '-print0': 0,
  '-ls': 0,
  '-quit': 0,
  '-true': 0,
  '-false': 0,
  '-not': 0,
  '!': 0,
  '-a': 0,
  '-and': 0,
  '-o': 0,
  '-or': 0,
  '(': 0,
  ')': 0,
  ',': 0,
  '-prune': 0,
  '-depth': 0,
  '-d': 0,
  '-follow': 0,
  '-xdev': 0,
  '-mount': 0,
  '-noleaf': 0,
  '-daystart': 0,
  '-empty': 0,
  '-readable': 0,
  '-writable': 0,
  '-executable': 0,
  '-nouser': 0,
  '-nogroup': 0,
  '-ignore_readdir_race': 0,
  '-noignore_readdir_race': 0,
  '-name': 1,
  '-iname': 1,
  '-path': 1,
  '-ipath': 1,
  '-wholename': 1,
  '-iwholename': 1,
  '-regex': 1,
  '-iregex': 1,
  '-lname': 1,
  '-ilname': 1,
  '-type': 1,
  '-xtype': 1,
  '-size': 1,
  '-mtime': 1,
  '-mmin': 1,
  '-atime': 1,
  '-amin': 1,
  '-ctime': 1,
  '-cmin': 1,
  '-used': 1,
  '-perm': 1,
  '-user': 1,
  '-group': 1,
  '-uid': 1,
  '-gid': 1,
  '-links': 1,
  '-inum': 1,
  '-maxdepth': 1,
  '-mindepth': 1,
  '-fstype': 1,
  '-regextype': 1,
  '-printf': 1,
  '-context': 1,
  '-newer': 'path',
  '-anewer': 'path',
  '-cnewer': 'path',
  '-samefile': 'path',
};
const FIND_UNSAFE: Record<string, string> = {
  '-execdir': 'runs a command',
  '-ok': 'runs a command',
  '-okdir': 'runs a command',
  '-delete': 'deletes files',
  '-fprint': 'writes to a file',
  '-fprint0': 'writes to a file',
  '-fprintf': 'writes to a file',
  '-fls': 'writes to a file',
  // The list file is checked, but the starting points named in it are not: they may be anywhere.
  '-files0-from': 'walks the folders named in a list file, which may be outside the workspace',
};

/** Folders and entries visited looking for symlinks below a start point before giving up (~3 ms for 10,000). */
const MAX_WALK_ENTRIES = 10_000;

/** Whether some symlink lies below `dir` (or the walk is too big to tell). */
function linkBelow(dir: string, scope: PathScope, budget: { left: number }): boolean {
  const entries = scope.view.list(dir);
  if (entries === undefined) return scope.view.kind(dir) !== undefined && scope.view.kind(dir) !== 'file';
  for (const entry of entries) {
    if (--budget.left < 0 || entry.kind === 'link' || entry.kind === 'other') return true;
    if (entry.kind === 'dir' && linkBelow(`${dir}/${entry.name}`, scope, budget)) return true;
  }
  return false;
}

/** The names find would pass as `{}`, as words the exec'd command is judged with. */
function placeholders(starts: readonly Word[], names: readonly string[], count: number): Word[] {
  const name = names.length === 1 ? names[0] : '*';
  const roots = starts.length > 0 ? starts : [{ value: '.', text: '.' } as Word];
  return roots.flatMap((start) =>
    Array.from({ length: count }, () => {
      const value = `${start.value.replace(/\/+$/, '')}/${name}`;
      return { ...start, text: value, value, pattern: value, plain: false, glob: false, leadingGlob: false, dynamic: false };
    }),
  );
}

/** `-exec CMD… {} +|;` starting at args[at]: why it is not read-only, and where the expression goes on. */
function checkExec(args: readonly Word[], at: number, expr: ExprFacts, ctx: ProgramContext): { why?: string; next: number } {
  let end = at + 1;
  while (end < args.length && !(args[end].value === ';' || (args[end].value === '+' && args[end - 1].value === '{}'))) end++;
  if (end >= args.length) return { why: '`find -exec` without `;` or `{} +`', next: end };
  if (expr.follows) return { why: '`find -exec` with -L or -follow runs the command on files outside the workspace', next: end };
  if (ctx.scope.readDenied) return { why: '`find -exec` may pass the command files that Read deny rules cover', next: end };
  const budget = { left: MAX_WALK_ENTRIES };
  const starts = expr.starts.length > 0 ? expr.starts.map((s) => s.value) : ['.'];
  for (const start of starts) {
    for (const cwd of [ctx.scope.cwd, ...(ctx.scope.otherCwds ?? [])]) {
      if (linkBelow(start.startsWith('/') ? start : `${cwd}/${start}`, ctx.scope, budget)) {
        return {
          why: `\`find -exec\`: \`${start}\` holds symbolic links (or too many files to check), which the command would follow`,
          next: end,
        };
      }
    }
  }
  const plus = args[end].value === '+';
  const argv: Word[] = [];
  for (const w of args.slice(at + 1, plus ? end - 1 : end)) {
    if (w.value.includes('{}') && w.value !== '{}') return { why: `\`find -exec\`: \`${w.text}\` has \`{}\` inside a word`, next: end };
    argv.push(...(w.value === '{}' ? placeholders(expr.starts, expr.names, 1) : [w]));
  }
  if (plus) argv.push(...placeholders(expr.starts, expr.names, 2));
  if (argv.length === 0) return { why: '`find -exec` without a command', next: end };
  return { why: ctx.runArgv(argv), next: end };
}

interface ExprFacts {
  starts: Word[];
  /** The `-name` patterns of a plain conjunction; empty when the names are not narrowed. */
  names: string[];
  follows: boolean;
}

/** find prints names and metadata only (no primary reads contents), so secret names are fine. */
function checkFind(args: readonly Word[], ctx: ProgramContext): string | undefined {
  const scope = ctx.scope;
  let i = 0;
  const expr: ExprFacts = { starts: [], names: [], follows: false };
  // Leading options: -H -L -P, -D debugopts, -Olevel.
  for (; i < args.length && /^-([HLP]|D|O\d*)$/.test(args[i].value); i += args[i].value === '-D' ? 2 : 1) {
    if (args[i].value === '-L') expr.follows = true;
  }
  for (; i < args.length && !/^[-(!),]/.test(args[i].value); i++) {
    const problem = checkPath(args[i], scope, false);
    if (problem) return problem;
    expr.starts.push(args[i]);
  }
  let plain = true;
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (v === '-exec') {
      // After `-o`, `!` or a group, which files reach the command depends on the whole expression.
      if (!plain) return '`find -exec` inside an expression with -o, -not or groups';
      const exec = checkExec(args, i, expr, ctx);
      if (exec.why) return exec.why;
      i = exec.next;
      continue;
    }
    const unsafe = FIND_UNSAFE[v];
    if (unsafe) return `\`find ${v}\` ${unsafe}`;
    if (['-o', '-or', ',', '!', '-not', '(', ')'].includes(v)) plain = false;
    if (v === '-follow') expr.follows = true;
    // -newerXY: Y = t means a time string, otherwise a reference file.
    const newer = /^-newer[aBcm]([aBcmt])$/.exec(v);
    const kind = newer ? (newer[1] === 't' ? 1 : 'path') : FIND_PRIMARIES[v];
    if (kind === undefined) return `\`find ${v}\` is not a test the analyser knows`;
    if (kind === 0) continue;
    const arg = args[++i];
    if (!arg) return `\`find ${v}\` needs a value`;
    if (v === '-name' || v === '-iname') expr.names.push(arg.value);
    if (kind === 'path') {
      const problem = checkPath(arg, scope, false);
      if (problem) return problem;
    }
  }
  return undefined;
}

export const FIND: Record<string, ProgramSpec> = {
  find: { noOptions: true, operands: 'data', check: (inv, ctx) => checkFind(inv.args, ctx) },
};
