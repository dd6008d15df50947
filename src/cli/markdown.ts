// Answers rendered as markdown in the terminal (marked + marked-terminal: headings, emphasis,
// lists, tables, highlighted code), streamed a block at a time: text is held until a block ends
// (a blank line outside a code fence, or a fence's closing line), then rendered and written.
import type { MarkedExtension } from 'marked';

export type RenderMarkdown = (markdown: string) => string;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The complete blocks at the start of `buffer` (ready to render) and the text after them. */
export function splitReady(buffer: string): { ready: string; rest: string } {
  let fence: string | undefined;
  let end = 0;
  let at = 0;
  for (;;) {
    const newline = buffer.indexOf('\n', at);
    if (newline < 0) break;
    const line = buffer.slice(at, newline);
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = undefined;
        end = newline + 1;
      }
    } else if (marker !== undefined) {
      fence = marker;
    } else if (line.trim() === '') {
      end = newline + 1;
    }
    at = newline + 1;
  }
  return { ready: buffer.slice(0, end), rest: buffer.slice(end) };
}

export interface MarkdownStream {
  push(text: string): void;
  /** Renders whatever is held (the answer ended, or a tool call comes next). */
  flush(): void;
}

/**
 * Text is written a block at a time, rendered with the renderer of the moment: until it has loaded
 * (it loads after start-up, see interactive.ts), or if it fails, a block is written as it came.
 */
export function createMarkdownStream(render: () => RenderMarkdown | undefined, write: (text: string) => void): MarkdownStream {
  let buffer = '';
  const safe = (markdown: string): string => {
    const renderer = render();
    try {
      return renderer ? renderer(markdown) : markdown;
    } catch {
      return markdown;
    }
  };
  return {
    push(text) {
      buffer += text;
      const { ready, rest } = splitReady(buffer);
      if (ready.trim() !== '') write(safe(ready));
      if (ready !== '') buffer = rest;
    },
    flush() {
      if (buffer.trim() !== '') write(safe(buffer).replace(/\n+$/, '\n'));
      buffer = '';
    },
  };
}

/** Loaded on first use, off the start-up path (highlight.js is a few MB). */
export async function loadMarkdownRenderer(width: number): Promise<RenderMarkdown> {
  const [{ Marked }, { markedTerminal }] = await Promise.all([import('marked'), import('marked-terminal')]);
  const extension = markedTerminal({ width, reflowText: false, showSectionPrefix: false, tab: 2 }) as unknown as MarkedExtension;
  const marked = new Marked(extension, {
    // A link shows where it goes: marked-terminal would draw a terminal hyperlink whose text can
    // hide its target, and the screen would show that sequence as symbols anyway (terminal-text.ts).
    renderer: {
      link({ href, tokens }) {
        const text = this.parser.parseInline(tokens);
        return text === href ? href : `${text} (${href})`;
      },
      // marked-terminal writes a list item's text as it came (`code` and **bold** kept): its
      // inline parts are rendered here; other text falls back to marked-terminal (false).
      text(token) {
        return 'tokens' in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
      },
    },
  });
  return (markdown) => marked.parse(markdown, { async: false });
}
