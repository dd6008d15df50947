// Decodes bash ANSI-C quoting ($'...'), so a word like $'\x2di' is seen as the option `-i` it becomes.
// Escapes per the bash manual, "ANSI-C Quoting".
const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `body` is the text between `$'` and the closing `'`. */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[i + 1];
    const simple = SIMPLE[n];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const hex = (max: number): string => {
      let j = i + 2;
      while (j < body.length && j < i + 2 + max && /[0-9a-fA-F]/.test(body[j])) j++;
      return body.slice(i + 2, j);
    };
    if (n === 'x' || n === 'u' || n === 'U') {
      const digits = hex(n === 'x' ? 2 : n === 'u' ? 4 : 8);
      if (digits === '') {
        out += `\\${n}`;
      } else {
        out += String.fromCodePoint(Math.min(parseInt(digits, 16), 0x10ffff));
      }
      i += 1 + digits.length;
      continue;
    }
    if (/[0-7]/.test(n)) {
      let j = i + 1;
      while (j < body.length && j < i + 4 && /[0-7]/.test(body[j])) j++;
      out += String.fromCharCode(parseInt(body.slice(i + 1, j), 8) & 0xff);
      i = j - 1;
      continue;
    }
    if (n === 'c' && i + 2 < body.length) {
      out += String.fromCharCode(body.charCodeAt(i + 2) & 0x1f);
      i += 2;
      continue;
    }
    out += `\\${n}`;
    i++;
  }
  return out;
}
