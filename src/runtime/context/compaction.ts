// Compaction: what is summarised, what stays verbatim, and the history that results. Pure.
// The older part (everything before the last KEEP_TURNS assistant turns) becomes one user message:
// the user's prompts verbatim, one line per tool call (files read, written and edited, spill files,
// commands and exit codes) and the model's summary. The split falls right before an assistant
// turn, so every tool_use and its tool_result land on the same side.
import type { AssistantPart, Message, UserPart } from '../providers/types.js';
import { callLine, CLEARED_PREFIX, keptFrom } from './clearing.js';

export interface CompactionPolicy {
  /** Share of the window past which compaction runs before the next request. */
  trigger: number;
  /** Assistant turns at the end kept verbatim. */
  keepTurns: number;
}

export const DEFAULT_COMPACTION: CompactionPolicy = { trigger: 0.85, keepTurns: 2 };

/** Characters of each tool result shown to the summarising model. */
const TRANSCRIPT_RESULT_CHARS = 2_000;

export const COMPACTED_HEADER = '[This conversation was compacted to fit the context window: its earlier part is summarised below.]';

export const SUMMARY_SYSTEM =
  'You summarise the earlier part of a coding session so the work can continue without it. Write a dense summary: ' +
  'the goal, decisions made, what was learned about the code (names, paths, behaviours), what was changed, and what ' +
  'is left to do. Do not call tools; do not address the user.';

export interface CompactionSplit {
  older: Message[];
  kept: Message[];
}

/** Undefined when there is nothing old enough to summarise. */
export function splitForCompaction(messages: readonly Message[], keepTurns: number): CompactionSplit | undefined {
  let at = keptFrom(messages, keepTurns);
  // The kept part must start with an assistant turn whose results follow it.
  while (at > 0 && messages[at].role !== 'assistant') at--;
  if (at <= 0) return undefined;
  return { older: messages.slice(0, at), kept: messages.slice(at) };
}

type ToolResult = Extract<UserPart, { type: 'tool_result' }>;
type ToolUse = Extract<AssistantPart, { type: 'tool_use' }>;

function resultText(result: ToolResult | undefined): string {
  return (result?.content ?? []).map((block) => (block.type === 'text' ? block.text : `[image ${block.mediaType}]`)).join('\n');
}

const SPILL_FILE = /saved in (\S+?)[.;]? /g;
const EXIT_CODE = /\[exit code (\S+?)\]/;

function stringField(input: unknown, key: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/** One line per call: what it did to which file or command, how it ended, where its full output is. */
export function toolFact(use: ToolUse, result: ToolResult | undefined): string {
  const text = resultText(result);
  const file = stringField(use.input, 'file_path');
  const verb = { Read: 'read', Write: 'wrote', Edit: 'edited' }[use.name];
  let line: string;
  if (verb !== undefined && file !== undefined) line = `${verb} ${file}`;
  else if (use.name === 'Bash')
    line = `ran \`${stringField(use.input, 'command') ?? '?'}\` (exit code ${EXIT_CODE.exec(text)?.[1] ?? 'not shown'})`;
  else line = `called ${callLine(use.name, use.input)}`;
  if (result?.isError) line += ` — failed: ${text.split('\n')[0].slice(0, 160)}`;
  const spills = [...text.matchAll(SPILL_FILE)].map((match) => match[1]);
  if (spills.length > 0) line += ` — full output in ${[...new Set(spills)].join(', ')}`;
  return `- ${line}`;
}

function resultsById(messages: readonly Message[]): Map<string, ToolResult> {
  const byId = new Map<string, ToolResult>();
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const part of message.content) if (part.type === 'tool_result') byId.set(part.toolUseId, part);
  }
  return byId;
}

export function toolFacts(older: readonly Message[]): string[] {
  const results = resultsById(older);
  return older.flatMap((message) =>
    message.role === 'assistant'
      ? message.content.filter((part): part is ToolUse => part.type === 'tool_use').map((use) => toolFact(use, results.get(use.id)))
      : [],
  );
}

/** The user's own words in the older part (prompts, hook feedback; a previous compaction's header is left out). */
export function userPrompts(older: readonly Message[]): string[] {
  return older.flatMap((message) =>
    message.role === 'user'
      ? message.content.flatMap((part) => (part.type === 'text' && !part.text.startsWith(COMPACTED_HEADER) ? [part.text] : []))
      : [],
  );
}

/** The older part as text for the summarising request, each tool result shortened. */
export function transcript(older: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of older) {
    for (const part of message.content) {
      if (part.type === 'text') lines.push(`${message.role === 'user' ? 'User' : 'Assistant'}: ${part.text}`);
      else if (part.type === 'tool_use') lines.push(`Assistant called ${callLine(part.name, part.input)}`);
      else if (part.type === 'tool_result') {
        const text = resultText(part);
        const shown =
          text.startsWith(CLEARED_PREFIX) || text.length <= TRANSCRIPT_RESULT_CHARS ? text : `${text.slice(0, TRANSCRIPT_RESULT_CHARS)}…`;
        lines.push(`Result of ${part.toolName}${part.isError ? ' (error)' : ''}: ${shown}`);
      } else if (part.type === 'image') lines.push(`User: [image ${part.mediaType}]`);
    }
  }
  return lines.join('\n');
}

export function summaryRequestText(older: readonly Message[]): string {
  return `Summarise this earlier part of the session:\n\n<transcript>\n${transcript(older)}\n</transcript>`;
}

const PROMPTS_HEADING = "## The user's messages so far (verbatim)";
const FACTS_HEADING = '## Tool calls so far';

/** A section's body in an earlier compacted message, so a second compaction carries it forward. */
function section(text: string, heading: string): string | undefined {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) return undefined;
  const body = text.slice(start + heading.length + 1);
  const end = body.search(/\n\n## /);
  return end < 0 ? body : body.slice(0, end);
}

function earlierSections(older: readonly Message[], heading: string): string[] {
  const first = older[0]?.content[0];
  if (first?.type !== 'text' || !first.text.startsWith(COMPACTED_HEADER)) return [];
  const body = section(first.text, heading);
  return body === undefined ? [] : [body];
}

/** The compacted history: one user message standing for the older part, then the kept turns. */
export function compactedHistory(split: CompactionSplit, summary: string): Message[] {
  const prompts = [
    ...earlierSections(split.older, PROMPTS_HEADING),
    ...userPrompts(split.older).map((p) => `> ${p.replace(/\n/g, '\n> ')}`),
  ];
  const facts = [...earlierSections(split.older, FACTS_HEADING), ...toolFacts(split.older)];
  const sections = [COMPACTED_HEADER];
  if (prompts.length > 0) sections.push(`${PROMPTS_HEADING}\n${prompts.join('\n\n')}`);
  if (facts.length > 0) sections.push(`${FACTS_HEADING}\n${facts.join('\n')}`);
  sections.push(`## Summary\n${summary.trim()}`);
  return [{ role: 'user', content: [{ type: 'text', text: sections.join('\n\n') }] }, ...split.kept];
}
