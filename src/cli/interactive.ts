// Interactive `wield`: the screen (screen.ts: transcript, spinner, editor, status line) with
// answers rendered as markdown, one line per tool call, permission prompts, slash commands
// answered locally, `@path` attachments, type-ahead queued while a turn runs, Ctrl-C or Esc to
// interrupt the turn and a second Ctrl-C to exit.
import { setTimeout as sleep } from 'node:timers/promises';
import { styleText } from 'node:util';
import type { AskPermission, PermissionMode } from '../runtime/pipeline/types.js';
import { openAgentSession, resolveResumeId, type AgentSession } from './agent-session.js';
import type { CliFlags } from './options.js';
import { createTerminalAsk, createTerminalElicit, createTerminalQuestions, readCurrentContent } from './terminal-ask.js';
import { openInBrowser } from '../runtime/mcp/oauth-callback.js';
import { historyRecap } from './history-view.js';
import { formatSessionList, pickSession, type SessionEntry } from './session-list.js';
import { askTrustIfNeeded } from './trust-prompt.js';
import { emptySpend, nextMode, readSlashLine, SLASH_COMMANDS, statusLine } from './slash-commands.js';
import { mcpPromptText, runSlash } from './slash-run.js';
import { createTurnView, Spinner } from './turn-view.js';
import { loadMarkdownRenderer, type RenderMarkdown } from './markdown.js';
import { attachMentions } from './mentions.js';
import { appendHistory, readHistory } from './prompt-history.js';
import { openScreen, type Screen, type ScreenKey } from './screen.js';
import { createCompletion } from './completion.js';
import { messageOf } from '../runtime/util/message.js';
import { mcpFailures } from './runtime.js';

/** What each mode Shift-Tab reaches does, said when it is chosen. */
const MODE_HINTS: Partial<Record<PermissionMode, string>> = {
  default: 'changes ask first',
  acceptEdits: 'file edits in the workspace run without asking',
  plan: 'only read-only tools run while the model plans',
};

/** Sessions the --resume picker lists. */
const PICKER_SIZE = 15;
/** How long `/mcp__` completion waits for servers still connecting. */
const PROMPT_LIST_WAIT_MS = 3000;

