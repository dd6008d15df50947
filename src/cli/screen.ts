// The interactive terminal, on pi-tui: the transcript (everything the session printed, kept in
// the terminal's scrollback), a live line (the spinner), the editor, and a status line under it.
// pi-tui was chosen over Ink 6 for start-up: importing its parts takes ~55–80 ms here, Ink 6 with
// React 19 ~330–430 ms (unbundled, same machine; BENCHMARKS.md has the bundled start-up). Its
// differential renderer redraws only what changed, below the last unchanged line, so the
// transcript scrolls as plain terminal output; its editor brings multi-line input, bracketed
// paste, history, undo and completion.
// Deep imports: the package index also loads its Markdown and image components (marked, the
// image decoders), which wield does not use here.
import { Editor, type EditorTheme } from '@mariozechner/pi-tui/dist/components/editor.js';
import { matchesKey } from '@mariozechner/pi-tui/dist/keys.js';
import { ProcessTerminal } from '@mariozechner/pi-tui/dist/terminal.js';
import { type Component, TUI } from '@mariozechner/pi-tui/dist/tui.js';
import { truncateToWidth, wrapTextWithAnsi } from '@mariozechner/pi-tui/dist/utils.js';
import type { AutocompleteProvider } from '@mariozechner/pi-tui/dist/autocomplete.js';
import { StringDecoder } from 'node:string_decoder';
import { styleText } from 'node:util';
import { terminalText } from './terminal-text.js';

/** After this long without being stopped, a Ctrl-Z did not suspend. */
const SUSPEND_CHECK_MS = 100;

/** Longer than pi-tui's minimum time between frames (16 ms), so the last frame is drawn before stopping. */
const FRAME_WAIT_MS = 40;

type Style = Parameters<typeof styleText>[0];

/** Keys the session acts on; the rest edit the prompt. `expand`: Ctrl-O; `mode`: Shift-Tab. */
export type ScreenKey = 'interrupt' | 'escape' | 'eof' | 'expand' | 'mode';

/** An answer taken with one key (its number) or with the arrows and Enter; Esc gives the `escape` one. */
export interface Choice {
  /** What the question's promise resolves to, as if typed. */
  answer: string;
  label: string;
  escape?: boolean;
}

export interface ScreenOptions {
  color: boolean;
  /** Prompts typed before, newest first (Up recalls them). */
  history: readonly string[];
  complete?: AutocompleteProvider;
  /** A prompt was submitted (never while a question waits for its answer). */
  onSubmit: (text: string) => void;
  /** Ctrl-C, Esc (when no completion list is open), Ctrl-D on an empty editor, Ctrl-O, Shift-Tab; true when handled. */
  onKey: (key: ScreenKey) => boolean;
}

export interface Screen {
  /** Appends to the transcript; text without a final newline stays open for more. */
  write(text: string): void;
  /** A whole line (a line break first if the transcript's last line is open). */
  line(text: string): void;
  /** The line above the editor (the spinner); undefined hides it. */
  setLive(text: string | undefined): void;
  /** The line under the editor: model, context, cost. */
  setStatus(text: string): void;
  /**
   * One answer from the person: `label` is shown above the editor until the next Enter. Questions
   * queue; `intro` (what is being asked about) is written when this one's turn comes, so the text
   * above the editor is always the question being answered. With `choices`, a number key, or the
   * arrows and Enter on an empty editor, answer at once; typed text still answers as typed.
   */
  ask(label: string, signal?: AbortSignal, intro?: string, choices?: readonly Choice[]): Promise<string>;
  /** Puts text back in the editor, before what was typed since (a prompt that was queued). */
  restoreInput(text: string): void;
  addHistory(text: string): void;
  /** Empties the editor; false when it was empty already. */
  clearInput(): boolean;
  /** Takes the editor off the screen and gives the terminal back; later output goes to stdout as usual. */
  stop(): Promise<void>;
}

/** Lines no wider than `width`: wrapped at words, and cut where a word alone is wider. */
function wrapToWidth(line: string, width: number): string[] {
  if (line === '') return [''];
  return wrapTextWithAnsi(line, width).map((part) => truncateToWidth(part, width, ''));
}

/**
 * Everything printed, as lines; the last one may still be open (a streamed answer). Wrapped lines
 * are kept per width, so a frame wraps only what was added since the last one.
 */
export class Transcript implements Component {
  private closed: string[] = [];
  private open = '';
  private width = 0;
  private wrapped: string[] = [];
  private wrappedCount = 0;

  append(text: string): void {
    const parts = terminalText(text).split('\n');
    this.open += parts[0];
    for (const part of parts.slice(1)) {
      this.closed.push(this.open);
      this.open = part;
    }
  }

