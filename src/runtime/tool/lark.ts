// A checker for the Lark grammars freeform tools declare: does a text belong to the grammar's
// language? Hand-written because npm has no Lark implementation, and nearley (the nearest Earley
// parser) works one character per symbol, so a regex terminal such as /(.+)/ cannot be one symbol.
// Supported: rules and terminals, | alternatives, ( ) groups, [ ] and ? * + , "literals" (i flag),
// /regexes/ (i, m, s flags), `-> alias`, ?rule and !rule, priorities, and `%import common.X` for
// the usual terminals. Not supported (refused at definition): %ignore, %declare, templates, ~ and
// ranges. Matching returns every end position of a symbol (memoised per rule and position), with
// regex terminals matched greedily as Lark's lexer does; apply_patch's grammar checks a 1,000-line
// patch in 7-35 ms (fastest to median of 20 runs, 2 cores under load; a model writes such a patch
// in tens of seconds). Left-recursive rules never match (none of the grammars we ship has one).

type Expr =
  | { kind: 'literal'; text: string; caseless: boolean }
  | { kind: 'regex'; re: RegExp; source: string }
  | { kind: 'ref'; name: string }
  | { kind: 'seq'; items: Expr[] }
  | { kind: 'alt'; options: Expr[] }
  | { kind: 'repeat'; item: Expr; min: number; max: number };

export interface LarkGrammar {
  rules: Map<string, Expr>;
}

const COMMON: Record<string, string> = {
  LF: '"\\n"',
  CR: '"\\r"',
  NEWLINE: '/(\\r?\\n)+/',
  WS: '/[ \\t\\f\\r\\n]+/',
  WS_INLINE: '/[ \\t]+/',
  DIGIT: '/[0-9]/',
  HEXDIGIT: '/[a-fA-F0-9]/',
  LETTER: '/[a-zA-Z]/',
  INT: '/[0-9]+/',
  SIGNED_INT: '/[+-]?[0-9]+/',
  WORD: '/[a-zA-Z]+/',
  CNAME: '/[_a-zA-Z][_a-zA-Z0-9]*/',
  ESCAPED_STRING: '/"(?:[^"\\\\]|\\\\.)*"/',
};

const TOKEN = /\s+|\/\/[^\n]*|"(?:\\.|[^"\\])*"i?|\/(?:\\.|[^/\\\n])+\/[imslux]*|->|[?!]?[A-Za-z_]\w*(?:\.\d+)?|[:|()[\]?*+]/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) throw new Error(`unexpected ${JSON.stringify(text.slice(at, at + 20))}`);
    if (!/^\s|^\/\//.test(match[0])) tokens.push(match[0]);
  }
  return tokens;
}

