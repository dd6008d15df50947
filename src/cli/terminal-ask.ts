// Asking a person in the terminal (the screen's editor answers): to approve a call (y / n / a / A),
// AskUserQuestion's questions, and MCP servers' elicitations.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Interface } from 'node:readline';
import type { AskPermission, PermissionAnswer } from '../runtime/pipeline/types.js';
import type { AskUser } from '../runtime/tool/types.js';
import type { WieldPolicy } from '../coding/permissions/engine.js';
import { persistRule } from '../coding/settings/persist.js';
import { projectsFile, saveProjectRules } from '../coding/settings/projects.js';
import { wieldHome } from '../runtime/agent/session-store.js';
import { alwaysRules, parsePermissionReply, renderPrompt } from './permission-prompt.js';
import { callSummary } from './summary.js';
import { parseQuestionReply, renderQuestion } from './question-prompt.js';
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { McpElicitHandler } from '../runtime/mcp/elicit.js';
import type { Choice } from './screen.js';
import { type ElicitValue, elicitFields, fieldLabel, parseFieldReply, readYesNo, renderElicitation } from './elicit-prompt.js';

/** Files larger than this are not diffed in the prompt (the diff would not fit a screen anyway). */
const MAX_DIFF_BYTES = 256 * 1024;

/**
 * One answer from the person, shown after `label`; `intro` (the prompt itself) is shown when the
 * question's turn comes, so concurrent questions never sit under each other's text. The signal
 * (Ctrl-C, or the whole batch's) withdraws the question.
 */
export type AskLine = (label: string, signal: AbortSignal, intro?: string, choices?: readonly Choice[]) => Promise<string>;

/** Asking over readline (`wield call`, which has no screen); the abort listener goes when the line comes. */
export function readlineAsk(rl: Interface): AskLine {
  return (label, signal, intro) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      rl.question(`${intro ?? ''}${label}`, { signal }, (answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
    });
}

type Reading<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Asks until `read` takes the answer, saying after each other one what to give instead; the
 * intro goes with the first asking only.
 */
async function askUntil<T>(
  ask: AskLine,
  write: (text: string) => void,
  question: { label: string; intro?: string; signal: AbortSignal; choices?: readonly Choice[] },
  read: (answer: string) => Reading<T>,
): Promise<T> {
  let intro = question.intro;
  for (;;) {
    const reading = read(await ask(question.label, question.signal, intro, question.choices));
    if (reading.ok) return reading.value;
    intro = undefined;
    write(`  ${reading.message}\n`);
  }
}

/**
 * What the editor shows while a permission question waits: the call it is about, and the answers
 * (a and A only where a rule can cover the call).
 */
export function permissionLabel(toolName: string, input: unknown, cwd: string | undefined, canAlways: boolean): string {
  return `Allow ${callSummary(toolName, input, cwd)}? (a number, ↑↓ Enter, or type y / n${canAlways ? ' / a / A' : ''}) › `;
}

/** The answers a permission question offers as one key each, as Claude Code numbers them; Esc is the no. */
export function permissionChoices(rules: readonly string[]): Choice[] {
  const always = rules.join(', ');
  return [
    { answer: 'y', label: 'Yes' },
    ...(rules.length > 0
      ? [
          { answer: 'a', label: `Yes, and allow ${always} for the rest of this session` },
          { answer: 'A', label: `Yes, and always allow ${always} (saved)` },
        ]
      : []),
    { answer: 'n', label: 'No (Esc) — to say what to do instead, type n and your words', escape: true },
  ];
}
/** … and while AskUserQuestion's question waits. */
export const QUESTION_LABEL = 'Answer › ';

