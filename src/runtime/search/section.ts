// The system prompt section for deferred tools: one line per server (tool count + what it
// offers), never one line per tool, so the first request grows with servers, not tools. When
// there are many servers the summaries shrink, then the list is cut at a character budget.
import type { AnyTool } from '../tool/types.js';
import { oneLine, ownName } from './doc.js';
import { splitWords } from './tokenize.js';

export interface SectionOptions {
  serverDescriptions?: Readonly<Record<string, string>>;
  maxChars?: number;
  cwd?: string;
}

// 10,000 characters keeps the first request (core tools ~6 KB + this) under 20 KB at any pool size.
export const DEFAULT_SECTION_CHARS = 10_000;
/** Summary lengths tried in order until the section fits (0: a line with the count only). */
const SUMMARY_LENGTHS = [160, 80, 0];
/** Words taken from each tool's description for a derived server summary. */
const WORDS_PER_TOOL = 5;
const OTHER_GROUP = 'other';

const HEADER = [
  '# Deferred tools',
  'More tools are available than are listed in your tool definitions. Load them with the ToolSearch tool:',
  '- {"query": "words describing the task"} searches names, descriptions and parameters (plain words or keywords);',
  '- "+word ..." requires the word in the tool name, e.g. "+github issue";',
  '- "select:NameA,NameB" loads exact names.',
  'Tools it returns can be called from your next request on. A deferred tool can also be called directly by its exact name.',
];

interface Group {
  name: string;
  tools: AnyTool[];
}

function groupByServer(tools: readonly AnyTool[]): Group[] {
  const groups = new Map<string, AnyTool[]>();
  for (const tool of tools) {
    const key = tool.server ?? OTHER_GROUP;
    groups.set(key, [...(groups.get(key) ?? []), tool]);
  }
  // Sorted by name so the text is stable whatever order servers connected in.
  return [...groups].map(([name, list]) => ({ name, tools: list })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function describe(tool: AnyTool, cwd: string): string {
  try {
    return tool.description({ cwd });
  } catch {
    return '';
  }
}

/** Derived summary: the first words of each tool's description (or its name when it has none). */
export function deriveSummary(tools: readonly AnyTool[], maxChars: number, cwd = process.cwd()): string {
  const pieces: string[] = [];
  let length = 0;
  for (const tool of tools) {
    const words = oneLine(describe(tool, cwd))
      .replace(/[.:;]+$/, '')
      .split(' ')
      .filter(Boolean);
    const piece = (words.length > 0 ? words : splitWords(ownName(tool.name, tool.server))).slice(0, WORDS_PER_TOOL).join(' ');
    if (!piece || pieces.includes(piece)) continue;
    length += piece.length + 2;
    if (length > maxChars && pieces.length > 0) break;
    pieces.push(piece);
  }
  return oneLine(pieces.join('; '), maxChars);
}

function line(group: Group, summaryChars: number, opts: SectionOptions): string {
  const cwd = opts.cwd ?? process.cwd();
  const count = `${group.tools.length} ${group.tools.length === 1 ? 'tool' : 'tools'}`;
  if (group.name === OTHER_GROUP) {
    const names = group.tools.map((t) => t.name).join(', ');
    return `- ${OTHER_GROUP} (${count}): ${summaryChars > 0 ? oneLine(names, summaryChars) : names.slice(0, 200)}`;
  }
  if (summaryChars === 0) return `- ${group.name} (${group.tools.length})`;
  const configured = opts.serverDescriptions?.[group.name];
  const summary = configured ? oneLine(configured, summaryChars) : deriveSummary(group.tools, summaryChars, cwd);
  return summary ? `- ${group.name} (${count}): ${summary}` : `- ${group.name} (${count})`;
}

export function renderDeferredSection(deferred: readonly AnyTool[], opts: SectionOptions = {}): string {
  if (deferred.length === 0) return '';
  const maxChars = opts.maxChars ?? DEFAULT_SECTION_CHARS;
  const groups = groupByServer(deferred);
  const intro = [...HEADER, `Deferred tools by server (${groups.length} groups, ${deferred.length} tools):`];
  for (const summaryChars of SUMMARY_LENGTHS) {
    const text = [...intro, ...groups.map((g) => line(g, summaryChars, opts))].join('\n');
    if (text.length <= maxChars) return text;
  }
  // Names only, as one comma-separated paragraph (a line per server costs more).
  const compact = [...intro, groups.map((g) => `${g.name} (${g.tools.length})`).join(', ')].join('\n');
  if (compact.length <= maxChars) return compact;
  // Still too long: keep the largest servers that fit and say how many were left out.
  const ranked = [...groups].sort((a, b) => b.tools.length - a.tools.length);
  const kept = new Set<Group>();
  let length = intro.join('\n').length + 120;
  for (const group of ranked) {
    length += line(group, 0, opts).length + 1;
    if (length > maxChars) break;
    kept.add(group);
  }
  const left = groups.filter((g) => !kept.has(g));
  const leftTools = left.reduce((n, g) => n + g.tools.length, 0);
  return [
    ...intro,
    ...groups.filter((g) => kept.has(g)).map((g) => line(g, 0, opts)),
    `- …and ${left.length} more servers (${leftTools} tools); ToolSearch searches them too.`,
  ].join('\n');
}
