// Walks the syntax tree: every statement, pipeline, list, subshell, substitution and redirection
// must be read-only for the whole command to be. Anything not understood fails closed. A failure
// also marks each part (simple command) it happened inside, so rules can weigh parts one by one.
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { runsInShell } from './builtins.js';
import { checkEnvAssignment, programSpec, runArgv } from './command.js';
import { expandArgs } from './glob.js';
import { loopBodies } from './loops.js';
import { checkPath } from './paths.js';
import type { ProgramContext } from './program.js';
import { ruleForms, type ScriptForms } from './rule-forms.js';
import { isSecretValue, namesSecret, variablesIn } from './secrets.js';
import type { BashPart, PathScope, Word } from './types.js';
import { readWord } from './words.js';
import { checkTest } from './test-command.js';

export interface Analysis {
  scope: PathScope;
  parts: BashPart[];
  /** Parts being walked, innermost last: a failure now is inside each of them. */
  open: BashPart[];
  reason?: string;
  /** The first failure outside every part (a redirect on `{ …; }`, `[[ … ]]`): the whole line is suspect. */
  loose?: string;
  /** Analyses a nested script (sh -c); returns why it is not read-only. */
  script(source: string, into: Analysis): string | undefined;
  /** The texts and rule forms of a nested script's commands, for deny and ask rules only. */
  scriptForms: ScriptForms;
  /** Folders git runs in, for the whole line (nested scripts included). */
  gitDirs: Set<string>;
}

function fail(a: Analysis, reason: string | undefined): void {
  if (!reason) return;
  a.reason ??= reason;
  if (a.open.length === 0) a.loose ??= reason;
  for (const part of a.open) {
    if (part.readOnly) Object.assign(part, { readOnly: false, reason });
  }
}

/** Runs `body` with `part` open, so what fails inside marks the part (and the parts around it). */
function within<T>(a: Analysis, part: BashPart, body: () => T): T {
  a.open.push(part);
  try {
    return body();
  } finally {
    a.open.pop();
  }
}

/** Node types that only group statements; their named children are statements or inert words. */
const CONTAINERS = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'negated_command',
  'do_group',
  'if_statement',
  'elif_clause',
  'else_clause',
  'case_statement',
  'case_item',
]);
const WORDS = new Set([
  'word',
  'string',
  'raw_string',
  'ansi_c_string',
  'concatenation',
  'number',
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'extglob_pattern',
]);
const NOT_READ_ONLY: Record<string, string> = {
  variable_assignment: 'sets a shell variable',
  variable_assignments: 'sets shell variables',
  declaration_command: 'declares or exports shell variables',
  unset_command: 'unsets shell variables or functions',
  function_definition: 'defines a shell function',
  for_statement: 'a for loop sets a shell variable',
  c_style_for_statement: 'a for loop sets a shell variable',
  // `while true` / `until false` never end; a loop that does end almost always needs `read`.
  while_statement: 'is a loop that may never end',
};

/**
 * Inside backquotes bash first turns `\\`, `\$` and `\`` (and `\"` within double quotes) into the
 * bare character, then parses the rest; tree-sitter parses the text as written, so `$'\\x2do'`
 * there would look like `\x2do` while sort gets `-o`. Such a body is analysed again as the script
 * bash would run.
 */
function walkSubstitution(sub: Node, a: Analysis): void {
  const escaped = sub.parent?.type === 'string' ? /\\([$`\\"])/g : /\\([$`\\])/g;
  if (sub.type === 'command_substitution' && sub.text.startsWith('`') && escaped.test(sub.text)) {
    fail(a, a.script(sub.text.slice(1, -1).replace(escaped, '$1'), a));
    return;
  }
  for (const child of sub.namedChildren) if (child) walkStatement(child, a);
}

/** Analyses the statements inside a word's substitutions; fails on unaccepted syntax. */
export function walkWord(word: Word, a: Analysis): void {
  fail(a, word.problem);
  if (word.dynamic) {
    const leaked = variablesIn(word.text).find((name) => isSecretValue(a.scope.view.env(name) ?? ''));
    if (leaked) fail(a, `\`$${leaked}\` holds what looks like a credential`);
  }
  for (const sub of word.subs) walkSubstitution(sub, a);
}

function contextFor(a: Analysis): ProgramContext {
  return {
    scope: a.scope,
    runArgv: (words) => {
      const part: BashPart = { command: words.map((w) => w.text).join(' '), readOnly: true, inShell: runsInShell(words[0]) };
      a.parts.push(part);
      const why = within(a, part, () => {
        const failed = runArgv(words, contextFor(a));
        fail(a, failed);
        return failed;
      });
      tagForRules(part, words, a);
      return why;
    },
    runScript: (source) => a.script(source, a),
    program: programSpec,
    gitRunsIn: (scope) => {
      for (const dir of [scope.cwd, ...(scope.otherCwds ?? [])]) a.gitDirs.add(dir);
    },
  };
}

