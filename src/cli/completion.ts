// Completion in the editor: `/` lists the slash commands (pi-tui's provider, which also completes
// paths on Tab), `@` completes paths of the working folder (mentions.ts: pi-tui's own `@` search
// needs the `fd` program, which most machines lack).
import { type AutocompleteProvider, CombinedAutocompleteProvider, type SlashCommand } from '@mariozechner/pi-tui/dist/autocomplete.js';
import { completeMention } from './mentions.js';

export function createCompletion(cwd: string, commands: SlashCommand[]): AutocompleteProvider {
  const slashAndPaths = new CombinedAutocompleteProvider(commands, cwd, null);
  return {
    async getSuggestions(lines, cursorLine, cursorCol, options) {
      const before = (lines[cursorLine] ?? '').slice(0, cursorCol);
      if (!/(?:^|\s)@[^\s"]*$/.test(before)) return slashAndPaths.getSuggestions(lines, cursorLine, cursorCol, options);
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
