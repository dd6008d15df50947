// Interactive `wield`: a prompt loop in the terminal with answers rendered as markdown, one line
// per tool call, permission prompts, slash commands answered locally, `@path` attachments,
// Ctrl-C to interrupt the turn and a second Ctrl-C to exit.
import readline from 'node:readline';
import { styleText } from 'node:util';
import type { AskPermission } from '../runtime/pipeline/types.js';
import { openAgentSession, resolveResumeId, type AgentSession } from './agent-session.js';
import type { CliFlags } from './options.js';
import { createTerminalAsk, createTerminalQuestions, readCurrentContent } from './terminal-ask.js';
import { historyRecap } from './history-view.js';
import { formatSessionList, pickSession, type SessionEntry } from './session-list.js';
import { askTrustIfNeeded } from './trust-prompt.js';
import { emptySpend, readSlashLine, statusLine } from './slash-commands.js';
import { mcpPromptText, runSlash } from './slash-run.js';
import { createTurnView, Spinner } from './turn-view.js';
import { loadMarkdownRenderer, type RenderMarkdown } from './markdown.js';
import { attachMentions, completeMention } from './mentions.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, createPasteState } from './paste.js';
import { appendHistory, readHistory } from './prompt-history.js';
import { messageOf } from '../runtime/util/message.js';

/** Sessions the --resume picker lists. */
const PICKER_SIZE = 15;

