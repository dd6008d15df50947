// Mutants for the safety differential: variations of the classes of the corpora's unsafe rows,
// aimed at the planted machine (safety-diff-fixture.ts). Pure and deterministic: the same list,
// in the same order, on every run. Placeholders filled in at run time: {BASE} (the planted
// folder), {HOME} (the fake home), {PORT} (the loopback canary server), {BLOB} (the other
// repository's secret, borrowed through the workspace's alternates).

import {
  ARITH,
  ARITH_PAYLOADS,
  AWK,
  ENV_CONFIG,
  FIND,
  FOLDERS,
  GIT,
  GLOBS,
  GRAMMAR,
  HOME,
  JQ,
  LINKED,
  LISTS,
  MOVES,
  NAMES,
  NETWORK,
  OUTSIDE,
  PATHSPEC,
  PAYLOADS,
  READERS,
  RECURSION,
  SECRETS,
  SED,
  SOME,
  XARGS,
} from './safety-diff-templates.js';

export const CLASSES = [
  'links',
  'recursion',
  'globs',
  'embedded',
  'git',
  'pathspec',
  'arith',
  'grammar',
  'env-config',
  'home',
  'secrets',
  'network',
  'lists',
] as const;
export type MutantClass = (typeof CLASSES)[number];

export interface Mutant {
  cls: MutantClass;
  command: string;
  /** `template` (written for a class) or `corpus` (an unsafe row, retargeted and respelled). */
  from: 'template' | 'corpus';
}

export interface CorpusRow {
  command: string;
  expected: 'safe' | 'ask';
  tags?: string[];
}

const fill = (template: string, slots: Record<string, string>): string =>
  template.replace(/\{([TDP])\}|(?<![{$\w])P(?![\w}])/g, (whole, slot: string | undefined) => slots[slot ?? 'P'] ?? whole);

function cross(templates: readonly string[], slot: 'T' | 'D' | 'P', values: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of templates) {
    const marked = slot === 'P' ? /(?<![{$\w])P(?![\w}])/.test(t) : t.includes(`{${slot}}`);
    if (!marked) out.push(t);
    else for (const v of values) out.push(fill(t, { [slot]: v }));
  }
  return out;
}

/** The class of a corpus row, by what it does (first match wins). */
export function classify(command: string): MutantClass {
  const rules: [MutantClass, RegExp][] = [
    [
      'network',
      /\b(curl|wget|nc|ncat|ssh|scp|rsync|ping|dig|nslookup|telnet|socat)\b|\/dev\/(tcp|udp)|git\s+(fetch|pull|push|clone|ls-remote|remote)|https?:\/\//,
    ],
    ['lists', /files0-from|files-from|\s-@/],
    ['pathspec', /--no-index|pathspec|:\(|\s:\/|--untracked/],
    ['git', /\bgit\b/],
    ['arith', /\$\(\(|\(\(|\blet\b|\[\$\(|\[`|-eq|-lt|-gt|-v\s/],
    ['embedded', /\b(awk|gawk|mawk|sed|jq|find|xargs|perl|python3?|node|ruby)\b/],
    ['env-config', /\b(env|printenv|export|declare|set)\b|environ|^\s*[A-Z_]+=|\s[A-Z_]+=\S+\s/],
    ['home', /~|\$HOME|\$\{HOME|\.gitconfig|\.wield/],
    ['secrets', /\.env|\.key\b|\.pem\b|id_rsa|secret|credential|token/i],
    ['recursion', /\s-[a-zA-Z]*[rR]\b|--recursive|-follow|\s-L\b/],
    ['globs', /[*?[]/],
    ['links', /\bln\b|symlink|\.\.\//],
  ];
  return rules.find(([, re]) => re.test(command))?.[0] ?? 'grammar';
}

/** A corpus row with its harmless stand-ins pointed at the planted canaries. */
function retarget(command: string): string {
  return command
    .replace(/https?:\/\/[^\s'"`)]+/g, 'http://127.0.0.1:{PORT}/')
    .replace(/\b(?:evil|attacker|example)\.(?:com|org|net)\b/g, '127.0.0.1')
    .replace(/\/etc\/(?:passwd|shadow|hosts)\b/g, '{BASE}/outside/canary.txt')
    .replace(/\brm -rf? (?:\/|~)(?=\s|$)/g, 'rm -rf pwned-dir');
}

/** Respellings that keep a row's meaning: where an analyser could lose track of it. */
const RESPELL: readonly ((c: string) => string)[] = [
  (c) => c,
  (c) => c.replace(/~\//g, '$HOME/'),
  (c) => c.replace(/\.env\b/g, 'settings.txt').replace(/~\/\.ssh\/id_rsa/g, 'key.txt'),
  (c) => c.replace(/(^|\s)\.\.\//g, '$1docs/../../'),
  (c) => `command ${c}`,
  (c) => `echo "$(${c})"`,
  (c) => `(${c}) 2>&1 | cat`,
  (c) => `true && ${c}`,
  (c) => `cd sub && ${c}`,
];

export function templateMutants(): Mutant[] {
  const out: Mutant[] = [];
  const add = (cls: MutantClass, commands: readonly string[]): void => {
    for (const command of commands) out.push({ cls, command, from: 'template' });
  };
  const quoted = (targets: readonly string[]): string[] =>
    targets.flatMap((t) => (/[~*?[{$`'"\\]/.test(t) ? [t] : [t, `'${t}'`, `"${t}"`]));
  add('links', [...cross(READERS, 'T', quoted([...LINKED, ...OUTSIDE])), ...MOVES]);
  add('home', cross(READERS, 'T', HOME));
  add('secrets', [...cross(READERS, 'T', SECRETS), ...NAMES.flatMap((n) => [`${n} x.key`, `${n} docs/canary.txt`, `${n} ~/.ssh/id_rsa`])]);
  add('globs', cross(READERS, 'T', GLOBS));
  add('recursion', cross(RECURSION, 'D', FOLDERS));
  add('embedded', [...cross([...AWK, ...SED, ...JQ, ...FIND, ...XARGS], 'T', SOME)]);
  add('git', cross(GIT, 'T', SOME));
  add('pathspec', PATHSPEC);
  add('arith', cross(cross(ARITH, 'P', ARITH_PAYLOADS), 'T', ['num.txt', ...SOME]));
  add('grammar', cross(GRAMMAR, 'P', PAYLOADS));
  add('env-config', ENV_CONFIG);
  add('network', NETWORK);
  add('lists', LISTS);
  return out;
}

export function corpusMutants(rows: readonly CorpusRow[]): Mutant[] {
  return rows
    .filter((r) => r.expected === 'ask')
    .flatMap((r) => {
      const base = retarget(r.command);
      const cls = classify(r.command);
      return RESPELL.map((respell) => ({ cls, command: respell(base), from: 'corpus' as const }));
    });
}

/** Every mutant once (the first class that produced it keeps it), in a fixed order. */
export function allMutants(rows: readonly CorpusRow[]): Mutant[] {
  const seen = new Set<string>();
  return [...templateMutants(), ...corpusMutants(rows)].filter((m) => {
    if (seen.has(m.command)) return false;
    seen.add(m.command);
    return true;
  });
}

/** The placeholders filled in for this run. */
export function instantiate(command: string, at: { base: string; home: string; port: number; blob: string }): string {
  return command
    .replaceAll('{BASE}', at.base)
    .replaceAll('{HOME}', at.home)
    .replaceAll('{PORT}', String(at.port))
    .replaceAll('{BLOB}', at.blob);
}
