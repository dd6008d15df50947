// How deeply JSON text nests, counted without parsing it: a tool input nested thousands deep
// parses, but every later step that walks it recursively (encoding the history for the next
// request, the session log, validation) overflows the stack.
// The scans pass over runs of ordinary characters with a sticky regular expression (native code)
// rather than reading every character in JavaScript: 2 MB of text without structure took ~25 ms
// read character by character and ~3 ms this way (twice per call: depth, then where it was cut).

/** Deeper arguments are refused; real tool schemas nest a handful of levels. */
export const MAX_ARGUMENT_DEPTH = 100;

// Runs of characters the scan passes over, outside strings and inside each kind of string.
const PLAIN = /[^"'{}[\]]+/y;
const STRING_BODY: Record<string, RegExp> = { '"': /[^"\\]+/y, "'": /[^'\\]+/y };
const STOPS = new Set([...`"'{}[]\\`].map((char) => char.charCodeAt(0)));

/** The first index from `i` on that is not in a run `run` matches (checked cheaply first: runs of brackets are common). */
function skipRun(run: RegExp, text: string, i: number): number {
  if (STOPS.has(text.charCodeAt(i))) return i;
  run.lastIndex = i;
  return run.test(text) ? run.lastIndex : i;
}

/**
 * Calls `visit` with each bracket outside strings, in order; strings open with any of `quotes`.
 * Returns the quote of a string still open at the end, if one is.
 */
export function scanStructure(text: string, quotes: string, visit: (bracket: string) => void): string | undefined {
  let quote: string | undefined;
  let i = 0;
  while (i < text.length) {
    i = skipRun(quote === undefined ? PLAIN : (STRING_BODY[quote] as RegExp), text, i);
    if (i >= text.length) break;
    const char = text[i] as string;
    if (quote !== undefined) {
      if (char === '\\') i++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      if (quotes.includes(char)) quote = char;
    } else if (char !== '\\') visit(char);
    i++;
  }
  return quote;
}

/** The deepest nesting of arrays and objects in the text (strings skipped); 0 for a scalar. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  scanStructure(text, '"', (bracket) => {
    if (bracket === '{' || bracket === '[') deepest = Math.max(deepest, ++depth);
    else depth--;
  });
  return deepest;
}
