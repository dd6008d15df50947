// Multi-line paste in the readline prompt. The terminal is put in bracketed-paste mode, so a paste
// arrives between `paste-start` and `paste-end` keys (Node's keypress parser names them); the
// lines readline splits it into are held, not sent one by one, and go as one prompt with the next
// Enter. Pure state; interactive.ts feeds it keys and lines.
// Hand-written (about 40 lines) on top of node:readline rather than a TUI library for now: moving
// the whole prompt loop to pi-tui 0.73 or Ink 6 (both run on Node 20) also means redoing the
// permission, question, trust and session-picker prompts, not done in this round; readline keeps
// the first prompt at ~300 ms from spawn on this machine (BENCHMARKS.md, CLI).

/** Sent to the terminal to turn bracketed paste on and off (xterm, tmux, most emulators). */
export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';

export interface PasteState {
  start(): void;
  /** The paste ended with `rest` still in the editor: the held text, or undefined for a one-line paste (left to edit). */
  end(rest: string): string | undefined;
  /** A line readline produced: undefined while it belongs to a paste, else the prompt to submit. */
  line(input: string): string | undefined;
}

export function createPasteState(): PasteState {
  let pasting = false;
  let lines: string[] = [];
  let held: string | undefined;
  return {
    start() {
      pasting = true;
      lines = [];
    },
    end(rest) {
      pasting = false;
      if (lines.length === 0) return undefined;
      const text = [...lines, ...(rest === '' ? [] : [rest])].join('\n');
      lines = [];
      held = held === undefined ? text : `${held}\n${text}`;
      return held;
    },
    line(input) {
      if (pasting) {
        lines.push(input);
        return undefined;
      }
      if (held === undefined) return input;
      const text = input.trim() === '' ? held : `${held}\n${input}`;
      held = undefined;
      return text;
    },
  };
}