/** The text of the file a call names, for its diff; undefined when missing or too large to diff. */
export function readCurrentContent(filePath: unknown, cwd: string): string | undefined {
  if (typeof filePath !== 'string') return undefined;
  const file = path.resolve(cwd, filePath);
  try {
    return statSync(file).size <= MAX_DIFF_BYTES ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

export interface TerminalAskOptions {
  ask: AskLine;
  policy: WieldPolicy;
  cwd: string;
  write: (text: string) => void;
  /** Whether the project is trusted: decides where an "always" answer is saved (saveAlwaysRules). */
  trusted: boolean;
  /** Colour the diffs. */
  color?: boolean;
}

export function createTerminalAsk(options: TerminalAskOptions): AskPermission {
  const { ask, policy, cwd, write, trusted, color } = options;
  return async (request, signal): Promise<PermissionAnswer> => {
    const view = {
      toolName: request.tool.name,
      input: request.input,
      decision: request.decision,
      currentContent: readCurrentContent(request.input.file_path, cwd),
      readFile: (file: string) => readCurrentContent(file, cwd),
      color,
      cwd,
    };
    const rules = alwaysRules(request.decision);
    const question = {
      label: permissionLabel(request.tool.name, request.input, cwd, rules.length > 0),
      intro: `\n${renderPrompt(view)}\n`,
      signal,
      choices: permissionChoices(rules),
    };
    const reply = await askUntil(ask, write, question, (answer) => {
      const read = parsePermissionReply(answer);
      const always = read.kind === 'session' || read.kind === 'project';
      if (read.kind === 'yes' || read.kind === 'no' || (always && rules.length > 0)) return { ok: true, value: read };
      return { ok: false, message: rules.length > 0 ? 'answer y, n, a or A' : 'no rule can cover this call; answer y or n' };
    });
    if (reply.kind === 'yes') return { behavior: 'allow' };
    if (reply.kind === 'no') return { behavior: 'deny', message: reply.message };
    const scope = reply.kind === 'project' ? 'project' : 'session';
    if (scope === 'project') {
      const where = await saveAlwaysRules(cwd, trusted, rules);
      write(`  saved to ${where}: ${rules.join(', ')}\n`);
    }
    policy.addSessionRules(rules);
    return { behavior: 'allow', remember: { rules, scope } };
  };
}

/**
 * Where an "always" answer is saved so that the next run applies it: the project's
 * .wield/settings.local.json once the project is trusted; otherwise the user's own
 * ~/.wield/projects.json, for this folder only (an untrusted project's files add no allow rule).
 */
async function saveAlwaysRules(cwd: string, trusted: boolean, rules: readonly string[]): Promise<string> {
  if (trusted) {
    for (const rule of rules) await persistRule(cwd, rule);
    return '.wield/settings.local.json';
  }
  const file = projectsFile(wieldHome());
  await saveProjectRules(file, cwd, rules);
  return `${file}, for this folder (it is not trusted, so its own settings files would not apply the rule)`;
}

/** Asks each question in turn until its answer reads; Ctrl-C (the signal) stops the asking. */
export function createTerminalQuestions(options: { ask: AskLine; write: (text: string) => void }): AskUser {
  const { ask, write } = options;
  return async (questions, signal) => {
    const answers: string[][] = [];
    for (const item of questions) {
      const question = { label: QUESTION_LABEL, intro: `\n${renderQuestion(item)}\n`, signal };
      answers.push(
        await askUntil(ask, write, question, (answer) => {
          const read = parseQuestionReply(answer, item);
          return read.ok ? { ok: true, value: read.answer } : read;
        }),
      );
    }
    return answers;
  };
}

export interface TerminalElicitOptions {
  ask: AskLine;
  write: (text: string) => void;
  /** Opens a URL-mode request's page (the system browser, or `BROWSER`). */
  open: (url: string) => Promise<void>;
  /** The running turn's signal, if any: Ctrl-C withdraws the server's question as it does the turn. */
  turnSignal?: () => AbortSignal | undefined;
}

/**
 * An MCP server's elicitation, asked in the editor: first whether to answer at all (n declines),
 * then each field; Ctrl-C, or the server withdrawing its request, cancels. A URL-mode page opens
 * only after a yes, and only an http(s) one.
 */
export function createTerminalElicit(options: TerminalElicitOptions): McpElicitHandler {
  const { ask, write } = options;
  return async (request, requestSignal): Promise<ElicitResult> => {
    const turn = options.turnSignal?.();
    const signal = turn ? AbortSignal.any([requestSignal, turn]) : requestSignal;
    const fields = request.mode === 'form' ? elicitFields(request.requestedSchema) : [];
    const question = {
      label: request.mode === 'url' ? 'Open it? y / n › ' : 'Answer? y / n (decline) › ',
      intro: `\n${renderElicitation(request, fields)}\n`,
      signal,
    };
    try {
      if (!(await askUntil(ask, write, question, readYesNo))) return { action: 'decline' };
      if (request.mode === 'url') {
        const url = request.url ?? '';
        if (!/^https?:\/\//i.test(url)) {
          write(`  not opened: only http(s) pages are opened, and this is ${JSON.stringify(url.slice(0, 100))}\n`);
          return { action: 'decline' };
        }
        await options.open(url);
        return { action: 'accept' };
      }
      const content: Record<string, ElicitValue> = {};
      for (const field of fields) {
        const value = await askUntil(ask, write, { label: fieldLabel(field), signal }, (answer) => parseFieldReply(field, answer));
        if (value !== undefined) content[field.name] = value;
      }
      return { action: 'accept', content };
    } catch (error) {
      if (signal.aborted) return { action: 'cancel' };
      throw error;
    }
  };
}