/** `initialPrompt` (the words after `wield`) is sent as the first prompt. */
export async function runInteractive(flags: CliFlags, initialPrompt?: string): Promise<number> {
  const out = process.stdout;
  const env = process.env;
  const cwd = process.cwd();
  const color = out.isTTY === true && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  const dim = (text: string): string => (color ? styleText('dim', text, { validateStream: false }) : text);

  /** The running turn (or slash command): what Ctrl-C and Esc interrupt. */
  let turn: AbortController | undefined;
  /** Prompts are taken once the session is open. */
  let ready = false;
  let interrupts = 0;
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  // Lines typed while a turn runs wait their turn (answers to questions go to screen.ask instead).
  const queued: string[] = [];
  // Set once the session is open; until then prompts wait in `queued` (see onSubmit).
  let submit: (input: string) => void = (input) => queued.push(input);

  /** Set when the person interrupted the running turn: what they queued then waits in the editor. */
  let interrupted = false;
  const interrupt = (running: AbortController): void => {
    interrupted = true;
    running.abort(new Error('interrupted by the user'));
  };

  // Questions asked before the session opens (trust, the --resume picker) are withdrawn on exit.
  const starting = new AbortController();
  const exit = (code: number): void => {
    starting.abort(new Error('exiting'));
    finish(code);
  };
  const onKey = (key: ScreenKey): boolean => {
    if (key === 'expand') {
      expandLast();
      return true;
    }
    if (key === 'mode') {
      if (!ready) return false;
      const policy = session.runtime.policy;
      policy.setMode(nextMode(policy.mode));
      line(dim(`permission mode: ${policy.mode} — ${MODE_HINTS[policy.mode] ?? ''}`));
      showStatus();
      return true;
    }
    if (key === 'eof') {
      exit(0);
      return true;
    }
    if (key === 'escape') {
      // MCP tasks run past their turn: Esc cancels them too (tasks/cancel), even between turns.
      const jobs = ready ? session.runtime.mcp?.jobs : undefined;
      const tasks = jobs?.running() ?? 0;
      if (tasks > 0) void jobs?.cancelRunning();
      if (!turn) {
        if (tasks === 0) return false;
        screen.line(`Esc — cancelling ${tasks} background MCP task(s)`);
        return true;
      }
      interrupt(turn);
      screen.line(`Esc — interrupting this turn${tasks > 0 ? ` and cancelling ${tasks} background MCP task(s)` : ''}`);
      return true;
    }
    // A second Ctrl-C exits, even while a turn that ignores its abort is still running.
    interrupts++;
    if (interrupts >= 2) {
      exit(130);
      return true;
    }
    if (turn) {
      interrupt(turn);
      screen.line('^C — interrupting this turn (Ctrl-C again, before it stops, exits)');
      return true;
    }
    if (screen.clearInput()) {
      interrupts = 0;
      return true;
    }
    screen.line('^C — press Ctrl-C again to exit');
    return true;
  };
  const slashCommands = Object.entries(SLASH_COMMANDS).map(([name, description]) => ({ name, description }));
  const screen: Screen = openScreen({
    color,
    history: readHistory(env),
    complete: createCompletion(cwd, slashCommands, async (signal) => {
      const mcp = ready ? session.runtime.mcp : undefined;
      if (!mcp) return [];
      // Servers still connecting get a moment: their prompts are what is being typed.
      await Promise.race([session.runtime.mcpReady(), sleep(PROMPT_LIST_WAIT_MS, undefined, { signal })]);
      const { listMcpPrompts } = await import('../runtime/mcp/resources.js');
      return (await listMcpPrompts(mcp, signal)).map((prompt) => ({
        value: `mcp__${prompt.server}__${prompt.name}`,
        label: `mcp__${prompt.server}__${prompt.name}`,
        description: [prompt.arguments?.map((argument) => `${argument.name}=…`).join(' '), prompt.description].filter(Boolean).join(' — '),
      }));
    }),
    onKey,
    onSubmit: (typed) => {
      if (typed.trim() === '') return;
      appendHistory(env, typed.trim());
      screen.addHistory(typed);
      interrupts = 0;
      if (!turn && ready) return submit(typed);
      queued.push(typed);
      screen.line(dim(`(queued: ${typed.trim().split('\n')[0]}${typed.includes('\n') ? ' …' : ''})`));
    },
  });
  const { line, write } = screen;
  /** Redraws the status line (model, context, cost, permission mode); set once the session is open. */
  let showStatus = (): void => undefined;
  /** Cleared tool results already reported on screen. */
  const cleared = new Set<string>();
  /** The last result with more output than was shown (or a compaction's summary…): Ctrl-O writes all of it. */
  let lastFull: { summary: string; lines: string[] } | undefined;
  const expandLast = (): void => {
    if (!lastFull) {
      line(dim('Ctrl-O: no result has more to show'));
      return;
    }
    line(dim(`── ${lastFull.summary} ──`));
    line(lastFull.lines.map((text) => `  ${text}`).join('\n'));
    line(dim('── end ──'));
  };
  const spinner = new Spinner((text) => screen.setLive(text), true);

  // The session's policy exists only after the runtime loads; the prompt reaches it late.
  let ask: AskPermission | undefined;
  const askPermission: AskPermission = (request, signal) => (ask ? ask(request, signal) : Promise.resolve({ behavior: 'deny' }));
  const askUser = createTerminalQuestions({ ask: screen.ask, write });
  const elicit = createTerminalElicit({
    ask: screen.ask,
    write,
    open: (url) => openInBrowser(url, env),
    turnSignal: () => turn?.signal,
  });
  const open = async (resumeId: string | undefined): Promise<AgentSession> => {
    const opened = await openAgentSession({ cwd, flags, resumeId, askPermission, askUser, elicit });
    ask = createTerminalAsk({
      ask: screen.ask,
      policy: opened.runtime.policy,
      cwd: opened.runtime.session.cwd,
      write,
      trusted: opened.runtime.trusted,
      color,
    });
    for (const notice of opened.runtime.notices) line(`note: ${notice}`);
    // Servers start in the background: one that fails says so when it does, not silently; one
    // still connecting says so too, and again (a notice) when it joins or is given up.
    opened.runtime
      .mcpReady()
      .then(() => {
        for (const failure of mcpFailures(opened.runtime.mcp?.list() ?? [], true)) line(`note: ${failure}`);
      })
      .catch(() => undefined);
    line(`wield · ${opened.provider.name} ${opened.model} · session ${opened.id}`);
    if (opened.resumed) for (const recap of historyRecap(opened.messages, undefined, opened.runtime.session.cwd)) line(`  ${recap}`);
    return opened;
  };
  let session: AgentSession;
  try {
    await askTrustIfNeeded(cwd, flags, env, { ask: (text) => screen.ask(text, starting.signal), line });
    const resumeId = await resolveResumeId(flags, cwd, env, (entries) =>
      pickInTerminal(screen, entries, 'Enter for a new session', starting.signal),
    );
    session = await open(resumeId);
  } catch (error) {
    await screen.stop();
    if (starting.signal.aborted) return finished;
    throw error;
  }
  // The renderer (highlight.js in it) takes 150-400 ms of the main thread to load: never before the
  // first prompt is on screen, nor while a first request is being sent (then on its first reply).
  let markdown: RenderMarkdown | undefined;
  let markdownLoading = false;
  const loadMarkdown = (): void => {
    if (markdownLoading) return;
    markdownLoading = true;
    loadMarkdownRenderer(Math.min(out.columns ?? 100, 120))
      .then((render) => (markdown = render))
      .catch(() => undefined);
  };
  line(
    dim(
      'Enter sends · Alt-Enter or \\ then Enter: new line · Up: history · Tab: complete · Ctrl-O: a result in full · Esc or Ctrl-C interrupts a turn · Ctrl-C twice or /exit quits · /help',
    ),
  );

  const spent = emptySpend();
  showStatus = () => screen.setStatus(statusLine(session.model, spent, session.runtime.policy.mode));
  showStatus();

  /** Runs one piece of work with Ctrl-C wired to it, then the next queued line. */
  const busy = (work: (signal: AbortSignal) => Promise<void>): void => {
    const controller = new AbortController();
    turn = controller;
    work(controller.signal)
      .catch((error: unknown) => line(`error: ${messageOf(error)}`))
      .finally(() => {
        turn = undefined;
        interrupts = 0; // a Ctrl-C that interrupted this turn does not count towards exiting
        // Stopped by the person: what they queued is not sent behind their back, but handed back.
        if (interrupted && queued.length > 0) {
          screen.restoreInput(queued.splice(0).join('\n'));
          line(dim('the queued prompt is back in the editor: Enter sends it'));
        }
        interrupted = false;
        const next = queued.shift();
        if (next !== undefined) submit(next);
      });
  };

  const send = async (typed: string, signal: AbortSignal): Promise<void> => {
    const attached = await attachMentions(typed, session.runtime.rt, signal);
    if (!attached.ok) {
      for (const error of attached.errors) line(`error: ${error}`);
      line('nothing was sent; fix the path or drop the @');
      return;
    }
    for (const file of attached.attached) line(dim(`  attached @${file.path}`));
    for (const mention of attached.notFiles) line(dim(`  @${mention}: no such file here; sent as text`));
    const view = createTurnView({
      write,
      line,
      color,
      markdown: () => markdown,
      readFile: (file) => readCurrentContent(file, session.runtime.session.cwd),
      spinner,
      cwd: session.runtime.session.cwd,
      onExpandable: (summary, lines) => (lastFull = { summary, lines }),
      cleared,
      logFile: session.log.file,
    });
    try {
      const result = await session.send(attached.prompt, signal, (event) => {
        if (event.type === 'usage') Object.assign(spent, { contextTokens: event.contextTokens, contextWindow: event.contextWindow });
        if (event.type === 'text_delta' || event.type === 'tool_start' || event.type === 'turn_end') loadMarkdown();
        view.onEvent(event);
      });
      const u = result.usage;
      spent.usage.inputTokens += u.inputTokens;
      spent.usage.outputTokens += u.outputTokens;
      spent.usage.cacheReadTokens += u.cacheReadTokens;
      spent.usage.cacheWriteTokens += u.cacheWriteTokens;
      spent.turns += result.turns;
      if (result.costUsd === undefined) spent.costKnown = false;
      else spent.costUsd = (spent.costUsd ?? 0) + result.costUsd;
    } finally {
      view.end();
      showStatus();
    }
  };

  submit = (input: string): void => {
    line(echo(input));
    const prompt = input.trim();
    interrupts = 0;
    const slash = readSlashLine(prompt);
    if (slash.kind === 'unknown') {
      line(`error: ${slash.message}`);
      return;
    }
    if (slash.kind === 'prompt') {
      busy((signal) => send(prompt, signal));
      return;
    }
    if (slash.kind === 'mcp-prompt') {
      busy(async (signal) => {
        const text = await mcpPromptText(session.runtime.mcp, slash, signal);
        if (text.ok) await send(text.text, signal);
        else line(`error: ${text.message}`);
      });
      return;
    }
    if (slash.name === 'exit') {
      exit(0);
      return;
    }
    const name = slash.name;
    busy(async (signal) => {
      const text = await runSlash(name, slash.args, {
        session,
        spent,
        signal,
        pick: (entries) => pickInTerminal(screen, entries, 'Enter to stay', signal),
        choose: (label, choices, intro) => screen.ask(label, signal, intro, choices),
        restoreInput: (text) => screen.restoreInput(text),
        expandable: (summary, lines) => (lastFull = { summary, lines }),
        switchTo: async (id) => {
          const previous = session;
          session = await open(id);
          await previous.close();
        },
      });
      if (text !== '') line(text);
      showStatus();
    });
  };
  ready = true;
  if (initialPrompt !== undefined) queued.unshift(initialPrompt);
  const first = queued.shift();
  if (first === undefined) setTimeout(loadMarkdown, 0);
  else submit(first);
  const code = await finished;
  turn?.abort(new Error('exiting'));
  await session.close();
  await screen.stop();
  // A session the model never answered was not saved (SessionLog holdUntilReply): nothing to continue.
  if (session.log.saved) out.write(`session ${session.id} · continue it: wield --resume ${session.id} (or wield -c in this folder)\n`);
  return code;
}

/** A prompt as the transcript shows it once sent: `› ` before the first line, its other lines indented. */
function echo(prompt: string): string {
  return `› ${prompt.trim().split('\n').join('\n  ')}`;
}

/** The numbered list of sessions; the answer is a number or an id (empty: `none`). */
async function pickInTerminal(screen: Screen, entries: SessionEntry[], none: string, signal: AbortSignal): Promise<string | undefined> {
  const shown = entries.slice(0, PICKER_SIZE);
  screen.line(`Sessions started in this folder, newest first:\n${formatSessionList(shown, true)}`);
  for (;;) {
    const answer = await screen.ask(`Resume which (number or id; ${none})? `, signal);
    if (answer.trim() === '') return undefined;
    const picked = pickSession(shown, answer);
    if (picked) return picked.id;
    screen.line(`  no session ${JSON.stringify(answer.trim())} in the list; answer 1–${shown.length} or an id`);
  }
}
