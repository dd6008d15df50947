// The ToolSearch tool: the model's way to load deferred tools. Read-only and concurrency-safe;
// the loaded set follows from its result text in the history (see result-text.ts).
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool/define.js';
import type { Tool } from '../tool/types.js';
import { formatSearchResult, TOOL_SEARCH_NAME } from './result-text.js';
import type { SearchResult, ToolIndex } from './tool-index.js';

export const DEFAULT_MAX_RESULTS = 5;
export const MAX_RESULTS = 50;

const input = z.object({
  query: z
    .string()
    .trim()
    .min(1, 'query must not be empty: send words describing the task, "+word" terms, or "select:Name1,Name2"')
    .describe('Words describing the task, or "select:NameA,NameB" for exact names; "+word" requires a word in the tool name'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(MAX_RESULTS)
    .optional()
    .describe(`How many tools to return (1-${MAX_RESULTS}, default ${DEFAULT_MAX_RESULTS})`),
});

export type ToolSearchInput = z.infer<typeof input>;

export interface ToolSearchOutput {
  query: string;
  result: SearchResult;
  /** MCP servers still connecting when the search ran: their tools were not searchable yet. */
  connecting?: string[];
}

export interface ToolSearchOptions {
  /**
   * Waits (bounded) for tool sources still connecting, e.g. MCP servers, and returns the names of
   * those still connecting when it stops; the search runs after it.
   */
  waitForSources?: (signal: AbortSignal) => Promise<string[]>;
}

const DESCRIPTION =
  'Find and load deferred tools (listed by server in the system prompt). Returns matching tool names with ' +
  'one-line descriptions; their full definitions are available from your next request on. Query with plain ' +
  'words ("create a github issue"), "+word" to require a word in the tool name ("+slack send"), or ' +
  '"select:NameA,NameB" to load exact names.';

export function createToolSearchTool(getIndex: () => ToolIndex, options: ToolSearchOptions = {}): Tool<ToolSearchInput, ToolSearchOutput> {
  return defineTool<ToolSearchInput, ToolSearchOutput>({
    name: TOOL_SEARCH_NAME,
    source: 'builtin',
    searchHint: 'find load discover deferred tools',
    description: DESCRIPTION,
    inputSchema: input,
    ...READ_ONLY,
    checkPermissions: () => ({ behavior: 'allow' }),
    async call({ query, max_results }, ctx) {
      const connecting = (await options.waitForSources?.(ctx.signal)) ?? [];
      const result = await getIndex().searchReranked(query, max_results ?? DEFAULT_MAX_RESULTS, ctx.signal);
      return { query, result, ...(connecting.length > 0 ? { connecting } : {}) };
    },
    toModel: (output) => ({
      content: [{ type: 'text', text: formatSearchResult(output.query, output.result, output.connecting) }],
      // A select: with only unknown names is a mistake the model should fix.
      isError: output.result.hits.length === 0 && output.result.unknown.length > 0,
    }),
    toDisplay: (output) => output.result.hits.map((h) => h.name).join(', ') || 'no tools found',
  });
}
