// `for NAME in WORDS; do BODY; done` over a fixed list: the body is the script bash runs once per
// word, with "$NAME" standing for it. The analyser writes out each of those scripts (the word
// quoted in place of every "$NAME") and judges them like any other line. Accepted only when the
// list is known now (literal words, globs expanded against the workspace) and the body uses the
// variable only as a whole double-quoted word, so no splitting or globbing happens to it; the
// variable must not be one the environment already has (an exported name such as `http_proxy`
// would change what the body's programs do).
import type { Node } from 'web-tree-sitter';
import { expandGlob, MAX_GLOB_MATCHES } from './glob.js';
import type { PathScope } from './types.js';
import { readWord } from './words.js';

/** Bodies analysed per loop at most: each is a full analysis (~0.1 ms). */
export const MAX_LOOP_VALUES = 64;

const singleQuoted = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** The words the loop runs over, or why they are not known now. */
function loopValues(values: readonly Node[], scope: PathScope): string[] | string {
  const out: string[] = [];
  const budget = { left: MAX_GLOB_MATCHES };
  for (const node of values) {
    const word = readWord(node);
    if (word.dynamic || word.problem || word.brace || word.tilde) return `the loop's word \`${word.text}\` is only known at run time`;
    if (!word.glob) {
      out.push(word.value);
      continue;
    }
    if (scope.otherCwds?.length) return `the loop's glob \`${word.text}\` may run in several folders`;
    const expanded = expandGlob(word.pattern, scope.cwd, scope.view, budget);
    if ('problem' in expanded) return expanded.problem;
    if ('unknown' in expanded) return `what \`${word.text}\` matches cannot be read: ${expanded.unknown}`;
    out.push(...(expanded.matches.length > 0 ? expanded.matches : [word.value]));
  }
  return out.length > MAX_LOOP_VALUES ? `the loop runs over more than ${MAX_LOOP_VALUES} words` : out;
}

/** The `"$name"` words of the body (their ranges), or why the body uses the variable otherwise. */
function uses(body: Node, name: string): Node[] | string {
  const found: Node[] = [];
  const visit = (node: Node): string | undefined => {
    if (node.type === 'variable_name' && node.text === name) {
      const expansion = node.parent;
      const quoted = expansion?.parent;
      const whole =
        expansion &&
        quoted?.type === 'string' &&
        (quoted.text === `"$${name}"` || quoted.text === `"\${${name}}"`) &&
        quoted.namedChildCount === 1;
      if (!whole || !quoted) return `the loop body uses \`${name}\` other than as "$${name}"`;
      found.push(quoted);
      return undefined;
    }
    for (const child of node.children) {
      const why = child && visit(child);
      if (why) return why;
    }
    return undefined;
  };
  return visit(body) ?? found;
}

/** One script per word of the loop: its body with the word in place of "$NAME"; or why the loop cannot be read so. */
export function loopBodies(node: Node, scope: PathScope): string[] | string {
  const name = node.childForFieldName('variable')?.text ?? '';
  if (!/^[a-z][a-z0-9_]*$/.test(name)) return `the loop variable \`${name}\` is not a plain lower-case name`;
  if (scope.view.env(name) !== undefined) return `the loop variable \`${name}\` is in the environment, so the body's programs would see it`;
  const body = node.childForFieldName('body');
  const statements = body?.namedChildren.filter((c): c is Node => c !== null) ?? [];
  if (body?.type !== 'do_group' || statements.length === 0) return 'the loop has no body the analyser can read';
  const values = loopValues(
    node.childrenForFieldName('value').filter((c): c is Node => c !== null),
    scope,
  );
  if (typeof values === 'string') return values;
  if (values.length === 0) return 'the loop has no list of words';
  const used = uses(body, name);
  if (typeof used === 'string') return used;
  const start = statements[0].startIndex;
  const end = statements[statements.length - 1].endIndex;
  const source = (from: number, to: number): string => body.text.slice(from - body.startIndex, to - body.startIndex);
  return values.map((value) => {
    let text = '';
    let pos = start;
    for (const quoted of used.sort((x, y) => x.startIndex - y.startIndex)) {
      text += source(pos, quoted.startIndex) + singleQuoted(value);
      pos = quoted.endIndex;
    }
    return text + source(pos, end);
  });
}