/**
 * What a redirect node holds besides the redirect itself. Tree-sitter folds into a redirect words
 * that bash reads as command arguments (`cat < a b` runs `cat b`), and a here-document's first
 * line may go on with arguments, more redirects and `| cmd` / `&& cmd` (all children of the node).
 */
interface RedirectParts {
  redirects: Node[];
  args: Node[];
  statements: Node[];
}

const HEREDOC_OWN = new Set(['heredoc_start', 'heredoc_body', 'heredoc_end', 'file_descriptor']);

function splitRedirect(node: Node, parts: RedirectParts): void {
  parts.redirects.push(node);
  if (node.type === 'file_redirect') {
    const dests = node.childrenForFieldName('destination').filter((d): d is Node => d !== null);
    parts.args.push(...dests.slice(1));
    return;
  }
  if (node.type !== 'heredoc_redirect') return;
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child?.isNamed || HEREDOC_OWN.has(child.type)) continue;
    const field = node.fieldNameForChild(i);
    if (field === 'redirect') splitRedirect(child, parts);
    else if (field === 'argument') parts.args.push(child);
    else parts.statements.push(child);
  }
}

function walkSimple(node: Node, redirects: readonly Node[], a: Analysis): void {
  // The node's text already holds its own redirections (`cat <<<"$x"`); only outer ones are added.
  const part: BashPart = { command: [node.text, ...redirects.map(redirectText)].join(' '), readOnly: true, inShell: true };
  within(a, part, () => walkSimpleIn(node, redirects, part, a));
}

function walkSimpleIn(node: Node, redirects: readonly Node[], part: BashPart, a: Analysis): void {
  const words: Word[] = [];
  const parts: RedirectParts = { redirects: [], args: [], statements: [] };
  const takeArgs = (): void => {
    for (const arg of parts.args.splice(0)) words.push(readWord(arg));
  };
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child) continue;
    const field = node.fieldNameForChild(i);
    if (child.type === 'variable_assignment') {
      fail(a, checkEnvAssignment(child));
      const value = child.childForFieldName('value');
      if (value) walkWord(readWord(value), a);
    } else if (field === 'redirect') {
      splitRedirect(child, parts);
      takeArgs();
    } else if (child.type === 'command_name') {
      const nameNode = child.firstNamedChild;
      if (nameNode) words.push(readWord(nameNode));
    } else if (field === 'argument' && WORDS.has(child.type)) {
      words.push(readWord(child));
    } else if (child.type !== 'comment') {
      fail(a, `\`${child.text}\` is shell syntax the analyser does not accept`);
    }
  }
  for (const r of redirects) splitRedirect(r, parts);
  takeArgs();
  part.inShell = runsInShell(words[0]);
  a.parts.push(part);
  for (const w of words) walkWord(w, a);
  for (const r of parts.redirects) walkRedirect(r, a);
  const [name, ...args] = words;
  const expanded = expandArgs(args, a.scope);
  const why = typeof expanded === 'string' ? expanded : runArgv(name ? [name, ...expanded] : [], contextFor(a));
  fail(a, why);
  if (!why && name?.plain && name.value === 'cd' && typeof expanded !== 'string') moveTo(expanded[expanded.length - 1].value, a);
  for (const s of parts.statements) walkStatement(s, a);
  tagForRules(part, words, a);
}

/**
 * After a read-only `cd`, later commands may run in the new folder, or still in the old one (the
 * `cd` failed, or ran in a subshell or a pipeline): paths are then checked from every such folder.
 */
function moveTo(dir: string, a: Analysis): void {
  const from = [a.scope.cwd, ...(a.scope.otherCwds ?? [])];
  const to = from.map((cwd) => path.posix.resolve(cwd, dir));
  const [cwd, ...others] = [...new Set([...to, ...from])];
  a.scope = { ...a.scope, cwd, otherCwds: others };
}

/** What deny and ask rules also see of a part, and whether it reads a secret. */
function tagForRules(part: BashPart, words: readonly Word[], a: Analysis): void {
  const { forms, opaque } = ruleForms(words, a.scriptForms);
  const other = forms.filter((f) => f !== part.command);
  if (other.length > 0) part.forms = other;
  if (opaque) part.opaque = opaque;
  // For suggestions (the exact command only) and reasons ("may read a secret").
  if (!part.readOnly && words.some(namesSecret)) part.secret = true;
}

function redirectText(node: Node): string {
  if (node.type !== 'heredoc_redirect') return node.text;
  const text: string[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    const field = node.fieldNameForChild(i);
    if (c && (c.type === '<<' || c.type === '<<-' || c.type === 'heredoc_start')) text.push(c.text);
    else if (c && field === 'argument') text.push(` ${c.text}`);
    else if (c && field === 'redirect') text.push(` ${redirectText(c)}`);
  }
  return text.join('');
}

function isFd(node: Node | null, allowed: RegExp): boolean {
  return !!node && node.type === 'number' && allowed.test(node.text);
}

