// A strict JSON parser that remembers where every key and value starts, so a settings error
// can name the line and column. Hand-written because JSON.parse reports no positions for valid
// documents (and not always for invalid ones), and no dependency we carry exposes them.

export type JsonPath = readonly (string | number)[];
export interface Position {
  line: number;
  column: number;
}

export type JsonParse =
  | { ok: true; value: unknown; locate: (path: JsonPath) => Position }
  | { ok: false; message: string; position: Position };

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** 1-based line and column of an offset in text. */
export function positionOf(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export function parseJsonWithPositions(text: string): JsonParse {
  const offsets = new Map<string, number>();
  let i = 0;
  const key = (p: JsonPath) => JSON.stringify(p);
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (what: string): never => {
    const found = i < text.length ? JSON.stringify(text[i]) : 'end of file';
    throw new JsonSyntaxError(`expected ${what}, found ${found}`, i);
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) throw new JsonSyntaxError('control character in string (escape it)', i);
      i++;
    }
    if (i >= text.length) throw new JsonSyntaxError('unterminated string', start);
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      throw new JsonSyntaxError('invalid escape in string', start);
    }
  };
  const value = (p: JsonPath): unknown => {
    ws();
    if (!offsets.has(key(p))) offsets.set(key(p), i);
    const ch = text[i];
    if (ch === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a double-quoted key');
        const at = i;
        const k = str();
        offsets.set(key([...p, k]), at);
        ws();
        if (text[i] !== ':') fail('":"');
        i++;
        // As JSON.parse does: "__proto__" is an own key, never the object's prototype.
        Object.defineProperty(obj, k, { value: value([...p, k]), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail('"," or "}"');
      }
    }
    if (ch === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value([...p, arr.length]));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail('"," or "]"');
      }
    }
    if (ch === '"') return str();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      i += m[0].length;
      return Number(m[0]);
    }
    return fail('a value');
  };
  try {
    const v = value([]);
    ws();
    if (i < text.length) fail('end of file');
    const locate = (p: JsonPath): Position => {
      // The nearest recorded ancestor when the path itself is absent (e.g. a missing key).
      for (let n = p.length; n >= 0; n--) {
        const off = offsets.get(key(p.slice(0, n)));
        if (off !== undefined) return positionOf(text, off);
      }
      return { line: 1, column: 1 };
    };
    return { ok: true, value: v, locate };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { ok: false, message: e.message, position: positionOf(text, e.offset) };
    if (e instanceof RangeError) return { ok: false, message: 'nesting too deep', position: positionOf(text, i) };
    throw e;
  }
}
