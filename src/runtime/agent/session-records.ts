// The shape of each session-log record, checked on load: a line that is valid JSON but not a
// usable record (`{"type":"message","message":null}`, a hand edit, a record from a newer wield)
// is skipped and named rather than taken down the resume. Loose objects: fields added later pass.
import { z } from 'zod';

const text = z.looseObject({ type: z.literal('text'), text: z.string() });
const image = z.looseObject({ type: z.literal('image'), mediaType: z.string(), data: z.string() });
const block = z.union([text, image]);
const toolResult = z.looseObject({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  toolName: z.string(),
  content: z.array(block),
  isError: z.boolean(),
});
const toolUse = z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });
const thinking = z.union([
  z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() }),
]);
const message = z.union([
  z.looseObject({ role: z.literal('user'), content: z.array(z.union([block, toolResult])) }),
  z.looseObject({ role: z.literal('assistant'), content: z.array(z.union([text, toolUse, thinking])) }),
]);

const RECORD_SCHEMAS: Record<string, z.ZodType> = {
  session: z.looseObject({ version: z.number(), id: z.string(), cwd: z.string(), createdAt: z.string() }),
  message: z.looseObject({ message }),
  history: z.looseObject({ reason: z.string(), messages: z.array(message) }),
  tool_end: z.looseObject({ toolUseId: z.string(), toolName: z.string(), isError: z.boolean() }),
  permission: z.looseObject({ toolUseId: z.string(), toolName: z.string(), decision: z.looseObject({ behavior: z.string() }) }),
  file: z.looseObject({ path: z.string() }),
  answer: z.looseObject({ questions: z.array(z.string()), answers: z.union([z.array(z.array(z.string())), z.null()]) }),
};

export const RECORD_TYPES: readonly string[] = Object.keys(RECORD_SCHEMAS);

/** Why a parsed line is not a usable record (its first problem, with where), or undefined when it is. */
export function recordProblem(value: unknown): string | undefined {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  const schema = typeof type === 'string' ? RECORD_SCHEMAS[type] : undefined;
  if (schema === undefined) return `not a session record (expected "type" to be one of ${RECORD_TYPES.join(', ')})`;
  const checked = schema.safeParse(value);
  if (checked.success) return undefined;
  const issue = checked.error.issues[0];
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the record';
  return `a "${type}" record of the wrong shape (${where}: ${issue.message})`;
}
