// The words of a shell line that may name files, for a session to record before a Bash call so a
// replay can restore them. Best-effort and deliberately simple: quotes and backslashes are
// removed, words with expansions or globs are skipped (their value is only known when bash runs
// them), options are dropped but `--file=x` and `VAR=x` keep their value. Never used for
// permissions: what a command may do is the analyser's (src/coding/bash/) to decide.

const OPERATORS = new Set([';', '&', '|', '<', '>', '(', ')', '\n']);

/** The literal words of a command line, quotes removed; undefined marks a word with an expansion or glob. */
function words(command: string): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  let word = '';
  let inWord = false;
  let literal = true;
  const end = (): void => {
    if (inWord) out.push(literal ? word : undefined);
    word = '';
    inWord = false;
    literal = true;
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (ch === "'") {
      const close = command.indexOf("'", i + 1);
      if (close < 0) return out;
      word += command.slice(i + 1, close);
      inWord = true;
      i = close;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === '\\' && j + 1 < command.length) j++;
        if (command[j] === '$' || command[j] === '`') literal = false;
        word += command[j];
      }
      inWord = true;
      i = j;
    } else if (ch === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (ch === ' ' || ch === '\t' || OPERATORS.has(ch)) {
      end();
    } else {
      if ('$`*?[{~'.includes(ch)) literal = false;
      word += ch;
      inWord = true;
    }
  }
  end();
  return out;
}

/** Words that could be paths: literal, not options; `--opt=value` and `NAME=value` give their value. */
export function pathLikeWords(command: string): string[] {
  const found: string[] = [];
  for (const word of words(command)) {
    if (word === undefined || word === '' || word === '-' || word === '--') continue;
    const value = /^(?:--[\w-]+|[A-Za-z_]\w*)=(.+)$/.exec(word)?.[1] ?? (word.startsWith('-') ? undefined : word);
    if (value !== undefined && !found.includes(value)) found.push(value);
  }
  return found;
}
