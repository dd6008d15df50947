// Interactive `wield`: a prompt loop in the terminal with streamed text, one line per tool
// call, permission prompts, Ctrl-C to interrupt the turn and a second Ctrl-C to exit.
import readline from 'node:readline';
import type { AskPermission } from '../runtime/pipeline/types.js';
import { openAgentSession, resolveResumeId, type AgentSession } from './agent-session.js';
import type { CliFlags } from './options.js';
import { createTerminalAsk, createTerminalQuestions } from './terminal-ask.js';
import { historyRecap } from './history-view.js';
import { formatSessionList, pickSession, type SessionEntry } from './session-list.js';
import { askTrustIfNeeded } from './trust-prompt.js';
import { costText, emptySpend, helpText, readSlashLine, statusLine, type SlashName } from './slash-commands.js';
import { createTurnView, Spinner } from './turn-view.js';
import { loadMarkdownRenderer, type RenderMarkdown } from './markdown.js';
import { readCurrentContent } from './terminal-ask.js';
import { styleText } from 'node:util';

/** Sessions the --resume picker lists. */
const PICKER_SIZE = 15;

/** `initialPrompt` (the words after `wield`) is sent as the first prompt. */
export async function runInteractive(flags: CliFlags, initialPrompt?: string): Promise<number> {
  const out = process.stdout;
  const env = process.env;
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

  const rl = readline.createInterface({ input: process.stdin, output: out, terminal: true, prompt: '› ' });
  // The session's policy exists only after the runtime loads; the prompt reaches it late.
  let ask: AskPermission | undefined;
  const askPermission: AskPermission = (request, signal) => (ask ? ask(request, signal) : Promise.resolve({ allow: false }));
  let session: AgentSession;
  try {
    const cwd = process.cwd();
    await askTrustIfNeeded(cwd, flags, process.env, { ask: (text) => new Promise((resolve) => rl.question(text, resolve)), line });
    const resumeId = await resolveResumeId(flags, cwd, process.env, (entries) => pickInTerminal(rl, entries, line));
    session = await openAgentSession({ cwd, flags, resumeId, askPermission, askUser: createTerminalQuestions({ rl, write }) });
  } catch (error) {
    rl.close();
    throw error;
  }
  ask = createTerminalAsk({
    rl,
    policy: session.runtime.policy,
    cwd: session.runtime.session.cwd,
    write,
    trusted: session.runtime.trusted,
    color,
  });
  // Off the start-up path: until it loads (a few hundred ms), answers print as plain text.
  let markdown: RenderMarkdown | undefined;
  loadMarkdownRenderer(Math.min(out.columns ?? 100, 120))
    .then((render) => (markdown = render))
    .catch(() => undefined);
  for (const notice of session.runtime.notices) line(`note: ${notice}`);
  line(`wield · ${session.provider.name} ${session.model} · session ${session.id}`);
  if (session.resumed) for (const recap of historyRecap(session.messages)) line(`  ${recap}`);
  line('Ctrl-C interrupts a turn; Ctrl-C twice exits. /help lists commands, /exit quits.');

  const spent = emptySpend();
  const dim = (text: string): string => (color ? styleText('dim', text, { validateStream: false }) : text);
  const runSlash = (name: Exclude<SlashName, 'exit'>): string => {
    switch (name) {
      case 'help':
        return helpText();
      case 'clear':
        session.messages = [];
        return 'conversation cleared: the next prompt starts fresh (the session log keeps what came before)';
      case 'model':
        return `${session.provider.name} · ${session.model} (choose another with --model when starting wield)`;
      case 'cost':
        return costText(session.model, spent);
      case 'tools':
        return session.runtime.registry
          .all()
          .map((tool) => tool.name)
          .join(', ');
      case 'mcp': {
        const servers = session.runtime.mcp?.list() ?? [];
        if (servers.length === 0) return 'no MCP servers in this session (settings mcpServers, .mcp.json or --mcp-config add them)';
        return servers.map((server) => `${server.name}: ${server.state}${server.error ? ` (${server.error})` : ''}`).join('\n');
      }
    }
  };

  let turn: AbortController | undefined;
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
  const submit = (input: string): void => {
    const prompt = input.trim();
    interrupts = 0;
    const slash = prompt === '' ? undefined : readSlashLine(prompt);
    if (slash?.kind === 'command' && slash.name === 'exit') {
      finish(0);
      return;
    }
    if (slash?.kind === 'unknown') line(`error: ${slash.message}`);
    if (slash?.kind === 'command' && slash.name !== 'exit') line(runSlash(slash.name));
    if (slash?.kind !== 'prompt') {
      rl.prompt();
      return;
    }
    const controller = new AbortController();
    turn = controller;
    const view = createTurnView({
      write,
      line,
      color,
      markdown: () => markdown,
      readFile: (file) => readCurrentContent(file, session.runtime.session.cwd),
      spinner,
    });
    session
      .send(prompt, controller.signal, (event) => {
        if (event.type === 'usage') Object.assign(spent, { contextTokens: event.contextTokens, contextWindow: event.contextWindow });
        view.onEvent(event);
      })
      .then((result) => {
        const u = result.usage;
        spent.usage.inputTokens += u.inputTokens;
        spent.usage.outputTokens += u.outputTokens;
        spent.usage.cacheReadTokens += u.cacheReadTokens;
        spent.usage.cacheWriteTokens += u.cacheWriteTokens;
        spent.turns += result.turns;
        if (result.costUsd === undefined) spent.costKnown = false;
        else spent.costUsd = (spent.costUsd ?? 0) + result.costUsd;
      })
      .catch((error: unknown) => line(`error: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        view.end();
        turn = undefined;
        interrupts = 0; // a Ctrl-C that interrupted this turn does not count towards exiting
        line(dim(statusLine(session.model, spent)));
        const next = queued.shift();
        if (next === undefined) return rl.prompt();
        line(`› ${next}`);
        submit(next);
      });
  };
  rl.on('line', (input) => {
    if (!turn) return submit(input);
    if (input.trim() === '') return;
    queued.push(input);
    line(`(queued: ${input.trim()})`);
  });
  rl.prompt();
  if (initialPrompt !== undefined) {
    line(`› ${initialPrompt}`);
    submit(initialPrompt);
  }
  const code = await finished;
  turn?.abort(new Error('exiting'));
  rl.close();
  await session.close();
  line(`session ${session.id} · continue it: wield --resume ${session.id} (or wield -c in this folder)`);
  return code;
}

/** The numbered list of sessions; the answer is a number or an id (empty: a new session). */
async function pickInTerminal(rl: readline.Interface, entries: SessionEntry[], line: (text: string) => void): Promise<string | undefined> {
  const shown = entries.slice(0, PICKER_SIZE);
  line(`Sessions started in this folder, newest first:\n${formatSessionList(shown, true)}`);
  for (;;) {
    const answer = await new Promise<string>((resolve) => rl.question('Resume which (number or id; Enter for a new session)? ', resolve));
    if (answer.trim() === '') return undefined;
    const picked = pickSession(shown, answer);
    if (picked) return picked.id;
    line(`  no session ${JSON.stringify(answer.trim())} in the list; answer 1–${shown.length} or an id`);
  }
}