function walkRedirect(node: Node, a: Analysis): void {
  if (node.type === 'herestring_redirect') {
    for (const child of node.namedChildren) if (child) walkWord(readWord(child), a);
    return;
  }
  if (node.type === 'heredoc_redirect') {
    for (const child of node.namedChildren) {
      if (child?.type !== 'heredoc_body') continue;
      for (const part of child.namedChildren) {
        if (part && part.type !== 'heredoc_content') walkWord(readWord(part), a);
      }
    }
    return;
  }
  if (node.type !== 'file_redirect') {
    fail(a, `redirection \`${node.text}\` is not understood`);
    return;
  }
  const op = node.children.find((c) => c && !c.isNamed)?.type ?? '';
  const dest = node.childForFieldName('destination');
  const word = dest ? readWord(dest) : undefined;
  if (word) walkWord(word, a);
  if (op === '<') {
    const problem = word ? checkPath(word, a.scope) : 'input redirection without a file';
    fail(a, problem ? `redirection \`${node.text}\`: ${problem}` : undefined);
    return;
  }
  if ((op === '>&' || op === '<&') && isFd(dest, /^[012]$/)) return;
  if (['>', '>>', '&>', '&>>', '>|', '>&'].includes(op) && word) {
    if (!word.dynamic && word.value === '/dev/null') return;
    // `> >(cmd)` feeds a process substitution: read-only when cmd is (walked above).
    if (dest?.type === 'process_substitution') return;
  }
  fail(a, `redirection \`${node.text}\` writes a file`);
}

/**
 * A loop over a known list whose every body is read-only: its parts are the bodies' commands (each
 * once), so rules see every command it runs. Otherwise false, and the loop is one part that is not read-only.
 */
function walkLoop(node: Node, a: Analysis): boolean {
  const bodies = loopBodies(node, a.scope);
  if (typeof bodies === 'string') return false;
  const scratch: Analysis = { ...a, parts: [], open: [] };
  if (bodies.some((body) => a.script(body, scratch) !== undefined)) return false;
  // The body runs in this shell: a `cd` there would move the commands after the loop, which its own analysis cannot tell.
  if (scratch.parts.some((p) => /^\s*cd(\s|$)/.test(p.command))) return false;
  // The loop itself is a part too: it sets its variable in this shell.
  a.parts.push({ command: node.text, readOnly: true, inShell: true });
  const seen = new Set<string>();
  for (const part of scratch.parts) {
    if (!seen.has(part.command)) a.parts.push(part);
    seen.add(part.command);
  }
  return true;
}

/** Walks the commands inside substitutions anywhere below `node` (so rules still see them). */
function walkSubstitutions(node: Node, a: Analysis): void {
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'command_substitution' || child.type === 'process_substitution') {
      walkSubstitution(child, a);
    } else {
      walkSubstitutions(child, a);
    }
  }
}

export function walkStatement(node: Node, a: Analysis): void {
  if (node.type === 'comment' || !node.isNamed) return;
  if (node.type === 'command') {
    walkSimple(node, [], a);
    return;
  }
  if (node.type === 'redirected_statement') {
    const body = node.childForFieldName('body');
    const redirects = node.childrenForFieldName('redirect').filter((r): r is Node => r !== null);
    if (body?.type === 'command') {
      walkSimple(body, redirects, a);
      return;
    }
    if (body) walkStatement(body, a);
    else fail(a, `\`${node.text}\` redirects without a command (it truncates or creates the file)`);
    const parts: RedirectParts = { redirects: [], args: [], statements: [] };
    for (const r of redirects) splitRedirect(r, parts);
    if (parts.args.length) fail(a, `\`${node.text}\` has words after a redirect that the analyser cannot place`);
    for (const r of parts.redirects) walkRedirect(r, a);
    for (const s of parts.statements) walkStatement(s, a);
    return;
  }
  if (node.type === 'test_command') {
    fail(a, checkTest(node));
    walkSubstitutions(node, a);
    return;
  }
  if (node.type === 'compound_statement' && node.firstChild?.type === '((') {
    fail(a, `arithmetic command \`${node.text}\` may assign variables`);
    return;
  }
  if (CONTAINERS.has(node.type)) {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (WORDS.has(child.type)) walkWord(readWord(child), a);
      else walkStatement(child, a);
    }
    return;
  }
  // tree-sitter reads `select` (which reads its choice from input) as a for statement too.
  if (node.type === 'for_statement' && node.firstChild?.type === 'for' && walkLoop(node, a)) return;
  const why = NOT_READ_ONLY[node.type];
  const part: BashPart = { command: node.text, readOnly: true, inShell: true };
  a.parts.push(part);
  within(a, part, () => {
    walkSubstitutions(node, a);
    fail(a, why ? `\`${node.text}\` ${why}` : `\`${node.text}\` is shell syntax the analyser does not accept`);
  });
}
