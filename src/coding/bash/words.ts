// Turns a tree-sitter word node into the value the shell would pass, and records everything the
// shell still does to it at run time (expansions, globs, tildes, braces, substitutions).
import type { Node } from 'web-tree-sitter';
import { decodeAnsiC } from './ansi-c.js';
import type { Word } from './types.js';
import { checkExpansion, checkArithmetic } from './expansions.js';

interface Acc {
  value: string;
  /** The word with quoted/escaped characters replaced by Q and expansions by E: unquoted syntax stays visible. */
  shape: string;
  /** The value as a glob pattern: quoted and escaped characters carry a backslash. */
  pattern: string;
  plain: boolean;
  dynamic: boolean;
  procSub: boolean;
  subs: Node[];
  problem?: string;
}

const QUOTED = 'Q';

/** Unquoted word text: a backslash quotes the next character; backslash-newline disappears. */
function addUnquoted(acc: Acc, text: string): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      acc.plain = false;
      i++;
      if (text[i] !== '\n') {
        acc.value += text[i];
        acc.shape += QUOTED;
        acc.pattern += `\\${text[i]}`;
      }
      continue;
    }
    acc.value += c;
    acc.shape += c;
    acc.pattern += c;
  }
}

/** Quoted text: literal in a glob pattern. */
const addQuoted = (acc: Acc, text: string): void => {
  acc.value += text;
  acc.pattern += text.replace(/[*?[\]\\]/g, '\\$&');
};

/** Inside double quotes a backslash only escapes $ ` " \ and newline (bash manual, "Double Quotes"). */
function addDoubleQuoted(acc: Acc, text: string): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length && '$`"\\\n'.includes(text[i + 1])) {
      i++;
      if (text[i] !== '\n') addQuoted(acc, text[i]);
      continue;
    }
    addQuoted(acc, c);
  }
  acc.shape += QUOTED.repeat(Math.min(text.length, 1));
}

function addDynamic(acc: Acc, node: Node): void {
  acc.plain = false;
  acc.dynamic = true;
  acc.value += node.text;
  acc.pattern += node.text;
  acc.shape += 'E';
  if (node.type === 'command_substitution' || node.type === 'process_substitution') {
    acc.subs.push(node);
    return;
  }
  const problem = node.type === 'arithmetic_expansion' ? checkArithmetic(node) : checkExpansion(node, acc.subs);
  if (problem) acc.problem ??= problem;
}

function addPart(acc: Acc, node: Node): void {
  switch (node.type) {
    case 'word':
    case 'number':
      addUnquoted(acc, node.text);
      return;
    case 'raw_string':
      acc.plain = false;
      addQuoted(acc, node.text.slice(1, -1));
      acc.shape += QUOTED;
      return;
    case 'ansi_c_string':
      acc.plain = false;
      addQuoted(acc, decodeAnsiC(node.text.slice(2, -1)));
      acc.shape += QUOTED;
      return;
    case 'string': {
      acc.plain = false;
      acc.shape += QUOTED;
      // Literal text is read from the source between the expansions: tree-sitter leaves some of it
      // (a newline between two lines of content) out of every child node.
      let pos = node.startIndex + 1;
      const literal = (end: number): void => addDoubleQuoted(acc, node.text.slice(pos - node.startIndex, end - node.startIndex));
      for (const child of node.namedChildren) {
        if (!child || child.type === 'string_content') continue;
        literal(child.startIndex);
        addDynamic(acc, child);
        pos = child.endIndex;
      }
      literal(node.endIndex - 1);
      return;
    }
    case 'concatenation':
      for (const child of node.children) if (child) addPart(acc, child);
      return;
    case 'simple_expansion':
    case 'expansion':
    case 'command_substitution':
    case 'process_substitution':
    case 'arithmetic_expansion':
      addDynamic(acc, node);
      return;
    case 'brace_expression':
      acc.plain = false;
      acc.value += node.text;
      acc.pattern += node.text;
      acc.shape += '{,}';
      return;
    default:
      acc.plain = false;
      acc.value += node.text;
      acc.pattern += node.text;
      acc.problem ??= `\`${node.text}\` is shell syntax the analyser does not accept`;
  }
}

export function readWord(node: Node): Word {
  const acc: Acc = { value: '', shape: '', pattern: '', plain: true, dynamic: false, procSub: false, subs: [] };
  addPart(acc, node);
  const shape = acc.shape;
  // Only a word that is exactly `<(…)` / `>(…)` becomes a /dev/fd path; mixed with text it is just dynamic.
  acc.procSub = node.type === 'process_substitution';
  return {
    text: node.text,
    value: acc.value,
    plain: acc.plain,
    dynamic: acc.dynamic,
    procSub: acc.procSub,
    glob: /[*?[]/.test(shape),
    pattern: acc.pattern,
    leadingGlob: /^[*?[]/.test(shape),
    // Bash also expands a tilde after `=` or `:` in words that look like assignments.
    tilde: /(^|[=:])~/.test(shape),
    // Brace expansion needs an unquoted comma or `..` between unquoted braces.
    brace: /\{[^{}]*(,|\.\.)[^{}]*\}/.test(shape),
    subs: acc.subs,
    ...(acc.problem ? { problem: acc.problem } : {}),
  };
}
