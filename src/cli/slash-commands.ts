// Slash commands of the interactive session: which line is a command (never sent to the model,
// an unknown one included) and what the known ones show. Reading is pure; running takes the
// session's state as plain values.
import { closestNames } from '../runtime/pipeline/lookup.js';
import type { UsageTotals } from '../runtime/context/pricing.js';
import type { PermissionMode } from '../runtime/pipeline/types.js';

export const SLASH_COMMANDS = {
  help: 'list these commands and the keys',
  clear: 'forget the conversation so far: the next prompt starts fresh (the session log keeps it)',
  compact: 'summarise the older turns now, keeping the last two verbatim (frees context)',
  rewind: 'put the files (and the conversation) back as they were before an earlier prompt, with a preview',
  resume: 'switch to another session of this folder (a picker)',
  permissions: 'list the rules in force; /permissions remove N takes one out of its file',
  model: 'the provider and model of this session; /model NAME switches the model for the next prompts',
  cost: 'tokens, cost and context used so far in this session',
  tools: 'the tools the model can call',
  mcp: 'the MCP servers and their state',
  exit: 'quit (also /quit, Ctrl-D, Ctrl-C twice)',
} as const;

export type SlashName = keyof typeof SLASH_COMMANDS;

export type SlashLine =
  | { kind: 'prompt' }
  | { kind: 'command'; name: SlashName; args: string }
  /** `/mcp__server__prompt name=value …`: an MCP server's prompt, sent as the user's prompt. */
  | { kind: 'mcp-prompt'; server: string; prompt: string; args: Record<string, string> }
  | { kind: 'unknown'; message: string };

/**
 * `/name args` is a command; a line whose first word is a path (`/etc/hosts is broken`) is a
 * prompt. An unknown name is an error shown locally, with the closest names.
 */
export function readSlashLine(input: string): SlashLine {
  const match = /^\/([^\s/]*)(?:\s+([\s\S]*))?$/.exec(input.trim());
  if (!match) return { kind: 'prompt' };
  const name = match[1] === 'quit' ? 'exit' : match[1];
  if (Object.hasOwn(SLASH_COMMANDS, name)) return { kind: 'command', name: name as SlashName, args: (match[2] ?? '').trim() };
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  if (mcp) return mcpPromptLine(mcp[1], mcp[2], (match[2] ?? '').trim());
  const close = closestNames(name, Object.keys(SLASH_COMMANDS), 2);
  const hint = close.length > 0 ? ` (did you mean ${close.map((c) => `/${c}`).join(' or ')}?)` : '';
  return { kind: 'unknown', message: `unknown command /${name}${hint}; /help lists the commands. Nothing was sent to the model.` };
}

/** Arguments as `name=value` or `name="a value"`; anything else is an error that says so. */
function mcpPromptLine(server: string, prompt: string, text: string): SlashLine {
  const args: Record<string, string> = {};
  let rest = text;
  for (;;) {
    rest = rest.trimStart();
    if (rest === '') return { kind: 'mcp-prompt', server, prompt, args };
    const pair = /^([A-Za-z_][\w-]*)=(?:"([^"]*)"|(\S*))/.exec(rest);
    if (!pair) {
      return {
        kind: 'unknown',
        message: `/mcp__${server}__${prompt} takes arguments as name=value (quote values with spaces: name="a b"), not ${JSON.stringify(rest.split(/\s/)[0])}. Nothing was sent to the model.`,
      };
    }
    args[pair[1]] = pair[2] ?? pair[3];
    rest = rest.slice(pair[0].length);
  }
}

export function helpText(): string {
  const width = Math.max(...Object.keys(SLASH_COMMANDS).map((name) => name.length)) + 1;
  return [
    'Commands:',
    ...Object.entries(SLASH_COMMANDS).map(([name, text]) => `  /${name.padEnd(width)} ${text}`),
    'Keys: Enter sends · Tab completes an @path · lines typed while a turn runs are queued · Ctrl-C or Esc interrupts the turn · a pasted block is one prompt · Up recalls earlier prompts · Ctrl-O shows the last result in full · Ctrl-C twice or Ctrl-D exits',
    '@path in a prompt attaches that file (read with the Read tool, so permissions apply); @server:uri an MCP resource',
    "/mcp__SERVER__PROMPT name=value … sends an MCP server's prompt (/mcp lists the servers)",
  ].join('\n');
}

/** What the session has used so far, summed over its prompts. */
export interface SessionSpend {
  usage: UsageTotals;
  /** Model requests. */
  turns: number;
  /** USD at list price; undefined once a request's price was unknown. */
  costUsd: number | undefined;
  costKnown: boolean;
  /** The history's size after the last request, and the window it plans with. */
  contextTokens?: number;
  contextWindow?: number;
}

export function emptySpend(): SessionSpend {
  return { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, turns: 0, costUsd: 0, costKnown: true };
}

function tokens(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : n.toLocaleString('en');
}

function money(spend: SessionSpend): string {
  return spend.costKnown && spend.costUsd !== undefined ? `$${spend.costUsd.toFixed(4)}` : 'cost unknown';
}

function contextPart(spend: SessionSpend): string | undefined {
  if (spend.contextTokens === undefined || !spend.contextWindow) return undefined;
  const percent = Math.min(100, Math.round((spend.contextTokens / spend.contextWindow) * 100));
  return `context ${percent}% of ${tokens(spend.contextWindow)}`;
}

/** The line under each answer: `model · context 12% of 200k · $0.0123`. */
/** `model · context 12% of 200k · $0.01`, and the permission mode when given (the interactive status line). */
export function statusLine(model: string, spend: SessionSpend, mode?: PermissionMode): string {
  const modePart = mode === undefined ? undefined : `${mode} mode (Shift-Tab)`;
  return [model, contextPart(spend), money(spend), modePart].filter((part) => part !== undefined).join(' · ');
}

/** What Shift-Tab moves to, as Claude Code cycles: default → acceptEdits → plan → default; any other mode goes back to default. */
export function nextMode(mode: PermissionMode): PermissionMode {
  const cycle: PermissionMode[] = ['default', 'acceptEdits', 'plan'];
  const at = cycle.indexOf(mode);
  return at < 0 ? 'default' : cycle[(at + 1) % cycle.length];
}

export function costText(model: string, spend: SessionSpend): string {
  const u = spend.usage;
  return [
    `${spend.turns} model request${spend.turns === 1 ? '' : 's'} · ${u.inputTokens.toLocaleString('en')} input tokens (${u.cacheReadTokens.toLocaleString('en')} read from cache, ${u.cacheWriteTokens.toLocaleString('en')} written to it) · ${u.outputTokens.toLocaleString('en')} output tokens`,
    statusLine(model, spend) + (spend.costKnown ? '' : ' (settings context.pricing gives this model a price)'),
  ].join('\n');
}
