// sed: options as GNU sed reads them, and a scan of the script for commands that write (w, W,
// s///w), read other files (r, R) or execute (e, s///e). Where GNU sed and this scan could
// disagree (label and text ends), the scan stops early, so it sees more commands, never fewer.
import { optionValues, type ProgramSpec } from '../program.js';

const NO_ARGS = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
const UNSAFE: Record<string, string> = {
  w: 'writes a file',
  W: 'writes a file',
  r: 'reads a file named in the script',
  R: 'reads a file named in the script',
  e: 'runs a shell command',
};

/** Index after a delimited part (regex or replacement) that starts at i, or -1 if unterminated. */
function skipDelimited(s: string, i: number, delim: string): number {
  for (; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === delim) return i + 1;
  }
  return -1;
}

/** Index after one address (a regex address includes its GNU `I`/`M` flags), or -1. */
function skipAddress(s: string, i: number): number {
  const regexEnd =
    s[i] === '/' ? skipDelimited(s, i + 1, '/') : s[i] === '\\' && i + 1 < s.length ? skipDelimited(s, i + 2, s[i + 1]) : undefined;
  if (regexEnd !== undefined) {
    let j = regexEnd;
    while (j > 0 && j < s.length && (s[j] === 'I' || s[j] === 'M')) j++;
    return j;
  }
  const m = /^(\d+(~\d+)?|\$|[+~]\d+)/.exec(s.slice(i));
  return m ? i + m[0].length : i;
}

/** Undefined when the script only prints, deletes, substitutes and branches. */
export function checkSedScript(script: string): string | undefined {
  const s = script;
  let i = 0;
  const skipBlank = (): void => {
    while (i < s.length && /[ \t]/.test(s[i])) i++;
  };
  while (i < s.length) {
    if (/[\s;}{]/.test(s[i])) {
      i++;
      continue;
    }
    if (s[i] === '#') {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    const a1 = skipAddress(s, i);
    if (a1 < 0) return 'the sed script has an unterminated address';
    i = a1;
    if (s[i] === ',') {
      const a2 = skipAddress(s, i + 1);
      if (a2 < 0) return 'the sed script has an unterminated address';
      i = a2;
    }
    skipBlank();
    while (s[i] === '!') {
      i++;
      skipBlank();
    }
    const c = s[i++];
    if (c === undefined) return undefined;
    if (UNSAFE[c]) return `sed command \`${c}\` ${UNSAFE[c]}`;
    if (c === '{' || c === '}' || c === ';' || c === '\n') continue;
    if (NO_ARGS.has(c)) continue;
    if ('qQlL'.includes(c)) {
      skipBlank();
      while (i < s.length && /\d/.test(s[i])) i++;
      continue;
    }
    if (':btTv'.includes(c)) {
      // GNU sed ends a label (and v's version) at blanks, `;` or a newline; more commands may follow.
      skipBlank();
      while (i < s.length && !/[\s;]/.test(s[i])) i++;
      continue;
    }
    if ('aic'.includes(c)) {
      // GNU one-liner or `a\` text: it runs to the end of the line; `\` at the end continues it.
      for (; i < s.length && s[i] !== '\n'; i++) if (s[i] === '\\') i++;
      continue;
    }
    if (c === 's' || c === 'y') {
      const delim = s[i];
      if (delim === undefined || delim === '\n' || delim === '\\') return `sed \`${c}\` command has no delimiter`;
      const afterPattern = skipDelimited(s, i + 1, delim);
      const end = afterPattern < 0 ? -1 : skipDelimited(s, afterPattern, delim);
      if (end < 0) return `sed \`${c}\` command is unterminated`;
      i = end;
      if (c === 'y') continue;
      const flags = /^[0-9gpiImMew]*/.exec(s.slice(i))?.[0] ?? '';
      if (flags.includes('w')) return 'sed `s///w` writes a file';
      if (flags.includes('e')) return 'sed `s///e` runs the pattern space as a shell command';
      i += flags.length;
      continue;
    }
    return `sed command \`${c}\` is not one the analyser knows`;
  }
  return undefined;
}

export const SED: Record<string, ProgramSpec> = {
  sed: {
    short: 'nrsuzEbe:f:l:i::',
    long: [
      'quiet',
      'silent',
      'expression=',
      'file=',
      'follow-symlinks',
      'in-place=?',
      'line-length=',
      'null-data',
      'zero-terminated',
      'posix',
      'regexp-extended',
      'separate',
      'sandbox',
      'unbuffered',
      'debug',
      'binary',
    ],
    alias: { '--expression': '-e', '--file': '-f', '--in-place': '-i', '--quiet': '-n', '--silent': '-n' },
    unsafe: { '-i': 'edits files in place', '-f': 'runs a script from a file the analyser cannot check' },
    paths: (inv) => (optionValues(inv, '-e').length ? inv.operands : inv.operands.slice(1)),
    check: (inv) => {
      const scripts = optionValues(inv, '-e');
      const all = scripts.length ? scripts : inv.operands.slice(0, 1);
      if (all.length === 0) return '`sed` without a script';
      for (const w of all) {
        const problem = checkSedScript(w.value);
        if (problem) return problem;
      }
      return undefined;
    },
  },
};
