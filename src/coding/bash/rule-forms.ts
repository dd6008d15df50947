// The normalised forms of one simple command that deny and ask rules are matched against, as well
// as its text: `Bash(rm *)` must also stop `/bin/rm x`, `"rm" x`, `FOO=1 rm x`, `rm x 2>/dev/null`,
// `sudo -u root rm x`, `ls | xargs -I{} rm {}`, `find . -exec rm {} \;` and `eval rm x`, and
// `Bash(git push *)` also `git -C . --no-pager push`. Each form is a command the line may run:
// - the program's base name (quotes and escapes removed), then the other words as written,
//   without the assignments and redirections around them;
// - the command a wrapper runs (nohup, exec, sudo, env, xargs, timeout, find -exec, …), in turn;
// - scripts a wrapper runs (`eval`'s words joined, `sh -c`'s string), parsed like the line;
// - for git, npm, docker, kubectl and cargo, the subcommand with the global options before it removed.
// Only deny and ask rules see these forms: they can only make a decision stricter. Allow rules
// never do: an allow `Bash(rm *)` must not allow `/tmp/evil/rm x` because its base name is rm.
// The read-only analysis has its own, exact unwrapping (programs/wrappers.ts), which must fail
// closed; this one over-approximates: an option it does not know is read both as a flag and as
// taking the next word, so an option table out of date gives more forms, never fewer.
import { GLOBAL_OPTIONS, WRAPPERS, type OptionTable, type Wrapper } from './unwrap-table.js';

export interface FormWord {
  /** Source text. */
  readonly text: string;
  /** Value after quote and escape removal. */
  readonly value: string;
}

export interface RuleForms {
  forms: string[];
  /** Why some script inside could not be read (nested too deeply, not parsed): rules cannot be checked. */
  opaque?: string;
}

/** Parses a script (`eval`'s words, `sh -c`'s string) and gives the texts and forms of its commands. */
export type ScriptForms = (script: string) => RuleForms;

/** `/usr/bin/rm` → `rm`; a name with only slashes keeps them. */
const baseName = (value: string): string => value.replace(/^.*\/(?=.)/, '');

/** 1: the option is this word alone; 2: it also takes the next word. */
type Width = 1 | 2;

function longWidths(name: string, table: OptionTable): Width[] {
  if (name.includes('=')) return [1];
  // Abbreviations (`--us` for `--user`) count as every option they may abbreviate.
  const matches = (table.long ?? []).filter((l) => l.replace(/=\??$/, '') === name || l.startsWith(name));
  if (matches.length === 0) return [1, 2];
  const widths = new Set<Width>(matches.map((l) => (l.endsWith('=') ? 2 : 1)));
  return [...widths];
}

function shortWidths(cluster: string, table: OptionTable): Width[] {
  const short = table.short ?? '';
  const widths = new Set<Width>();
  for (let k = 1; k < cluster.length; k++) {
    const at = short.indexOf(cluster[k]);
    const attached = k + 1 < cluster.length;
    if (at < 0 || cluster[k] === ':') {
      // Unknown: maybe it takes a value (the rest, or the next word); maybe it is a flag.
      widths.add(attached ? 1 : 2);
      continue;
    }
    if (short[at + 1] === ':') {
      // A value: the rest of the word, or the next word (an optional value is only ever attached).
      widths.add(attached || short[at + 2] === ':' ? 1 : 2);
      return [...widths];
    }
  }
  widths.add(1);
  return [...widths];
}

function optionWidths(word: string, table: OptionTable): Width[] | undefined {
  const option = (word.startsWith('-') || (table.plus === true && word.startsWith('+'))) && word.length > 1 && word !== '--';
  if (!option) return undefined;
  return word.startsWith('--') ? longWidths(word.slice(2), table) : shortWidths(word, table);
}

export interface Operands {
  /** Where the operands may start (every way of reading the options). */
  starts: number[];
  /** Values of the options named in `valuesOf` (`-S`, `--split-string`). */
  values: string[];
}

/** The value `word` (and the word after it) give the option `name`, if `word` may be that option. */
function optionValue(name: string, word: string, next: string | undefined): string | undefined {
  if (name.startsWith('--')) {
    const eq = word.indexOf('=');
    const given = word.slice(0, eq < 0 ? undefined : eq);
    if (given.length < 3 || !name.startsWith(given)) return undefined;
    return eq < 0 ? next : word.slice(eq + 1);
  }
  // A short option anywhere in a cluster (`-iS'rm x'`): the rest of the word, or the next word.
  const at = word.startsWith('--') ? -1 : word.indexOf(name[1], 1);
  if (at < 0) return undefined;
  return at + 1 < word.length ? word.slice(at + 1) : next;
}