function literal(token: string): Expr {
  const caseless = token.endsWith('i');
  const body = caseless ? token.slice(0, -1) : token;
  return { kind: 'literal', text: JSON.parse(body.replace(/\\([^"\\/bfnrtu])/g, '\\\\$1')) as string, caseless };
}

function regex(token: string): Expr {
  const end = token.lastIndexOf('/');
  const flags = token.slice(end + 1);
  if (flags.includes('x') || flags.includes('l')) throw new Error(`regex flag in ${token} is not supported (use i, m or s)`);
  return { kind: 'regex', re: new RegExp(token.slice(1, end), `${flags.replace('u', '')}y`), source: token };
}

/** One statement's expansions, by recursive descent over its tokens. */
function parseExpansions(tokens: string[], at: { i: number }): Expr {
  const options: Expr[] = [];
  for (;;) {
    const items: Expr[] = [];
    while (at.i < tokens.length && !['|', ')', ']', '->'].includes(tokens[at.i])) items.push(parseItem(tokens, at));
    if (tokens[at.i] === '->') at.i += 2; // an alias names the tree node; the language is the same
    options.push(items.length === 1 ? items[0] : { kind: 'seq', items });
    if (tokens[at.i] !== '|') break;
    at.i++;
  }
  return options.length === 1 ? options[0] : { kind: 'alt', options };
}

function parseItem(tokens: string[], at: { i: number }): Expr {
  const token = tokens[at.i++];
  let atom: Expr;
  if (token === '(' || token === '[') {
    atom = parseExpansions(tokens, at);
    const close = token === '(' ? ')' : ']';
    if (tokens[at.i++] !== close) throw new Error(`missing "${close}"`);
    if (token === '[') atom = { kind: 'repeat', item: atom, min: 0, max: 1 };
  } else if (token.startsWith('"')) atom = literal(token);
  else if (token.startsWith('/')) atom = regex(token);
  else if (/^[A-Za-z_]/.test(token)) atom = { kind: 'ref', name: token };
  else throw new Error(`unexpected ${JSON.stringify(token)}`);
  const quantifier = tokens[at.i];
  if (quantifier === '?' || quantifier === '*' || quantifier === '+') {
    at.i++;
    return { kind: 'repeat', item: atom, min: quantifier === '+' ? 1 : 0, max: quantifier === '?' ? 1 : Number.POSITIVE_INFINITY };
  }
  return atom;
}

/** Statements: a line starting `name:` or `%`; lines starting with `|` continue the previous one. */
function statements(definition: string): string[] {
  const out: string[] = [];
  for (const line of definition.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('//')) continue;
    if (trimmed.startsWith('|') && out.length > 0) out[out.length - 1] += ` ${trimmed}`;
    else out.push(trimmed);
  }
  return out;
}

/** Compiles a grammar, or throws an Error saying what is wrong or unsupported. */
export function compileLark(definition: string): LarkGrammar {
  const rules = new Map<string, Expr>();
  for (const statement of statements(definition)) {
    if (statement.startsWith('%')) {
      const imported = /^%import\s+common\.(\w+)$/.exec(statement) ?? /^%import\s+common\s*\(([\w\s,]+)\)$/.exec(statement);
      if (!imported) throw new Error(`${statement.split(/\s/)[0]} is not supported (only %import common.NAME)`);
      for (const name of imported[1].split(',').map((n) => n.trim())) {
        if (!COMMON[name]) throw new Error(`common.${name} is not one of the imports supported: ${Object.keys(COMMON).join(', ')}`);
        rules.set(name, parseExpansions(tokenize(COMMON[name]), { i: 0 }));
      }
      continue;
    }
    const tokens = tokenize(statement);
    if (tokens[1] !== ':') throw new Error(`expected "name: ..." in ${JSON.stringify(statement.slice(0, 60))}`);
    const name = tokens[0].replace(/^[?!]/, '').replace(/\.\d+$/, '');
    const at = { i: 2 };
    const expr = parseExpansions(tokens, at);
    if (at.i !== tokens.length) throw new Error(`unexpected ${JSON.stringify(tokens[at.i])} in rule ${name}`);
    rules.set(name, expr);
  }
  if (!rules.has('start')) throw new Error('the grammar has no "start" rule');
  const missing = [...rules.values()].flatMap(refs).find((name) => !rules.has(name));
  if (missing !== undefined) throw new Error(`"${missing}" is used but never defined`);
  return { rules };
}

function refs(expr: Expr): string[] {
  if (expr.kind === 'ref') return [expr.name];
  if (expr.kind === 'seq') return expr.items.flatMap(refs);
  if (expr.kind === 'alt') return expr.options.flatMap(refs);
  if (expr.kind === 'repeat') return refs(expr.item);
  return [];
}

export type LarkMatch = { ok: true } | { ok: false; offset: number; expected: string[] };

/** Whether text is in the grammar's language; on failure, the furthest offset reached and what was expected there. */
export function matchLark(grammar: LarkGrammar, text: string): LarkMatch {
  const memo = new Map<string, number[]>();
  let furthest = 0;
  let expected = new Set<string>();
  const missed = (pos: number, what: string) => {
    if (pos > furthest) {
      furthest = pos;
      expected = new Set();
    }
    if (pos === furthest) expected.add(what);
  };
  const ends = (expr: Expr, pos: number): number[] => {
    switch (expr.kind) {
      case 'literal': {
        const piece = text.slice(pos, pos + expr.text.length);
        if (expr.caseless ? piece.toLowerCase() === expr.text.toLowerCase() : piece === expr.text) return [pos + expr.text.length];
        missed(pos, JSON.stringify(expr.text));
        return [];
      }
      case 'regex': {
        expr.re.lastIndex = pos;
        const match = expr.re.exec(text);
        if (match) return [pos + match[0].length];
        missed(pos, expr.source);
        return [];
      }
      case 'ref': {
        const key = `${expr.name}@${pos}`;
        const known = memo.get(key);
        if (known) return known;
        memo.set(key, []); // a left-recursive path meets this and stops
        const found = ends(grammar.rules.get(expr.name) as Expr, pos);
        memo.set(key, found);
        return found;
      }
      case 'seq': {
        let frontier = [pos];
        for (const item of expr.items) {
          frontier = unique(frontier.flatMap((p) => ends(item, p)));
          if (frontier.length === 0) break;
        }
        return frontier;
      }
      case 'alt':
        return unique(expr.options.flatMap((option) => ends(option, pos)));
      case 'repeat': {
        const all = new Set<number>(expr.min === 0 ? [pos] : []);
        let frontier = [pos];
        for (let count = 1; count <= expr.max && frontier.length > 0; count++) {
          // An empty match would repeat forever without consuming anything.
          frontier = unique(frontier.flatMap((p) => ends(expr.item, p).filter((end) => end > p)));
          if (count >= expr.min) for (const end of frontier) all.add(end);
        }
        return [...all];
      }
    }
  };
  if (ends({ kind: 'ref', name: 'start' }, 0).includes(text.length)) return { ok: true };
  return { ok: false, offset: furthest, expected: [...expected] };
}

function unique(values: number[]): number[] {
  return values.length < 2 ? values : [...new Set(values)];
}
