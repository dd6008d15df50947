// How a turn's events look in the interactive terminal: the answer as rendered markdown, one line
// per tool call with a spinner and elapsed time while it runs, the diff of an edit nobody had to
// approve (an approved one was shown in the prompt), and result durations without the time spent
// waiting for the person. A program's calls (RunCode) are shown as they happen, indented under it.
import { styleText } from 'node:util';
import type { AgentEvent } from '../runtime/agent/events.js';
import { clipLines, colorDiff, fileDiff } from './diff-view.js';
import { clearedNotice, compactedNotice } from './context-view.js';
import { createMarkdownStream, type RenderMarkdown } from './markdown.js';
import { callSummary, clip, resultView, shortPath } from './summary.js';
import { plainText } from './terminal-text.js';
import { retryNotice } from '../runtime/providers/retry.js';
import { parentCallId } from './inner-calls.js';

/** Braille spinner frames, as ora and pi draw them. */
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SPIN_MS = 100;
/** The spinner's entry for a request waiting on the model (tool calls have their own ids). */
const MODEL_WAIT = 'model';
/** Lines of an unprompted edit's diff shown after it; the rest is counted. */
const MAX_DIFF_LINES = 40;

export interface TurnViewOptions {
  /** Writes to the transcript. */
  write: (text: string) => void;
  line: (text: string) => void;
  color: boolean;
  /** Undefined until loaded: blocks are written as they came. */
  markdown: () => RenderMarkdown | undefined;
  /** A file's current text (for diffs), read when the call starts. */
  readFile: (file: unknown) => string | undefined;
  spinner: Spinner;
  /** The workspace: paths in it are shown relative to it. */
  cwd?: string;
  /** What the expand key shows next: a result's whole output when more exists than is shown, a compaction's summary… */
  onExpandable?: (summary: string, lines: string[]) => void;
  /** Cleared results already reported (kept across the session's turns). */
  cleared?: Set<string>;
  /** The session log, where the whole conversation stays. */
  logFile?: string;
}

export interface TurnView {
  onEvent(event: AgentEvent): void;
  /** The turn ended: render what is held, stop the spinner. */
  end(): void;
}

export function createTurnView(options: TurnViewOptions): TurnView {
  const { color, spinner } = options;
  const dim = (text: string): string => (color ? styleText('dim', text, { validateStream: false }) : text);
  // The call whose `●` line is the transcript's last: its result goes right under it. When
  // anything came between (a permission prompt, other calls), the result names its call again.
  let headed: string | undefined;
  const line = (text: string): void => {
    headed = undefined;
    options.line(text);
  };
  const markdown = createMarkdownStream(options.markdown, (text) => {
    headed = undefined;
    options.write(text);
  });
  const calls = new Map<
    string,
    {
      summary: string;
      input: Record<string, unknown>;
      asked: boolean;
      waitedMs: number;
      askedAt?: number;
      before?: string;
      /** The program (RunCode call) that made this call. */
      parent?: string;
    }
  >();
  const indentOf = (id: string): string => (calls.get(id)?.parent === undefined ? '' : '  ');
  const flush = (): void => markdown.flush();
  return {
    onEvent(event) {
      // Until the model's first words or calls arrive, the spinner says it is waiting.
      if (event.type === 'turn_start') spinner.start(MODEL_WAIT, 'thinking');
      else if (event.type !== 'usage') spinner.stop(MODEL_WAIT);
      switch (event.type) {
        case 'text_delta':
          markdown.push(plainText(event.text));
          break;
        case 'assistant_message':
          flush();
          break;
        case 'tool_start': {
          flush();
          const input = (typeof event.input === 'object' && event.input !== null ? event.input : {}) as Record<string, unknown>;
          const summary = callSummary(event.toolName, event.input, options.cwd);
          const editing = event.toolName === 'Edit' || event.toolName === 'Write';
          calls.set(event.toolUseId, {
            summary,
            input,
            asked: false,
            waitedMs: 0,
            before: editing ? options.readFile(input.file_path) : undefined,
            parent: parentCallId(event.toolUseId, (id) => calls.has(id)),
          });
          line(`${indentOf(event.toolUseId)}● ${summary}`);
          headed = event.toolUseId;
          spinner.start(event.toolUseId, summary);
          break;
        }
        case 'tool_progress':
          spinner.progress(event.toolUseId, progressText(event.progress));
          break;
        case 'permission_asked': {
          const call = calls.get(event.toolUseId);
          if (call) Object.assign(call, { asked: true, askedAt: performance.now() });
          spinner.pause(event.toolUseId);
          // The program waits for the person too: its spinner stays off the prompt, its time off the clock.
          const program = call?.parent === undefined ? undefined : calls.get(call.parent);
          if (program && call?.parent !== undefined) {
            program.askedAt = performance.now();
            spinner.pause(call.parent);
          }
          break;
        }
        case 'permission_decided': {
          const call = calls.get(event.toolUseId);
          const program = call?.parent === undefined ? undefined : calls.get(call.parent);
          for (const waiting of [call, program]) {
            if (waiting?.askedAt !== undefined) {
              waiting.waitedMs += performance.now() - waiting.askedAt;
              waiting.askedAt = undefined;
            }
          }
          spinner.resume(event.toolUseId);
          if (call?.parent !== undefined) spinner.resume(call.parent);
          break;
        }
        case 'tool_end': {
          spinner.stop(event.toolUseId);
          const call = calls.get(event.toolUseId);
          const indent = indentOf(event.toolUseId);
          calls.delete(event.toolUseId);
          const view = resultView(event.toolName, event.result, { waitedMs: call?.waitedMs ?? 0, cwd: options.cwd });
          if (call && (call.asked || headed !== event.toolUseId)) line(`${indent}● ${call.summary}`);
          line(view.lines.map((text, i) => `${indent}${i === 0 ? '  ⎿ ' : '    '}${text}`).join('\n'));
          if (view.full.length > 0) options.onExpandable?.(`${call?.summary ?? event.toolName} · all ${view.full.length} lines`, view.full);
          const input = call?.input ?? {};
          if (!event.result.isError && call && !call.asked && (event.toolName === 'Edit' || event.toolName === 'Write')) {
            const file = typeof input.file_path === 'string' ? input.file_path : undefined;
            if (file) {
              const diff = fileDiff(event.toolName, shortPath(file, options.cwd), input, call.before);
              line(colorDiff(clipLines(diff, MAX_DIFF_LINES), color).join('\n'));
            }
          }
          break;
        }
        case 'user_message':
          if (event.origin === 'stop_hook')
            line(`↻ ${plainText(event.message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''))}`);
          break;
        case 'context_cleared':
        case 'context_compacted': {
          flush();
          const log = options.logFile ?? 'the session log';
          const notice =
            event.type === 'context_cleared'
              ? clearedNotice(event.messages, options.cleared ?? new Set(), log)
              : compactedNotice(event.summarised, event.messages, log, event.reason);
          line(dim(notice.line));
          options.onExpandable?.(notice.detail.summary, notice.detail.lines);
          break;
        }
        case 'context_compaction_failed':
          flush();
          line(dim(`◇ context: ${plainText(event.message)}`));
          break;
        case 'model_retry':
          flush();
          line(dim(`↻ ${retryNotice(event)}`));
          break;
        case 'notice':
          flush();
          line(dim(`note: ${plainText(event.message)}`));
          break;
        case 'error':
          flush();
          line(`error: ${plainText(event.message)}`);
          break;
        case 'done':
          flush();
          if (event.result.stopReason === 'aborted') line(dim('(interrupted)'));
          break;
      }
    },
    end() {
      flush();
      spinner.stopAll();
    },
  };
}

