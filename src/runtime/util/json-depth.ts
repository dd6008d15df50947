// How deeply JSON text nests, counted without parsing it: a tool input nested thousands deep
// parses, but every later step that walks it recursively (encoding the history for the next
// request, the session log, validation) overflows the stack.

/** Deeper arguments are refused; real tool schemas nest a handful of levels. */
export const MAX_ARGUMENT_DEPTH = 100;

/** The deepest nesting of arrays and objects in the text (strings skipped); 0 for a scalar. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === '}' || char === ']') depth--;
  }
  return deepest;
}
