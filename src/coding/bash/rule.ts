// Matching a rule's command pattern (`git log *`, `npm run test`, legacy `npm run:*`) against one
// simple command. `*` matches any run of characters but never an unquoted shell operator or
// redirection (`; & | < >` or a newline), so `ls *` cannot cover `ls > ~/.bashrc`.

interface Normalized {
  text: string;
  /** barrier[i]: text[i] is an unquoted operator a wildcard must not swallow. */
  barrier: boolean[];
}

/** Collapses unquoted blanks to one space and marks unquoted operators (outside substitutions). */
function normalize(input: string): Normalized {
  let text = '';
  const barrier: boolean[] = [];
  let quote: '' | "'" | '"' = '';
  let subDepth = 0;
  let pendingSpace = false;
  const push = (c: string, isBarrier: boolean): void => {
    if (pendingSpace && text !== '') {
      text += ' ';
      barrier.push(false);
    }
    pendingSpace = false;
    text += c;
    barrier.push(isBarrier);
  };
  const s = input.trim();
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote === "'") {
      push(c, false);
      if (c === "'") quote = '';
      continue;
    }
    if (c === '\\' && i + 1 < s.length) {
      push(c, false);
      push(s[++i], false);
      continue;
    }
    if (quote === '"') {
      push(c, false);
      if (c === '"') quote = '';
      continue;
    }
    if (c === ' ' || c === '\t') {
      pendingSpace = true;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    if (c === '$' && s[i + 1] === '(') subDepth++;
    else if (c === ')' && subDepth > 0) subDepth--;
    push(c, subDepth === 0 && /[;&|<>\n]/.test(c));
  }
  return { text, barrier };
}

/** Wildcard match where `*` may not cover barrier characters (dynamic programming, O(n·m)). */
function wildcard(pattern: string, cmd: Normalized): boolean {
  const n = cmd.text.length;
  let row: boolean[] = new Array<boolean>(n + 1).fill(false);
  row[0] = true;
  for (const p of pattern) {
    const next: boolean[] = new Array<boolean>(n + 1).fill(false);
    if (p === '*') {
      next[0] = row[0];
      for (let j = 1; j <= n; j++) next[j] = row[j] || (next[j - 1] && !cmd.barrier[j - 1]);
    } else {
      for (let j = 1; j <= n; j++) next[j] = row[j - 1] && cmd.text[j - 1] === p;
    }
    row = next;
  }
  return row[n];
}

export function matchBashRule(pattern: string, command: string): boolean {
  let p = normalize(pattern).text;
  const cmd = normalize(command);
  if (p === '') return false;
  // Legacy prefix syntax: `npm run:*` is `npm run *`.
  if (p.endsWith(':*')) p = `${p.slice(0, -2).trimEnd()} *`;
  if (wildcard(p, cmd)) return true;
  // A trailing ` *` also matches the bare command: `ls *` covers `ls`.
  return p.endsWith(' *') && wildcard(p.slice(0, -2), cmd);
}
