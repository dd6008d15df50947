// Hook matchers on tool names, as Claude Code writes them: empty or `*` = every tool, plain
// names (optionally `a|b`) compare exactly, anything else is a regular expression that must
// match the whole name (so `Edit` never fires for `NotebookEdit`).

const PLAIN = /^[A-Za-z0-9_|-]+$/;
const compiled = new Map<string, RegExp | null>();

function regexOf(matcher: string): RegExp | null {
  let re = compiled.get(matcher);
  if (re === undefined) {
    try {
      re = new RegExp(`^(?:${matcher})$`);
    } catch {
      re = null;
    }
    compiled.set(matcher, re);
  }
  return re;
}

/** Why a matcher is unusable, or undefined when it is fine. */
export function matcherError(matcher: string): string | undefined {
  if (matcher === '' || matcher === '*' || PLAIN.test(matcher)) return undefined;
  return regexOf(matcher)
    ? undefined
    : `matcher ${JSON.stringify(matcher)} is not a valid regular expression; use a tool name, \`A|B\`, \`*\` or a regex like \`mcp__github__.*\``;
}

export function matchesTool(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (PLAIN.test(matcher)) return matcher.split('|').includes(toolName);
  return regexOf(matcher)?.test(toolName) ?? false;
}
