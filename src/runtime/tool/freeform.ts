// Freeform tools: the model writes raw text constrained by a grammar (the OpenAI Responses API's
// custom tools). Every other provider sees the same tool as a JSON function with one string
// parameter, `input`, so the tool always receives `{input: text}`; the grammar is checked here
// too, because only the Responses API enforces it while the model writes.
import { compileLark, matchLark, type LarkGrammar } from './lark.js';
import type { FreeformInput, JSONSchema } from './types.js';

export const FREEFORM_PARAMETER = 'input';

export type FreeformCheck = { ok: true } | { ok: false; message: string };

type Compiled = { kind: 'lark'; grammar: LarkGrammar } | { kind: 'regex'; re: RegExp };
const compiled = new WeakMap<FreeformInput, Compiled>();

function compile(freeform: FreeformInput): Compiled {
  const known = compiled.get(freeform);
  if (known) return known;
  // The whole text must match, as the API's constrained sampling produces only whole matches.
  const made: Compiled =
    freeform.syntax === 'lark'
      ? { kind: 'lark', grammar: compileLark(freeform.definition) }
      : { kind: 'regex', re: new RegExp(`^(?:${freeform.definition})$`, 'u') };
  compiled.set(freeform, made);
  return made;
}

/** Why the grammar cannot be used, or undefined (defineTool refuses a tool whose grammar fails). */
export function freeformProblem(freeform: FreeformInput): string | undefined {
  if (freeform.syntax !== 'lark' && freeform.syntax !== 'regex') return `freeform.syntax must be "lark" or "regex"`;
  try {
    compile(freeform);
    return undefined;
  } catch (error) {
    return `its ${freeform.syntax} grammar cannot be used: ${(error as Error).message}`;
  }
}

/** The schema of the JSON-function form: one required string parameter. */
export function freeformSchema(freeform: FreeformInput): JSONSchema {
  const description = freeform.description ?? `Raw text in the tool's format (a ${freeform.syntax} grammar)`;
  return {
    type: 'object',
    properties: { [FREEFORM_PARAMETER]: { type: 'string', description } },
    required: [FREEFORM_PARAMETER],
    additionalProperties: false,
  };
}

function where(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const near = text.slice(offset, offset + 30);
  return `line ${line}, column ${column} (${near === '' ? 'at the end of the text' : `at ${JSON.stringify(near)}`})`;
}

/** Checks a freeform text against its grammar, saying where it stops matching and what was expected. */
export function checkFreeform(toolName: string, freeform: FreeformInput, text: string): FreeformCheck {
  const grammar = compile(freeform);
  if (grammar.kind === 'regex') {
    if (grammar.re.test(text)) return { ok: true };
    return {
      ok: false,
      message: `${toolName}: the input does not match the tool's format, the regular expression /${freeform.definition}/. Send text that matches it whole.`,
    };
  }
  const match = matchLark(grammar.grammar, text);
  if (match.ok) return { ok: true };
  const expected = match.expected.slice(0, 6).join(', ');
  return {
    ok: false,
    message:
      `${toolName}: the input does not follow the tool's grammar: it stops matching at ${where(text, match.offset)}` +
      `${expected ? `, where it expects ${expected}` : ''}. Fix that part and send the whole text again.`,
  };
}