  endsOpen(): boolean {
    return this.open !== '';
  }

  render(width: number): string[] {
    if (width !== this.width) this.invalidate(width);
    for (; this.wrappedCount < this.closed.length; this.wrappedCount++)
      this.wrapped.push(...wrapToWidth(this.closed[this.wrappedCount], width));
    return this.open === '' ? this.wrapped : [...this.wrapped, ...wrapToWidth(this.open, width)];
  }

  invalidate(width = 0): void {
    this.width = width;
    this.wrapped = [];
    this.wrappedCount = 0;
  }
}

/** One line, or nothing; `wrap` keeps all of it (a question's label), else it is cut to the width. */
class OneLine implements Component {
  text: string | undefined;
  constructor(private readonly wrap = false) {}
  render(width: number): string[] {
    if (this.text === undefined) return [];
    return terminalText(this.text)
      .split('\n')
      .flatMap((text) => (this.wrap ? wrapToWidth(text, width) : [truncateToWidth(text, width)]));
  }
  invalidate(): void {}
}

/** A stream's `write` that appends to `append` instead, as a stream's would behave for its callers. */
export function streamInto(append: (text: string) => void): typeof process.stderr.write {
  // One decoder for the whole stream: a character split between two writes still reads whole.
  const decoder = new StringDecoder('utf8');
  return ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    append(typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk)));
    // Callers waiting for the write (`write(chunk, cb)`, `write(chunk, encoding, cb)`) get their callback.
    const done = rest.find((arg): arg is () => void => typeof arg === 'function');
    if (done) queueMicrotask(done);
    return true;
  }) as typeof process.stderr.write;
}

