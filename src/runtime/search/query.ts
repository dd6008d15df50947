// The ToolSearch query syntax, parsed without I/O:
//   select:NameA,NameB   load exact names
//   +word other words    tools whose name contains "word", ranked by all the words
//   anything else        natural-language or keyword search

export type ParsedQuery = { kind: 'select'; names: string[] } | { kind: 'search'; text: string; required: string[] };

const SELECT = /^select:/i;
const REQUIRED = /^\+\p{L}[\p{L}\p{N}_-]*$/u;

export function parseQuery(query: string): ParsedQuery {
  const trimmed = query.trim();
  if (SELECT.test(trimmed)) {
    const names = trimmed
      .replace(SELECT, '')
      .split(/[,\s]+/)
      .map((name) => name.trim())
      .filter((name) => name.length > 0);
    return { kind: 'select', names: [...new Set(names)] };
  }
  const required: string[] = [];
  const words: string[] = [];
  for (const token of trimmed.split(/\s+/)) {
    // Only "+letters" is the operator: "+447800123456" or "+1" in a request is a phone number.
    if (REQUIRED.test(token)) {
      const word = token.slice(1).toLowerCase();
      required.push(word);
      words.push(word);
    } else if (token.length > 0) {
      words.push(token);
    }
  }
  return { kind: 'search', text: words.join(' '), required: [...new Set(required)] };
}
