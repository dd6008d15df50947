// Completion in the editor: `/` lists the slash commands (pi-tui's provider, which also completes
// paths on Tab), `/mcp__…` the connected servers' prompts (asked for when typed: listing them is
// a request to each server), `@` completes paths of the working folder (mentions.ts: pi-tui's own
// `@` search needs the `fd` program, which most machines lack).
import {
  type AutocompleteItem,
  type AutocompleteProvider,
  CombinedAutocompleteProvider,
  type SlashCommand,
} from '@mariozechner/pi-tui/dist/autocomplete.js';
import { completeMention } from './mentions.js';

/** An MCP prompt as a slash command: `/mcp__server__prompt`, with its arguments as the hint. */
export type PromptCommands = (signal: AbortSignal) => Promise<AutocompleteItem[]>;

export function createCompletion(cwd: string, commands: SlashCommand[], mcpPrompts?: PromptCommands): AutocompleteProvider {
  const slashAndPaths = new CombinedAutocompleteProvider(commands, cwd, null);
  return {
    async getSuggestions(lines, cursorLine, cursorCol, options) {
      const before = (lines[cursorLine] ?? '').slice(0, cursorCol);
      if (mcpPrompts && cursorLine === 0 && /^\/mcp_\S*$/.test(before)) {
        const typed = before.slice(1);
        const items = (await mcpPrompts(options.signal).catch(() => [])).filter((item) => item.value.startsWith(typed));
        return items.length === 0 ? null : { items, prefix: before };
      }
      if (!/(?:^|\s)@(?:"[^"]*|[^\s"]*)$/.test(before)) return slashAndPaths.getSuggestions(lines, cursorLine, cursorCol, options);
      const [hits, typed] = completeMention(before, cwd);
      // A name typed in full needs no list: Enter then sends the prompt instead of completing.
      if (hits.length === 0 || (hits.length === 1 && hits[0] === typed)) return null;
      return { items: hits.map((hit) => ({ value: hit, label: hit })), prefix: typed };
    },
    applyCompletion(lines, cursorLine, cursorCol, item, prefix) {
      return slashAndPaths.applyCompletion(lines, cursorLine, cursorCol, item, prefix);
    },
  };
}