export function openScreen(options: ScreenOptions): Screen {
  const { color } = options;
  const paint = (style: Style, text: string): string => (color ? styleText(style, text, { validateStream: false }) : text);
  const tui = new TUI(new ProcessTerminal());
  const transcript = new Transcript();
  const live = new OneLine();
  const label = new OneLine(true);
  const status = new OneLine();
  const theme: EditorTheme = {
    borderColor: (text) => paint('gray', text),
    selectList: {
      selectedPrefix: (text) => paint('cyan', text),
      selectedText: (text) => paint('cyan', text),
      description: (text) => paint('gray', text),
      scrollInfo: (text) => paint('gray', text),
      noMatch: (text) => paint('gray', text),
    },
  };
  const editor = new Editor(tui, theme);
  if (options.complete) editor.setAutocompleteProvider(options.complete);
  for (const entry of [...options.history].reverse()) editor.addToHistory(entry);
  for (const part of [transcript, live, label, editor, status]) tui.addChild(part);
  tui.setFocus(editor);

  const write = (text: string): void => {
    if (text === '') return;
    transcript.append(text);
    tui.requestRender();
  };

  // Questions are answered one at a time, in the order asked; what was being typed waits aside.
  type Question = { label: string; intro?: string; choices?: readonly Choice[]; selected: number; resolve: (answer: string) => void };
  const questions: Question[] = [];
  let draft: string | undefined;
  const labelLines = (question: Question): string[] => [
    paint('yellow', question.label),
    ...(question.choices ?? []).map((choice, i) =>
      i === question.selected ? paint('cyan', `❯ ${i + 1}. ${choice.label}`) : `  ${i + 1}. ${choice.label}`,
    ),
  ];
  const showQuestion = (): void => {
    const current = questions[0];
    if (current?.intro !== undefined) {
      write(current.intro);
      current.intro = undefined;
    }
    label.text = current ? labelLines(current).join('\n') : undefined;
    editor.borderColor = current ? (text) => paint('yellow', text) : theme.borderColor;
    if (current && draft === undefined) {
      draft = editor.getExpandedText();
      editor.setText('');
    }
    if (!current && draft !== undefined) {
      editor.setText(draft);
      draft = undefined;
    }
    tui.requestRender();
  };

  /** Answers the current question; `shown` is what the transcript records as the answer. */
  const answer = (text: string, shown = text): void => {
    const current = questions.shift();
    if (!current) return;
    write(`${current.label}${shown}\n`);
    showQuestion();
    current.resolve(text);
  };
  const pick = (question: Question, index: number): void => {
    const choice = question.choices?.[index];
    if (choice) answer(choice.answer, `${index + 1}. ${choice.label}`);
  };
  /**
   * A key for the question with choices: Esc gives its `escape` answer (whatever was typed), and
   * while the editor is empty a number answers, Enter takes the highlighted answer and the arrows
   * move it. True when the key was used.
   */
  const choiceKey = (data: string): boolean => {
    const current = questions[0];
    const choices = current?.choices;
    if (!current || !choices) return false;
    const no = choices.findIndex((choice) => choice.escape);
    if (matchesKey(data, 'escape') && no >= 0 && !editor.isShowingAutocomplete()) {
      editor.setText('');
      pick(current, no);
      return true;
    }
    if (editor.getText() !== '') return false;
    const number = /^[1-9]$/.test(data) ? Number(data) : 0;
    if (number >= 1 && number <= choices.length) pick(current, number - 1);
    else if (matchesKey(data, 'enter')) pick(current, current.selected);
    else if (matchesKey(data, 'up') || matchesKey(data, 'down')) {
      current.selected = (current.selected + (matchesKey(data, 'up') ? choices.length - 1 : 1)) % choices.length;
      showQuestion();
    } else return false;
    return true;
  };

  editor.onSubmit = (text) => {
    if (questions.length > 0) answer(text);
    else options.onSubmit(text);
  };
  // Ctrl-Z suspends, as in a shell: the terminal is given back, and taken again (redrawn) on `fg`.
  const suspend = (): void => {
    tui.stop();
    let resumed = false;
    const resume = (): void => {
      if (resumed) return;
      resumed = true;
      process.off('SIGCONT', resume);
      tui.start();
      tui.requestRender(true);
    };
    process.on('SIGCONT', resume);
    const asked = performance.now();
    process.kill(process.pid, 'SIGTSTP');
    // With no job-control shell above it (an orphaned process group) SIGTSTP is discarded and
    // nothing stops: the screen comes back at once, saying why. The timer also keeps the process
    // alive while it is stopped (the terminal's input is paused then).
    setTimeout(() => {
      const stopped = performance.now() - asked > SUSPEND_CHECK_MS * 2;
      resume();
      if (!stopped) write('Ctrl-Z: not suspended (wield was not started from a shell with job control)\n');
    }, SUSPEND_CHECK_MS);
  };
  tui.addInputListener((data) => {
    if (matchesKey(data, 'ctrl+z') && process.platform !== 'win32') {
      suspend();
      return { consume: true };
    }
    if (choiceKey(data)) return { consume: true };
    const key: ScreenKey | undefined = matchesKey(data, 'ctrl+c')
      ? 'interrupt'
      : matchesKey(data, 'escape') && !editor.isShowingAutocomplete()
        ? 'escape'
        : matchesKey(data, 'ctrl+d') && editor.getText() === ''
          ? 'eof'
          : matchesKey(data, 'ctrl+o')
            ? 'expand'
            : matchesKey(data, 'shift+tab')
              ? 'mode'
              : undefined;
    return key !== undefined && options.onKey(key) ? { consume: true } : undefined;
  });

  // Writes to stderr while the screen is up (a hook's warning, an SDK's notice) would tear the
  // frame: they join the transcript instead.
  const stderrWrite = process.stderr.write;
  process.stderr.write = streamInto(write);
  let stopped = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    try {
      restore();
    } finally {
      process.exit(signal === 'SIGHUP' ? 129 : 143);
    }
  };
  const restore = (): void => {
    if (stopped) return;
    stopped = true;
    process.stderr.write = stderrWrite;
    process.off('exit', restore);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    tui.stop();
  };
  process.once('exit', restore);
  // Killed (a closed terminal, `kill`), the terminal gets its cursor and keyboard modes back.
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  tui.start();

  return {
    write,
    line(text) {
      write(`${transcript.endsOpen() ? '\n' : ''}${text}\n`);
    },
    setLive(text) {
      live.text = text;
      tui.requestRender();
    },
    setStatus(text) {
      status.text = paint('dim', text);
      tui.requestRender();
    },
    ask(text, signal, intro, choices) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const entry: Question = {
          label: text,
          intro,
          choices,
          selected: 0,
          resolve: (answer: string) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(answer);
          },
        };
        const onAbort = (): void => {
          const index = questions.indexOf(entry);
          if (index >= 0) questions.splice(index, 1);
          showQuestion();
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        questions.push(entry);
        showQuestion();
      });
    },
    addHistory(text) {
      editor.addToHistory(text);
    },
    restoreInput(text) {
      const held = draft ?? editor.getExpandedText();
      const joined = [text, held].filter((part) => part !== '').join('\n');
      if (draft !== undefined) draft = joined;
      else editor.setText(joined);
      tui.requestRender();
    },
    clearInput() {
      if (editor.getText() === '') return false;
      editor.setText('');
      tui.requestRender();
      return true;
    },
    async stop() {
      // The last frame is the transcript alone, so the editor's box does not stay in the scrollback.
      for (const part of [live, label, editor, status]) tui.removeChild(part);
      tui.requestRender();
      await new Promise((resolve) => setTimeout(resolve, FRAME_WAIT_MS));
      restore();
    },
  };
}
