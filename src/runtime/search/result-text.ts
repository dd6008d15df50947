// The text a ToolSearch call returns, and reading the found names back out of the history.
// The loaded set is derived from these results (not kept in memory), so resuming a session from
// its messages restores exactly the tools the model had found. Each found tool is on its own
// line, `N. <name> ...`; descriptions are one line, so no other line can look like one.
import type { Message } from '../providers/types.js';
import type { SearchResult } from './tool-index.js';

export const TOOL_SEARCH_NAME = 'ToolSearch';

const FOUND_LINE = /^\d+\. ([A-Za-z0-9_-]{1,64})(?: |$)/gm;

/** Which tool sources are still connecting (their tools are not in the index yet). */
function connectingNote(connecting: readonly string[]): string {
  if (connecting.length === 0) return '';
  const one = connecting.length === 1;
  const names = connecting.map((name) => `"${name}"`).join(', ');
  return `MCP server${one ? '' : 's'} ${names} ${one ? 'is' : 'are'} still connecting; ${one ? 'its' : 'their'} tools are not searchable yet. Search again in a moment.`;
}

export function formatSearchResult(query: string, result: SearchResult, connecting: readonly string[] = []): string {
  const lines: string[] = [];
  if (result.hits.length > 0) {
    const noun = result.hits.length === 1 ? 'tool' : 'tools';
    lines.push(`Found ${result.hits.length} ${noun}; their full definitions are available from your next request on. Call them by name.`);
    result.hits.forEach((hit, i) => {
      const server = hit.server ? ` [${hit.server}]` : '';
      const description = hit.description ? ` — ${hit.description}` : '';
      lines.push(`${i + 1}. ${hit.name}${server}${description}`);
    });
  }
  for (const miss of result.unknown) {
    const hint = miss.suggestions.length > 0 ? ` Did you mean ${miss.suggestions.map((s) => `"${s}"`).join(' or ')}?` : '';
    lines.push(`No tool named "${miss.name}".${hint}`);
  }
  const still = connectingNote(connecting);
  if (lines.length === 0 && still) return `Nothing found for "${query.slice(0, 200)}" yet: ${still}`;
  if (lines.length === 0) {
    lines.push(
      `No tools matched "${query.slice(0, 200)}". Try other or fewer words (e.g. the service or action name), ` +
        `"+word" to require a word in the name, or "select:Name" for an exact name.`,
    );
  }
  if (still) lines.push(still);
  return lines.join('\n');
}

/** Names found by a ToolSearch result text, in listed order. */
export function namesInResultText(text: string): string[] {
  return [...text.matchAll(FOUND_LINE)].map((m) => m[1]);
}

/** Names listed by the successful ToolSearch results in a history, in first-seen order. */
export function searchFoundNames(messages: readonly Message[]): string[] {
  const seen = new Set<string>();
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type !== 'tool_result' || part.toolName !== TOOL_SEARCH_NAME || part.isError) continue;
      for (const block of part.content) if (block.type === 'text') for (const name of namesInResultText(block.text)) seen.add(name);
    }
  }
  return [...seen];
}

/**
 * Tools the model has discovered, in first-seen order: names listed by successful ToolSearch
 * results, and names of tools it called directly (a deferred tool may be called without a search).
 */
export function discoveredToolNames(messages: readonly Message[]): string[] {
  const seen = new Set<string>();
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === 'tool_result' && part.toolName === TOOL_SEARCH_NAME && !part.isError) {
        for (const block of part.content) {
          if (block.type === 'text') for (const name of namesInResultText(block.text)) seen.add(name);
        }
      } else if (part.type === 'tool_use') {
        seen.add(part.name);
      }
    }
  }
  return [...seen];
}
