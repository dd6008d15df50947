// `[ … ]` and `[[ … ]]`: reading file metadata is harmless, but some operators evaluate code.
import type { Node } from 'web-tree-sitter';
import { checkArithmetic, checkExpansion } from './expansions.js';

/** `[[ a -eq b ]]` evaluates a and b as arithmetic (variables recursively); `[ ]` does not. */
const ARITH_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

function walk(node: Node, doubleBracket: boolean): string | undefined {
  for (const child of node.children) {
    if (!child) continue;
    const t = child.text;
    if (child.type === 'test_operator' && (t === '-v' || t === '-R')) {
      return `\`${t}\` in a test evaluates array subscripts, which can run commands`;
    }
    if (child.type === 'expansion') {
      const problem = checkExpansion(child, []);
      if (problem) return problem;
    }
    if (child.type === 'arithmetic_expansion') {
      const problem = checkArithmetic(child);
      if (problem) return problem;
    }
    if (doubleBracket && child.type === 'binary_expression') {
      const op = child.childForFieldName('operator')?.text ?? '';
      const sides = [child.childForFieldName('left'), child.childForFieldName('right')];
      if (ARITH_TESTS.has(op) && sides.some((s) => s?.type !== 'number')) {
        return `\`${child.text}\` inside [[ ]] evaluates its operands as arithmetic`;
      }
    }
    const problem = walk(child, doubleBracket);
    if (problem) return problem;
  }
  return undefined;
}

export function checkTest(node: Node): string | undefined {
  return walk(node, node.firstChild?.type === '[[');
}
