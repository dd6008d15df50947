// One simple command: environment prefix, program name, arguments, and the program's own rules.
import type { Node } from 'web-tree-sitter';
import { isSafeEnvName, isSafeEnvValue } from './env.js';
import { AUDITED_CORE } from './programs/core.js';
import { KNOWN_UNSAFE, PROGRAMS } from './programs/table.js';
import { runProgram, type ProgramContext, type ProgramSpec } from './program.js';
import type { Word } from './types.js';
import { readWord } from './words.js';

/** Standard program folders: `/usr/bin/git` is git, `./git` is a workspace file. */
const SYSTEM_DIR = /^\/(usr\/(local\/)?)?s?bin\/(?=[^/]+$)/;
const NAME = /^([A-Za-z0-9_][A-Za-z0-9_.+-]*|:)$/;

/** Why a variable assignment before a command is not inert, or undefined. */
export function checkEnvAssignment(node: Node): string | undefined {
  const name = node.childForFieldName('name')?.text ?? '';
  const valueNode = node.childForFieldName('value');
  const value = valueNode ? readWord(valueNode) : undefined;
  if (!isSafeEnvName(name)) return `\`${node.text}\` sets \`${name}\`, which can change what the program runs or does`;
  // A tilde expands too: `LANG=~+` is the current folder, a path glibc would load locale files from.
  if (value && (value.dynamic || value.problem || value.tilde)) return `\`${node.text}\` has a value only known at run time`;
  if (value && !isSafeEnvValue(name, value.value)) return `\`${node.text}\` names locale or time zone files to load`;
  return undefined;
}

/** The program a word names, or why it cannot be vetted. */
export function programName(word: Word): { name: string } | { why: string } {
  if (!word.plain) return { why: `command name \`${word.text}\` is built from quotes, escapes or expansions` };
  const name = word.value.replace(SYSTEM_DIR, '');
  if (!NAME.test(name)) return { why: `\`${word.text}\` runs a program that cannot be checked` };
  return { name };
}

export function programSpec(word: Word): ProgramSpec | undefined {
  const resolved = programName(word);
  return 'name' in resolved ? PROGRAMS.get(resolved.name) : undefined;
}

/** Analyses argv[0..] as a command: program name, then that program's rules. */
export function runArgv(argv: readonly Word[], ctx: ProgramContext): string | undefined {
  const [first, ...args] = argv;
  if (!first) return undefined;
  const resolved = programName(first);
  if ('why' in resolved) return resolved.why;
  const spec = PROGRAMS.get(resolved.name);
  if (!spec) {
    // Own keys only: `constructor` is not a program the table describes.
    const why = Object.hasOwn(KNOWN_UNSAFE, resolved.name) ? KNOWN_UNSAFE[resolved.name] : undefined;
    return why ? `\`${resolved.name}\` ${why}` : `\`${resolved.name}\` is not a known read-only program`;
  }
  if (!ctx.scope.contained && !AUDITED_CORE.has(resolved.name)) {
    return `\`${resolved.name}\` runs without asking only where commands are contained, and nothing contains them here`;
  }
  return runProgram(resolved.name, spec, args, ctx);
}

/** Whether the analyser knows `name` as a program that is read-only with some arguments. */
export const isKnownProgram = (name: string): boolean => PROGRAMS.has(name);
