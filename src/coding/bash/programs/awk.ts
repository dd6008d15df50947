// awk: the program text is scanned for what can write, run commands or read other files:
// system(), getline, pipes (`|`), output redirection in print/printf, ARGV edits, ENVIRON and gawk's
// `@` directives. Strings, comments and regex literals are skipped. A `/` after an operand is read
// as division, so regex text is scanned as code (stricter); where awk could still read it as a
// regex (`if (x) /re/`), the text it would cover must not hold `"` or `#`, which would make the
// scan skip code. A regex whose end differs between awks (`/` inside `[…]`) is refused.
import type { ProgramSpec } from '../program.js';
import { optionValues } from '../program.js';

const FORBIDDEN_NAMES: Record<string, string> = {
  system: '`system()` runs a shell command',
  getline: '`getline` can read other files or command output',
  ARGV: 'changing `ARGV` makes awk read other files',
  ARGC: 'changing `ARGC` makes awk read other files',
  ENVIRON: '`ENVIRON` exposes the environment, which may hold secrets',
};

/** Keywords after which awk expects an expression, so a `/` there starts a regex. */
const BEFORE_EXPRESSION = new Set(['print', 'printf', 'return', 'case', 'do', 'else', 'exit', 'in']);

/** Index of the `/` closing a regex that starts after `start`, or -1; `brackets`: `/` inside `[…]` does not close it. */
function regexEnd(src: string, start: number, brackets: boolean): number {
  let inBracket = false;
  for (let i = start + 1; i < src.length && src[i] !== '\n'; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (brackets && !inBracket && c === '[') {
      inBracket = true;
      if (src[i + 1] === '^') i++;
      if (src[i + 1] === ']') i++;
    } else if (inBracket && c === ']') inBracket = false;
    else if (c === '/' && !inBracket) return i;
  }
  return -1;
}

/** Undefined when the awk program only computes and prints to standard output. */
export function checkAwkProgram(src: string): string | undefined {
  let depth = 0;
  let printDepth = -1;
  // True when the previous token ends an operand, so `/` means division.
  let afterOperand = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\' && src[i + 1] === '\n') {
      // A line continuation is blank: it does not end the statement.
      i++;
      continue;
    }
    if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
      afterOperand = true;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/') {
      const end = regexEnd(src, i, false);
      const wideEnd = regexEnd(src, i, true);
      if (!afterOperand) {
        if (end < 0) return 'the awk program has an unterminated regex';
        if (end !== wideEnd) return 'a `/` inside `[…]` ends the regex in some awks and not in others';
        i = end;
        continue;
      }
      if (/["#]/.test(src.slice(i + 1, Math.max(end, wideEnd, i)))) {
        return '`/` here may start a regex holding `"` or `#`, which the analyser cannot place';
      }
      afterOperand = false;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))?.[0] ?? c;
      const why = Object.hasOwn(FORBIDDEN_NAMES, word) ? FORBIDDEN_NAMES[word] : undefined;
      if (why) return why;
      if (word === 'print' || word === 'printf') printDepth = depth;
      i += word.length - 1;
      afterOperand = !BEFORE_EXPRESSION.has(word);
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
    afterOperand = c === ')' || c === ']';
  }
  return undefined;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

// Options are read anywhere (as with GNU permutation), the stricter reading of argv.
const AWK: ProgramSpec = {
  short: 'F:v:f:e:i:l:E:d::o::p::bcCDgLMNnOPrsStV',
  long: [
    'field-separator=',
    'assign=',
    'file=',
    'source=',
    'include=',
    'load=',
    'exec=',
    'sandbox',
    'posix',
    'traditional',
    're-interval',
    'characters-as-bytes',
  ],
  alias: {
    '--file': '-f',
    '--source': '-e',
    '--include': '-i',
    '--load': '-l',
    '--exec': '-E',
    '--field-separator': '-F',
    '--assign': '-v',
  },
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
