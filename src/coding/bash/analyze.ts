// Entry point: parse a command line with tree-sitter-bash and decide whether it is read-only.
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { heredocProblem } from './heredoc.js';
import { isLoaded, parseBash } from './parser.js';
import type { RuleForms } from './rule-forms.js';
import { hostView } from './host-view.js';
import type { AnalyzeOptions, BashAnalysis, BashPart, PathScope } from './types.js';
import { walkStatement, type Analysis } from './walk.js';
import { messageOf } from '../../runtime/util/message.js';

/** Nesting of `sh -c '…'` scripts the analyser follows before giving up. */
const MAX_DEPTH = 4;

/**
 * Bash treats only space, tab and newline as blanks; tree-sitter also skips \r, \v, \f and Unicode
 * spaces, so `git status\rrm` would look like two words. Such characters are refused outright.
 */
const FOREIGN_BLANKS = /[\x00-\x08\x0b-\x1f\x7f\u0085\u00a0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/u;

/**
 * `{name}>file` is a redirection that stores a new file descriptor in `name`; tree-sitter reads
 * `{name}` as an argument, so `sed {v}</dev/null 'w out' f` would look like the script `{v}` while
 * sed gets `w out`. Matched on the source text, so a quoted look-alike is refused too (stricter).
 */
const VARIABLE_REDIRECT = /(?:^|[\s;&|()])\{[^{}\s]*\}[<>]/;

/**
 * Bash ends a command at every unescaped newline. Tree-sitter glues a newline and a backslash onto
 * the next word, and skips a newline followed by a backslash-newline, so in both cases the next
 * line (`\\rm -rf x`) would look like arguments of the command before it.
 */
const UNQUOTED_NEWLINE = /(?:^|[^\\])(?:\\\\)*\n/;

/** Nodes whose text is not fully covered by child nodes (quoted text, here-documents). */
const OPAQUE = new Set(['word', 'string', 'raw_string', 'ansi_c_string', 'heredoc_redirect', 'heredoc_body', 'comment', 'regex']);

/**
 * Text between sibling nodes must be blanks. A gap made only of backslash-newlines joins the two
 * words in bash (`-\<newline>i` is `-i`) while tree-sitter splits them, so it is refused.
 */
function gapProblem(node: Node, source: string): string | undefined {
  if (node.type === 'word' && UNQUOTED_NEWLINE.test(node.text)) {
    return `\`${node.text.trim()}\` spans a newline, which ends the command in bash`;
  }
  if (node.childCount === 0) return undefined;
  if (OPAQUE.has(node.type)) {
    // Their own text is quoted, but substitutions inside (`"$(…)"`, here-document lines) are code.
    for (const child of node.children) {
      const problem = child && gapProblem(child, source);
      if (problem) return problem;
    }
    return undefined;
  }
  let pos = node.startIndex;
  const children = node.children.filter((c): c is Node => c !== null);
  for (let i = 0; i <= children.length; i++) {
    const end = i < children.length ? children[i].startIndex : node.endIndex;
    const gap = source.slice(pos, end);
    if (gap !== '') {
      const inside = i > 0 && i < children.length;
      if (node.type === 'concatenation') return `\`${node.text}\` has a gap the shell would read differently`;
      if (!/^(?:[ \t\n]|\\\n)*$/.test(gap)) return `\`${gap.trim()}\` is not understood`;
      if (node.type === 'command' && inside && gap.replace(/\\\n/g, '').includes('\n')) {
        return 'a newline inside a command ends it in bash';
      }
      if (inside && /^(?:\\\n)+$/.test(gap)) return 'a backslash-newline joins two words';
    }
    if (i < children.length) {
      const problem = gapProblem(children[i], source);
      if (problem) return problem;
      pos = children[i].endIndex;
    }
  }
  return undefined;
}

/** Text leaves where bash would still find substitutions; tree-sitter should have parsed them out. */
const LEAVES = new Set(['word', 'string_content', 'heredoc_content', 'regex', 'extglob_pattern']);
const SUBSTITUTION_START = /(?:^|[^\\])(?:\\\\)*(?:`|\$[({[])/;

/**
 * A substitution tree-sitter left as plain text: a backquote in `${x:-`cmd`}` or at the start of a
 * here-document line, or a nested `\``…`\`` inside backquotes (bash runs it, the parser sees a word).
 */
function hiddenSubstitution(node: Node, source: string, inBackquote: boolean): string | undefined {
  const why = `\`${node.text}\` holds a substitution the analyser cannot see`;
  if (LEAVES.has(node.type)) {
    if (SUBSTITUTION_START.test(node.text) || (inBackquote && node.text.includes('`'))) return why;
    return undefined;
  }
  if (node.type === 'heredoc_redirect') {
    // A quoted delimiter (`<<'EOF'`, `<<\EOF`) makes the body literal.
    const start = node.children.find((c) => c?.type === 'heredoc_start')?.text ?? '';
    if (/['"\\]/.test(start)) {
      return node.children
        .filter((c): c is Node => !!c && c.type !== 'heredoc_body')
        .map((c) => hiddenSubstitution(c, source, inBackquote))
        .find(Boolean);
    }
  }
  if (node.type === 'heredoc_body') {
    // Text between the parsed parts is not covered by any child node.
    let pos = node.startIndex;
    for (const child of node.children) {
      if (!child) continue;
      if (SUBSTITUTION_START.test(source.slice(pos, child.startIndex))) return why;
      pos = child.endIndex;
    }
    if (SUBSTITUTION_START.test(source.slice(pos, node.endIndex))) return why;
  }
  const backquote = inBackquote || (node.type === 'command_substitution' && node.text.startsWith('`'));
  for (const child of node.children) {
    if (!child || child.type === 'raw_string' || child.type === 'ansi_c_string' || child.type === 'comment') continue;
    const problem = hiddenSubstitution(child, source, backquote);
    if (problem) return problem;
  }
  return undefined;
}

/** The whole line as one part that is not read-only: rules must then match all of it. */
const wholeLine = (command: string, reason: string): BashPart => ({ command, readOnly: false, reason, inShell: true });
/** A line the analyser could not read: what it runs is unknown, so deny and ask rules cannot be checked. */
const unreadLine = (command: string, reason: string): BashPart => ({ ...wholeLine(command, reason), opaque: reason });

function result(readOnly: boolean, reason: string, parts: BashPart[], parseError?: boolean, gitDirs: string[] = []): BashAnalysis {
  return { readOnly, reason, commands: parts.map((p) => p.command), parts, gitDirs, ...(parseError ? { parseError } : {}) };
}

function analyzeInto(command: string, a: Analysis, depth: number): BashAnalysis {
  // A failure outside every part (`> ~/.bashrc && rm x`, `[[ -v 'a[$(touch p)]' ]]; rm x`) would
  // otherwise pass unseen when rules cover each part.
  const notReadOnly = (reason: string): BashAnalysis =>
    result(
      false,
      reason,
      a.loose !== undefined || a.parts.length === 0 ? [wholeLine(command, a.loose ?? reason), ...a.parts] : a.parts,
      undefined,
      [...a.gitDirs],
    );
  // Refused before the walk: the line is one part whose commands were never read.
  const unread = (reason: string, parseError?: boolean): BashAnalysis => result(false, reason, [unreadLine(command, reason)], parseError);
  if (depth > MAX_DEPTH) return unread('shell scripts nested too deeply');
  if (FOREIGN_BLANKS.test(command)) {
    return unread('the command contains control or invisible characters that the shell and the analyser read differently');
  }
  if (VARIABLE_REDIRECT.test(command)) {
    return unread('`{name}>` or `{name}<` assigns a file descriptor to a variable, and the shell does not pass `{name}` as an argument');
  }
  const tree = parseBash(command);
  if (!tree) return unread('the command could not be parsed', true);
  try {
    const root = tree.rootNode;
    if (root.hasError) return unread('the command could not be parsed as shell syntax', true);
    const gap = gapProblem(root, command) ?? hiddenSubstitution(root, command, false) ?? heredocProblem(root, command);
    if (gap) return unread(gap, true);
    walkStatement(root, a);
  } finally {
    tree.delete();
  }
  if (a.reason) return notReadOnly(a.reason);
  return result(true, 'every command is a known read-only program with read-only arguments', a.parts, undefined, [...a.gitDirs]);
}

/** The forms deny and ask rules see of a nested script: its commands' texts and forms. */
function formsOf(inner: BashAnalysis): RuleForms {
  const opaque = inner.parts.find((p) => p.opaque)?.opaque;
  return { forms: inner.parts.flatMap((p) => [p.command, ...(p.forms ?? [])]), ...(opaque ? { opaque } : {}) };
}

/**
 * `cache` holds the forms of the nested scripts analysed so far in this line, by depth and source,
 * so the forms of `sh -c 'script'` reuse the analysis its read-only check already made. A nested
 * script is judged from the folders the line may be in by then (after a `cd`).
 */
function newAnalysis(scope: PathScope, depth: number, cache: Map<string, RuleForms>, gitDirs: Set<string>): Analysis {
  const key = (source: string): string => `${depth + 1}\0${source}`;
  const nested = (source: string, at: PathScope): BashAnalysis => {
    const inner = analyzeInto(source, newAnalysis(at, depth + 1, cache, gitDirs), depth + 1);
    cache.set(key(source), formsOf(inner));
    return inner;
  };
  return {
    scope,
    parts: [],
    open: [],
    gitDirs,
    script(source, into) {
      const inner = nested(source, into.scope);
      into.parts.push(...inner.parts);
      return inner.readOnly ? undefined : inner.reason;
    },
    scriptForms: (source) => cache.get(key(source)) ?? formsOf(nested(source, scope)),
  };
}

export function analyzeBash(command: string, opts: AnalyzeOptions = {}): BashAnalysis {
  if (!isLoaded()) return result(false, 'analyzer not loaded', [unreadLine(command, 'analyzer not loaded')]);
  const cwd = path.posix.resolve(opts.cwd ?? process.cwd());
  const roots = (opts.roots?.length ? opts.roots : [cwd]).map((r) => path.posix.resolve(cwd, r));
  try {
    const scope: PathScope = { cwd, roots, readDenied: opts.readDenied, view: opts.view ?? hostView(), contained: opts.contained === true };
    return analyzeInto(command, newAnalysis(scope, 0, new Map(), new Set()), 0);
  } catch (err) {
    // The analyser must never throw into the permission engine; an internal failure is "not read-only".
    const reason = `the analyser failed: ${messageOf(err)}`;
    return result(false, reason, [unreadLine(command, reason)]);
  }
}