/** `initialPrompt` (the words after `wield`) is sent as the first prompt. */
export async function runInteractive(flags: CliFlags, initialPrompt?: string): Promise<number> {
  const out = process.stdout;
  const env = process.env;
  const cwd = process.cwd();
  const color = out.isTTY === true && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  const spinner = new Spinner((text) => out.write(text), out.isTTY === true);
  let atLineStart = true;
  const write = (text: string): void => {
    if (text === '') return;
    spinner.clear();
    out.write(text);
    atLineStart = text.endsWith('\n');
  };
  const line = (text: string): void => write(`${atLineStart ? '' : '\n'}${text}\n`);
  const dim = (text: string): string => (color ? styleText('dim', text, { validateStream: false }) : text);

  const rl = readline.createInterface({
    input: process.stdin,
    output: out,
    terminal: true,
    prompt: '› ',
    completer: (typed: string) => completeMention(typed, cwd),
    history: readHistory(env),
    historySize: 500,
  });
  /** The running turn (or slash command): what Ctrl-C and Esc interrupt. */
  let turn: AbortController | undefined;
  // A paste arrives whole (see paste.ts) instead of as one prompt per line.
  const paste = createPasteState();
  out.write(BRACKETED_PASTE_ON);
  const pasteOff = (): void => {
    out.write(BRACKETED_PASTE_OFF);
  };
  process.once('exit', pasteOff);
  process.stdin.on('keypress', (_char: string | undefined, key: { name?: string } | undefined) => {
    // Esc interrupts the running turn, as Ctrl-C does (without counting towards exiting).
    if (key?.name === 'escape' && turn) {
      turn.abort(new Error('interrupted by the user'));
      line('Esc — interrupting this turn');
      return;
    }
    if (key?.name === 'paste-start') paste.start();
    if (key?.name !== 'paste-end') return;
    const held = paste.end(rl.line);
    if (held === undefined) return;
    // The last pasted line is held too: out of the editor, so it is not sent twice.
    rl.write(null, { ctrl: true, name: 'e' });
    rl.write(null, { ctrl: true, name: 'u' });
    const count = held.split('\n').length;
    line(`[pasted ${count} lines · Enter sends them, with anything typed first added after]`);
    rl.prompt(true);
  });
  // The session's policy exists only after the runtime loads; the prompt reaches it late.
  let ask: AskPermission | undefined;
  const askPermission: AskPermission = (request, signal) => (ask ? ask(request, signal) : Promise.resolve({ allow: false }));
  const askUser = createTerminalQuestions({ rl, write });
  const open = async (resumeId: string | undefined): Promise<AgentSession> => {
    const opened = await openAgentSession({ cwd, flags, resumeId, askPermission, askUser });
    ask = createTerminalAsk({
      rl,
      policy: opened.runtime.policy,
      cwd: opened.runtime.session.cwd,
      write,
      trusted: opened.runtime.trusted,
      color,
    });
    for (const notice of opened.runtime.notices) line(`note: ${notice}`);
    line(`wield · ${opened.provider.name} ${opened.model} · session ${opened.id}`);
    if (opened.resumed) for (const recap of historyRecap(opened.messages)) line(`  ${recap}`);
    return opened;
  };
  let session: AgentSession;
  try {
    await askTrustIfNeeded(cwd, flags, env, { ask: (text) => new Promise((resolve) => rl.question(text, resolve)), line });
    session = await open(await resolveResumeId(flags, cwd, env, (entries) => pickInTerminal(rl, entries, line, 'Enter for a new session')));
  } catch (error) {
    rl.close();
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
  line('Ctrl-C or Esc interrupts a turn; Ctrl-C twice exits. /help lists commands, /exit quits.');

  const spent = emptySpend();
  let interrupts = 0;
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));

  rl.on('SIGINT', () => {
    interrupts++;
    if (interrupts >= 2) return finish(130);
    if (turn) {
      turn.abort(new Error('interrupted by the user'));
      line('^C — interrupting this turn (Ctrl-C again to exit)');
    } else {
      line('^C — press Ctrl-C again to exit');
      rl.prompt();
    }
  });
  rl.on('close', () => finish(0));
  // Lines typed while a turn runs wait their turn (answers to prompts go to rl.question instead).
  const queued: string[] = [];

  /** Runs one piece of work with Ctrl-C wired to it, then the next queued line. */
  const busy = (work: (signal: AbortSignal) => Promise<void>): void => {
    const controller = new AbortController();
    turn = controller;
    work(controller.signal)
      .catch((error: unknown) => line(`error: ${messageOf(error)}`))
      .finally(() => {
        turn = undefined;
        interrupts = 0; // a Ctrl-C that interrupted this turn does not count towards exiting
        const next = queued.shift();
        if (next === undefined) return rl.prompt();
        line(`› ${next}`);
        submit(next);
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
      line(dim(statusLine(session.model, spent)));
    }
  };

  const submit = (input: string): void => {
    const prompt = input.trim();
    interrupts = 0;
    const slash = prompt === '' ? undefined : readSlashLine(prompt);
    if (slash === undefined) {
      rl.prompt();
      return;
    }
    if (slash.kind === 'unknown') {
      line(`error: ${slash.message}`);
      rl.prompt();
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
      finish(0);
      return;
    }
    const name = slash.name;
    busy(async (signal) => {
      const text = await runSlash(name, slash.args, {
        session,
        spent,
        signal,
        pick: (entries) => pickInTerminal(rl, entries, line, 'Enter to stay'),
        switchTo: async (id) => {
          const previous = session;
          session = await open(id);
          await previous.close();
        },
      });
      if (text !== '') line(text);
    });
  };
  rl.on('line', (typed) => {
    const input = paste.line(typed);
    if (input === undefined) return;
    if (!input.includes('\n') && input.trim() !== '') appendHistory(env, input.trim());
    if (!turn) return submit(input);
    if (input.trim() === '') return;
    queued.push(input);
    line(`(queued: ${input.trim().split('\n')[0]}${input.includes('\n') ? ' …' : ''})`);
  });
  rl.prompt();
  if (initialPrompt === undefined) setTimeout(loadMarkdown, 0);
  if (initialPrompt !== undefined) {
    line(`› ${initialPrompt}`);
    submit(initialPrompt);
  }
  const code = await finished;
  turn?.abort(new Error('exiting'));
  rl.close();
  pasteOff();
  await session.close();
  line(`session ${session.id} · continue it: wield --resume ${session.id} (or wield -c in this folder)`);
  return code;
}

/** The numbered list of sessions; the answer is a number or an id (empty: `none`). */
async function pickInTerminal(
  rl: readline.Interface,
  entries: SessionEntry[],
  line: (text: string) => void,
  none: string,
): Promise<string | undefined> {
  const shown = entries.slice(0, PICKER_SIZE);
  line(`Sessions started in this folder, newest first:\n${formatSessionList(shown, true)}`);
  for (;;) {
    const answer = await new Promise<string>((resolve) => rl.question(`Resume which (number or id; ${none})? `, resolve));
    if (answer.trim() === '') return undefined;
    const picked = pickSession(shown, answer);
    if (picked) return picked.id;
    line(`  no session ${JSON.stringify(answer.trim())} in the list; answer 1–${shown.length} or an id`);
  }
}
