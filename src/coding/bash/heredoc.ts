// Where a here-document ends, as bash decides it. Bash removes quotes from the delimiter word
// (`E"O"F` and `E$'O'F` both mean `EOF`) and, when the word is unquoted, joins backslash-newlines
// in the document before looking for the end line; tree-sitter ends the document at the raw
// delimiter text. A line after bash's end is a command the parse tree shows as document text, so
// only delimiters whose meaning is plain (a bare word, or one fully quoted) are accepted, and the
// document must end exactly where bash would end it.
import type { Node } from 'web-tree-sitter';

/** A bare delimiter: no quoting, no expansion, no shell metacharacters. */
const BARE = /^[A-Za-z0-9_.,:+@%=/-]+$/;

/** The delimiter bash compares lines with, and whether the document is literal; undefined when the word is not plain. */
export function heredocDelimiter(start: string): { word: string; quoted: boolean } | undefined {
  if (BARE.test(start)) return { word: start, quoted: false };
  const fully = /^'([^']*)'$/.exec(start) ?? /^"([^"\\$`]*)"$/.exec(start) ?? /^\\([A-Za-z0-9_.,:+@%=/-]+)$/.exec(start);
  if (fully && BARE.test(fully[1])) return { word: fully[1], quoted: true };
  return undefined;
}

const lineStart = (source: string, index: number): number => source.lastIndexOf('\n', index - 1) + 1;

/** Why bash would read this here-document differently from the parse tree, or undefined. */
function redirectProblem(node: Node, source: string): string | undefined {
  const child = (type: string) => node.children.find((c) => c?.type === type) ?? undefined;
  const start = child('heredoc_start');
  const end = child('heredoc_end');
  if (!start || !end) return 'a here-document without an end line is read differently by bash and the analyser';
  const delimiter = heredocDelimiter(start.text);
  if (!delimiter) {
    return `here-document delimiter \`${start.text}\` mixes quoting; bash removes the quotes and may end the document at another line (use a bare word or quote it whole, e.g. 'EOF')`;
  }
  const stripTabs = node.children.some((c) => c?.type === '<<-');
  const norm = (line: string) => (stripTabs ? line.replace(/^\t+/, '') : line);
  const body = child('heredoc_body');
  const endLine = lineStart(source, end.startIndex);
  const text = source.slice(body ? lineStart(source, body.startIndex) : endLine, endLine);
  if (!delimiter.quoted && /\\\n/.test(text)) {
    return 'a backslash-newline in an unquoted here-document joins lines, so bash may end the document earlier';
  }
  const lineEnd = source.indexOf('\n', end.startIndex);
  if (norm(source.slice(endLine, lineEnd < 0 ? source.length : lineEnd)) !== delimiter.word) {
    return `the here-document end line is not exactly \`${delimiter.word}\``;
  }
  if (text.split('\n').some((line) => norm(line) === delimiter.word)) {
    return `the here-document holds a line \`${delimiter.word}\` where bash would end it`;
  }
  return undefined;
}

/** Checks every here-document below `node`. */
export function heredocProblem(node: Node, source: string): string | undefined {
  if (node.type === 'heredoc_redirect') {
    const problem = redirectProblem(node, source);
    if (problem) return problem;
  }
  for (const c of node.children) {
    const problem = c && heredocProblem(c, source);
    if (problem) return problem;
  }
  return undefined;
}
