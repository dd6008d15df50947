// The per-program model: which options a read-only program accepts, which of them are unsafe,
// which arguments are file paths, and extra checks a program needs (sed scripts, git subcommands).
import { getopt, type OptionSpec, type ParsedOption } from './getopt.js';
import path from 'node:path';
import { checkPath, isInside, secretBelowProblem, substitutedInView } from './paths.js';
import { readsEveryFileBelow, uncontainedOptionProblem } from './programs/core.js';
import type { PathScope, Word } from './types.js';

export interface Invocation {
  name: string;
  args: readonly Word[];
  options: readonly ParsedOption[];
  operands: readonly Word[];
}

export interface ProgramContext {
  scope: PathScope;
  /** Analyse a wrapped command (argv after a wrapper such as timeout); returns why it is not read-only. */
  runArgv(words: readonly Word[]): string | undefined;
  /** Analyse a shell script given as a string (`sh -c '…'`). */
  runScript(script: string): string | undefined;
  /** The spec of the program a command word names, if it is a known read-only program. */
  program(word: Word): ProgramSpec | undefined;
  /** Records that git runs from this scope's folders, so their repositories' config is checked before it runs. */
  gitRunsIn(scope: PathScope): void;
}

export interface ProgramSpec extends OptionSpec {
  /** Maps option keys to one canonical key (`--regexp` → `-e`), applied before the lookups below. */
  alias?: Readonly<Record<string, string>>;
  /** Options that make the program write, execute or reach the network: key → why. */
  unsafe?: Readonly<Record<string, string>>;
  /** Options whose value is a file path. */
  pathOptions?: readonly string[];
  /** Operands: file paths (default), plain data, or chosen by `paths`. */
  operands?: 'paths' | 'data';
  /** Picks the operands that are paths when only some are (grep's pattern is not). */
  paths?: (inv: Invocation) => readonly Word[];
  maxOperands?: { count: number; why: string };
  /** Reads names and metadata of its path operands, never their contents, so secret names are fine. */
  metadata?: boolean;
  /** Every argument is data, so run-time expansions are harmless (echo, test). */
  dynamicArgs?: boolean;
  /** The program parses no options at all. */
  noOptions?: boolean;
  /** Further checks; returns why the call is not read-only. */
  check?: (inv: Invocation, ctx: ProgramContext) => string | undefined;
  /**
   * Project config files the program (or a version-manager shim standing in for it) reads from
   * its folder and the folders above: where one exists inside the workspace, the repository
   * decides what the program does (registries, cache and log folders, tools to install), so the
   * call is not read-only.
   */
  configFiles?: readonly string[];
}

/** The first of `names` that exists in a folder the command runs in or above it, up to its workspace root. */
function projectConfig(names: readonly string[], scope: PathScope): string | undefined {
  for (const cwd of [scope.cwd, ...(scope.otherCwds ?? [])]) {
    const root = scope.roots.find((r) => isInside(cwd, [r]));
    for (let dir = cwd; root !== undefined; dir = path.posix.dirname(dir)) {
      const found = names.find((name) => scope.view.kind(`${dir}/${name}`) !== undefined);
      if (found) return `${dir}/${found}`;
      if (dir === root || dir === '/') break;
    }
  }
  return undefined;
}

export function hasOption(inv: Invocation, ...keys: string[]): boolean {
  return inv.options.some((o) => keys.includes(o.key));
}

export function optionValues(inv: Invocation, ...keys: string[]): Word[] {
  return inv.options.filter((o) => keys.includes(o.key) && o.value).map((o) => o.value as Word);
}

/** Undefined when this call of a known program is read-only. */
export function runProgram(name: string, spec: ProgramSpec, args: readonly Word[], ctx: ProgramContext): string | undefined {
  const parsed = spec.noOptions ? undefined : getopt(args, spec);
  // After `--` a getopt parser reads every word as an operand, whatever a glob expands to.
  const end = parsed?.ok ? parsed.optionsEnd : -1;
  for (const [k, arg] of args.entries()) {
    if (arg.brace) return `brace expansion in \`${arg.text}\` turns one word into several`;
    // Contained, a substituted word can only make a program without further checks (no embedded
    // program, no subcommands) read what the view holds, or fail.
    if (arg.dynamic && !arg.procSub && !spec.dynamicArgs && !(substitutedInView(arg, ctx.scope) && !spec.check)) {
      return `\`${arg.text}\` is only known when the command runs, so \`${name}\` may get any argument`;
    }
    // A file named `--files0-from=list` or `-f.env` turns the glob into an option whose value was
    // never checked; programs that only print names and metadata read nothing through such values.
    if (arg.leadingGlob && (end < 0 || k < end) && (spec.unsafe || spec.check || (spec.pathOptions?.length && !spec.metadata))) {
      return `glob \`${arg.text}\` may expand to a file name that \`${name}\` reads as an option`;
    }
  }
  let options: ParsedOption[] = [];
  let operands: Word[] = [...args];
  if (parsed) {
    if (!parsed.ok) return `${name}: ${parsed.reason}`;
    options = parsed.options.map((o) => ({ ...o, key: spec.alias?.[o.key] ?? o.key }));
    operands = parsed.operands;
  }
  for (const o of options) {
    const why = spec.unsafe?.[o.key] ?? (ctx.scope.contained ? undefined : uncontainedOptionProblem(name, o.key));
    if (why) return `\`${name} ${o.word.text}\` ${why}`;
  }
  const config = spec.configFiles && projectConfig(spec.configFiles, ctx.scope);
  if (config) return `\`${name}\` reads ${config}, which the repository controls and which can make it write, run or download things`;
  if (spec.maxOperands && operands.length > spec.maxOperands.count) return `\`${name}\`: ${spec.maxOperands.why}`;
  const inv: Invocation = { name, args, options, operands };
  for (const o of options) {
    if (o.value && spec.pathOptions?.includes(o.key)) {
      const problem = checkPath(o.value, ctx.scope);
      if (problem) return problem;
    }
  }
  const pathOperands = spec.paths ? spec.paths(inv) : spec.operands === 'data' ? [] : operands;
  for (const w of pathOperands) {
    const problem = checkPath(w, ctx.scope, !spec.metadata);
    if (problem) return problem;
  }
  // Contained, the view hides the secrets below; alone, the analyser must look for them.
  if (!ctx.scope.contained && readsEveryFileBelow(name, options)) {
    const problem = secretBelowProblem(name, pathOperands, ctx.scope);
    if (problem) return problem;
  }
  return spec.check?.(inv, ctx);
}