/** Reads options the POSIX way (they stop at the first operand or `--`), every way at once. */
export function operandStarts(words: readonly FormWord[], table: OptionTable, valuesOf: readonly string[] = []): Operands {
  const starts = new Set<number>();
  const values: string[] = [];
  const seen = new Set<number>();
  const queue = [0];
  while (queue.length > 0) {
    const i = queue.pop() as number;
    if (seen.has(i) || i >= words.length) continue;
    seen.add(i);
    const word = words[i].value;
    if (word === '--') {
      starts.add(i + 1);
      continue;
    }
    const widths = optionWidths(word, table);
    if (!widths) {
      starts.add(i);
      continue;
    }
    for (const name of valuesOf) {
      const value = optionValue(name, word, words[i + 1]?.value);
      if (value !== undefined) values.push(value);
    }
    for (const w of widths) queue.push(i + w);
  }
  return { starts: [...starts].sort((a, b) => a - b), values };
}

const join = (name: string, rest: readonly FormWord[]): string => [name, ...rest.map((w) => w.text)].join(' ');

/** `find … -exec cmd … ;` (or `+`): the commands inside, as [start, end) of `words`. */
function findCommands(words: readonly FormWord[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let k = 0; k < words.length; k++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(words[k].value)) continue;
    let end = k + 1;
    while (end < words.length && words[end].value !== ';' && words[end].value !== '+') end++;
    out.push([k + 1, end]);
    k = end;
  }
  return out;
}

/**
 * Forms and nested scripts read for one command. Real commands need a handful; a line built to
 * make thousands (`nohup nohup …`, runs of unknown options) is opaque instead: it asks.
 */
const BUDGET = 64;

/** Every form of the command `argv` (a simple command's words, assignments and redirections left out). */
export function ruleForms(argv: readonly FormWord[], script: ScriptForms): RuleForms {
  if (argv.length === 0) return { forms: [] };
  const first = baseName(argv[0].value);
  // Most commands wrap nothing and take no global options: one form.
  if (!WRAPPERS.has(first) && !GLOBAL_OPTIONS.has(first) && first !== 'find') return { forms: [join(first, argv.slice(1))] };
  const forms = new Set<string>();
  let opaque: string | undefined;
  let spent = 0;
  const afford = (): boolean => {
    if (++spent > BUDGET) opaque ??= 'it nests more commands than the analyser follows';
    return spent <= BUDGET;
  };
  const runScript = (source: string): void => {
    if (!afford()) return;
    const inner = script(source);
    for (const f of inner.forms) forms.add(f);
    opaque ??= inner.opaque;
  };
  const seen = new Set<string>();
  const visit = (start: number, end: number): void => {
    const key = `${start}:${end}`;
    if (start >= end || seen.has(key) || !afford()) return;
    seen.add(key);
    const name = baseName(argv[start].value);
    const rest = argv.slice(start + 1, end);
    forms.add(join(name, rest));
    const global = GLOBAL_OPTIONS.get(name);
    if (global) for (const s of operandStarts(rest, global).starts) if (afford()) forms.add(join(name, rest.slice(s)));
    if (name === 'find') for (const [s, e] of findCommands(rest)) visit(start + 1 + s, start + 1 + e);
    const wrapper = WRAPPERS.get(name);
    if (wrapper) unwrap(wrapper, rest, start + 1, end);
  };
  const unwrap = (wrapper: Wrapper, rest: readonly FormWord[], offset: number, end: number): void => {
    const { starts, values } = operandStarts(rest, wrapper, wrapper.scriptOptions);
    values.forEach(runScript);
    for (const s of starts) {
      const before = rest.slice(0, s);
      if (wrapper.lookupOnly && before.some((w) => wrapper.lookupOnly?.test(w.value))) continue;
      if (wrapper.runs === 'joined') {
        runScript(
          rest
            .slice(s)
            .map((w) => w.value)
            .join(' '),
        );
      } else if (wrapper.runs === 'shell') {
        // `-c` (alone or in a cluster such as `-ec`) makes the first operand the script.
        if (s < rest.length && before.some((w) => /^-[a-zA-Z]*c/.test(w.value))) runScript(rest[s].value);
      } else {
        let c = s + (wrapper.skip ?? 0);
        while (wrapper.assignments && c < rest.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[c].value)) c++;
        visit(offset + c, end);
      }
    }
  };
  visit(0, argv.length);
  return { forms: [...forms], ...(opaque ? { opaque } : {}) };
}
