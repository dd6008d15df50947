// awk: the program text is scanned for what can write, run commands or read other files:
// system(), getline, pipes (`|`), output redirection in print/printf, ARGV edits and gawk's
// `@` directives. Strings and regex literals are skipped; when `/` could be division or a regex,
// it is read as division, so regex text is scanned as code (stricter), never the reverse.
import type { ProgramSpec } from '../program.js';
import { optionValues } from '../program.js';

const FORBIDDEN_NAMES: Record<string, string> = {
  system: '`system()` runs a shell command',
  getline: '`getline` can read other files or command output',
  ARGV: 'changing `ARGV` makes awk read other files',
  ARGC: 'changing `ARGC` makes awk read other files',
};

/** Undefined when the awk program only computes and prints to standard output. */
export function checkAwkProgram(src: string): string | undefined {
  let depth = 0;
  let printDepth = -1;
  // True when the previous token ends an operand, so `/` means division.
  let afterOperand = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
      afterOperand = true;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && !afterOperand) {
      for (i++; i < src.length && src[i] !== '/' && src[i] !== '\n'; i++) if (src[i] === '\\') i++;
      afterOperand = true;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))?.[0] ?? c;
      const why = FORBIDDEN_NAMES[word];
      if (why) return why;
      if (word === 'print' || word === 'printf') printDepth = depth;
      i += word.length - 1;
      afterOperand = true;
      continue;
    }
    if (/[0-9.]/.test(c)) {
      afterOperand = true;
      continue;
    }
    if (c === '@') return 'gawk `@` directives and indirect calls can load code';
    if (c === '|') {
      if (src[i + 1] === '|') {
        i++;
        afterOperand = false;
        continue;
      }
      return '`|` in awk pipes to or from a command';
    }
    if (c === '>' && printDepth === depth) return 'print/printf with `>` writes a file';
    if (c === '(' || c === '[') depth++;
    if (c === ')' || c === ']') depth--;
    if (c === ';' || c === '\n' || c === '{' || c === '}') printDepth = -1;
    if (c === '+' || c === '-') {
      // `i++ / 2`: after an increment the next `/` divides.
      if (src[i + 1] === c && afterOperand) {
        i++;
        continue;
      }
    }
    if (/\s/.test(c)) continue;
    afterOperand = c === ')' || c === ']' || c === '$';
  }
  return undefined;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

// Options are read anywhere (as with GNU permutation), the stricter reading of argv.
const AWK: ProgramSpec = {
  short: 'F:v:f:e:i:l:E:d::o::p::bcCDgLMNnOPrsStV',
  long: ['field-separator=', 'assign=', 'file=', 'source=', 'include=', 'load=', 'exec=', 'sandbox', 'posix', 'traditional', 're-interval', 'characters-as-bytes'],
  alias: { '--file': '-f', '--source': '-e', '--include': '-i', '--load': '-l', '--exec': '-E', '--field-separator': '-F', '--assign': '-v' },
  unsafe: {
    '-f': 'runs a program file the analyser cannot check',
    '-E': 'runs a program file the analyser cannot check',
    '-i': 'includes a library file the analyser cannot check',
    '-l': 'loads a compiled extension',
    '-d': 'writes a variable dump file',
    '-o': 'writes a pretty-printed program file',
    '-p': 'writes a profile file',
    '-D': 'starts the interactive debugger',
  },
  // The program is the first operand unless given with -e; `var=value` operands are assignments.
  paths: (inv) => (optionValues(inv, '-e').length ? inv.operands : inv.operands.slice(1)).filter((w) => !ASSIGNMENT.test(w.value)),
  check: (inv) => {
    const sources = optionValues(inv, '-e');
    const programs = sources.length ? sources : inv.operands.slice(0, 1);
    if (programs.length === 0) return '`awk` without a program';
    for (const p of programs) {
      const problem = checkAwkProgram(p.value);
      if (problem) return `awk: ${problem}`;
    }
    return undefined;
  },
};

export const AWKS: Record<string, ProgramSpec> = { awk: AWK, gawk: AWK, mawk: AWK, nawk: AWK };
