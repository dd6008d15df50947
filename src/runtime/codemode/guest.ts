// The JavaScript a program's interpreter runs before the program: it takes the two host functions
// off the global object (so the program cannot call them with its own arguments) and builds
// `tools` and `console` from them. Values cross as JSON text only.
export const PROGRAM_FILE = 'program.js';

export const BOOTSTRAP = `(() => {
  'use strict';
  const call = globalThis.__wield_call;
  const print = globalThis.__wield_print;
  delete globalThis.__wield_call;
  delete globalThis.__wield_print;
  // Taken now: a program replacing them later changes nothing here.
  const stringify = JSON.stringify;
  const then = Promise.prototype.then;
  const show = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return String(value);
    try {
      const text = stringify(value, null, 2);
      return text === undefined ? String(value) : text;
    } catch {
      return String(value);
    }
  };
  // A plain loop: Array.prototype.map and join are the program's to replace.
  const log = (...values) => {
    let text = '';
    for (let i = 0; i < values.length; i++) text += (i === 0 ? '' : ' ') + show(values[i]);
    print(text);
  };
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });
  // A failed call rejects with the stack of the line that made it, so an uncaught one names it.
  const callTool = (name, input) => {
    const site = new Error();
    return then.call(call(name, input === undefined ? undefined : stringify(input)), undefined, (error) => {
      error.stack = site.stack;
      throw error;
    });
  };
  // Any name reaches wield's call path, so a misspelt or deferred tool gets wield's own answer.
  globalThis.tools = new Proxy(Object.freeze(Object.create(null)), {
    get: (_, name) => (typeof name === 'string' && name !== 'then' ? (input) => callTool(name, input) : undefined),
  });
})();`;

/**
 * The program as the body of an async function, so it may \`await\` at the top and \`return\`; on
 * the wrapper's first line, so the line numbers in errors are the program's own.
 */
export function wrapProgram(code: string): string {
  return `(async () => { 'use strict'; ${code}\n})()`;
}