/** The running tool's latest output line, else its message or count, on one short line. */
export function progressText(progress: { message?: string; output?: string; progress?: number; total?: number }): string | undefined {
  const last = progress.output
    ?.split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1);
  const text =
    last ??
    progress.message ??
    (progress.progress !== undefined ? `${progress.progress}${progress.total ? `/${progress.total}` : ''}` : undefined);
  return text === undefined ? undefined : clip(text, 60);
}

/** The line above the prompt while tools run: `⠙ Bash(npm test) · 4s · 12 passed`; hidden while a person is asked. */
export class Spinner {
  private running = new Map<string, { summary: string; startedAt: number; paused: boolean; progress?: string }>();
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private drawn = false;

  /** `show(undefined)` hides the line. */
  constructor(
    private readonly show: (text: string | undefined) => void,
    private readonly enabled: boolean,
  ) {}

  start(id: string, summary: string): void {
    this.running.set(id, { summary, startedAt: performance.now(), paused: false });
    this.schedule();
  }

  progress(id: string, text: string | undefined): void {
    const entry = this.running.get(id);
    if (entry && text !== undefined) entry.progress = text;
  }

  pause(id: string): void {
    const entry = this.running.get(id);
    if (entry) entry.paused = true;
    this.clear();
  }

  resume(id: string): void {
    const entry = this.running.get(id);
    if (entry) entry.paused = false;
  }

  stop(id: string): void {
    this.running.delete(id);
    this.clear();
    if (this.running.size === 0) this.halt();
  }

  stopAll(): void {
    this.running.clear();
    this.clear();
    this.halt();
  }

  /** Hides the spinner line if it is shown; the next tick draws it again. */
  clear(): void {
    if (!this.drawn) return;
    this.drawn = false;
    this.show(undefined);
  }

  private halt(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => this.draw(), SPIN_MS);
    this.timer.unref();
  }

  private draw(): void {
    const active = [...this.running.values()].filter((entry) => !entry.paused);
    if (active.length === 0) {
      this.clear();
      return;
    }
    const first = active[0];
    const seconds = Math.floor((performance.now() - first.startedAt) / 1000);
    const more = active.length > 1 ? ` (+${active.length - 1} more)` : '';
    this.frame = (this.frame + 1) % FRAMES.length;
    const progress = first.progress ? ` · ${first.progress}` : '';
    this.show(`${FRAMES[this.frame]} ${first.summary}${more} · ${seconds}s${progress}`);
    this.drawn = true;
  }
}
