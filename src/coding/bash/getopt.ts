// Option parsing the way GNU getopt_long reads argv, so the analyser sees what the program sees:
// options anywhere (GNU permutes argv: `sed -n 1p f -i` still means -i), bundled short flags
// (`-ni`), attached values (`-ob64.txt`, `--out=x`), unique prefixes of long options
// (`--out` is `--output`), and `--` ending options.
import type { Word } from './types.js';

export type OptKind = 'flag' | 'value' | 'optional' | 'lastarg';

export interface OptionSpec {
  /** getopt optstring: `n:` takes a value, `i::` takes an optional attached value. */
  short?: string;
  /**
   * Long names: `name`, `name=` (value), `name=?` (optional value, only as `--name=v`), `name=+`
   * (git's last-arg default: takes the next argument unless it is missing or starts with `-`).
   */
  long?: readonly string[];
  /** Options after the first operand are operands (POSIX / BSD style). Default: GNU permutation. */
  posix?: boolean;
  /** `-20` means a count (head, tail). */
  numeric?: boolean;
  /** clap and lexopt parsers (ripgrep, fd) read `-f=VALUE` as the value `VALUE`, without the `=`. */
  equalsValue?: boolean;
}

export interface ParsedOption {
  /** `-x` for a short option, `--name` for a long one (full name, even when abbreviated). */
  key: string;
  value?: Word;
  /** The word that carried the option, for messages. */
  word: Word;
}

/** `optionsEnd`: the index in args of the `--` that ended the options, or -1. */
export type Parsed = { ok: true; options: ParsedOption[]; operands: Word[]; optionsEnd: number } | { ok: false; reason: string };

interface Compiled {
  short: Map<string, OptKind>;
  long: Map<string, OptKind>;
}

const cache = new WeakMap<OptionSpec, Compiled>();

function compile(spec: OptionSpec): Compiled {
  const hit = cache.get(spec);
  if (hit) return hit;
  const short = new Map<string, OptKind>();
  const s = spec.short ?? '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (s[i + 1] === ':' && s[i + 2] === ':') {
      short.set(c, 'optional');
      i += 2;
    } else if (s[i + 1] === ':') {
      short.set(c, 'value');
      i += 1;
    } else {
      short.set(c, 'flag');
    }
  }
  const long = new Map<string, OptKind>();
  for (const l of spec.long ?? []) {
    if (l.endsWith('=?')) long.set(l.slice(0, -2), 'optional');
    else if (l.endsWith('=+')) long.set(l.slice(0, -2), 'lastarg');
    else if (l.endsWith('=')) long.set(l.slice(0, -1), 'value');
    else long.set(l, 'flag');
  }
  const compiled = { short, long };
  cache.set(spec, compiled);
  return compiled;
}

/** Exact name, else the unique known name it abbreviates (getopt_long and git both accept these). */
export function resolveLong(names: Iterable<string>, given: string): string | string[] | undefined {
  const matches: string[] = [];
  for (const name of names) {
    if (name === given) return name;
    if (name.startsWith(given)) matches.push(name);
  }
  if (matches.length === 1) return matches[0];
  return matches.length > 1 ? matches : undefined;
}

export function getopt(args: readonly Word[], spec: OptionSpec): Parsed {
  const { short, long } = compile(spec);
  const options: ParsedOption[] = [];
  const operands: Word[] = [];
  let onlyOperands = false;
  let optionsEnd = -1;
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    const v = word.value;
    if (onlyOperands || v === '-' || !v.startsWith('-')) {
      operands.push(word);
      if (spec.posix) onlyOperands = true;
      continue;
    }
    if (v === '--') {
      onlyOperands = true;
      optionsEnd = i;
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const given = eq < 0 ? v.slice(2) : v.slice(2, eq);
      const name = resolveLong(long.keys(), given);
      if (name === undefined) return { ok: false, reason: `\`${v}\` is an option the analyser does not know` };
      if (Array.isArray(name)) {
        return { ok: false, reason: `\`--${given}\` is ambiguous (${name.map((n) => `--${n}`).join(', ')})` };
      }
      const kind = long.get(name);
      const key = `--${name}`;
      if (kind === 'flag') {
        if (eq >= 0) return { ok: false, reason: `\`${key}\` takes no value` };
        options.push({ key, word });
      } else if (eq >= 0) {
        options.push({ key, word, value: { ...word, value: v.slice(eq + 1) } });
      } else if (kind === 'value') {
        const next = args[++i];
        if (!next) return { ok: false, reason: `\`${key}\` needs a value` };
        options.push({ key, word, value: next });
      } else if (kind === 'lastarg' && args[i + 1] && !args[i + 1].value.startsWith('-')) {
        options.push({ key, word, value: args[++i] });
      } else {
        options.push({ key, word });
      }
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(v)) {
      options.push({ key: '-NUM', word, value: { ...word, value: v.slice(1) } });
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j];
      const kind = short.get(c);
      const key = `-${c}`;
      if (kind === undefined) return { ok: false, reason: `\`${key}\` is an option the analyser does not know` };
      if (kind === 'flag') {
        options.push({ key, word });
        continue;
      }
      const rest = spec.equalsValue && v[j + 1] === '=' ? v.slice(j + 2) : v.slice(j + 1);
      if (rest !== '' || kind === 'optional') {
        options.push({ key, word, ...(rest !== '' ? { value: { ...word, value: rest } } : {}) });
      } else {
        const next = args[++i];
        if (!next) return { ok: false, reason: `\`${key}\` needs a value` };
        options.push({ key, word, value: next });
      }
      break;
    }
  }
  return { ok: true, options, operands, optionsEnd };
}
