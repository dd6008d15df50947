// Interactive `wield`: a prompt loop in the terminal with streamed text, one line per tool
// call, permission prompts, Ctrl-C to interrupt the turn and a second Ctrl-C to exit.
import readline from 'node:readline';
import type { AgentEvent } from '../runtime/agent/events.js';
import type { AskPermission } from '../runtime/pipeline/types.js';
import { openAgentSession, type AgentSession } from './agent-session.js';
import type { CliFlags } from './options.js';
import { callSummary, resultSummary } from './summary.js';
import { createTerminalAsk, createTerminalQuestions } from './terminal-ask.js';

export async function runInteractive(flags: CliFlags): Promise<number> {
  const out = process.stdout;
  let atLineStart = true;
  const write = (text: string): void => {
    if (text === '') return;
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
    session = await openAgentSession({ cwd: process.cwd(), flags, askPermission, askUser: createTerminalQuestions({ rl, write }) });
  } catch (error) {
    rl.close();
    throw error;
  }
  ask = createTerminalAsk({ rl, policy: session.runtime.policy, cwd: session.runtime.session.cwd, write });
  for (const notice of session.runtime.notices) line(`note: ${notice}`);
  line(`wield · ${session.provider.name} ${session.model} · session ${session.id}`);
  line('Ctrl-C interrupts a turn; Ctrl-C twice exits. /exit quits.');

  const summaries = new Map<string, string>();
  const render = (event: AgentEvent): void => {
    switch (event.type) {
      case 'text_delta':
        write(event.text);
        break;
      case 'tool_start':
        summaries.set(event.toolUseId, callSummary(event.toolName, event.input));
        line(`● ${summaries.get(event.toolUseId)}`);
        break;
      case 'tool_end':
        line(`  ⎿ ${summaries.get(event.toolUseId) ?? event.toolName}: ${resultSummary(event.result)}`);
        break;
      case 'user_message':
        if (event.origin === 'stop_hook')
          line(`↻ ${event.message.content.map((part) => (part.type === 'text' ? part.text : '')).join('')}`);
        break;
      case 'error':
        line(`error: ${event.message}`);
        break;
      case 'done':
        if (event.result.stopReason === 'aborted') line('(interrupted)');
        break;
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
  rl.on('line', (input) => {
    if (turn) return; // typed while a turn runs: ignored (answers to prompts go to rl.question)
    const prompt = input.trim();
    interrupts = 0;
    if (prompt === '/exit' || prompt === '/quit') return finish(0);
    if (prompt === '') return rl.prompt();
    const controller = new AbortController();
    turn = controller;
    session
      .send(prompt, controller.signal, render)
      .catch((error: unknown) => line(`error: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        turn = undefined;
        interrupts = 0; // a Ctrl-C that interrupted this turn does not count towards exiting
        if (!atLineStart) write('\n');
        rl.prompt();
      });
  });
  rl.prompt();
  const code = await finished;
  turn?.abort(new Error('exiting'));
  rl.close();
  await session.close();
  return code;
}
