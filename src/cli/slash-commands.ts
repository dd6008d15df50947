// Slash commands of the interactive session: which line is a command (never sent to the model,
// an unknown one included) and what the known ones show. Reading is pure; running takes the
// session's state as plain values.
import { closestNames } from '../runtime/pipeline/lookup.js';
import type { Usage } from '../runtime/providers/types.js';

export const SLASH_COMMANDS = {
  help: 'list these commands and the keys',
  clear: 'forget the conversation so far: the next prompt starts fresh (the session log keeps it)',
  model: 'the provider and model of this session',
  cost: 'tokens used so far in this session',
  tools: 'the tools the model can call',
  mcp: 'the MCP servers and their state',
  exit: 'quit (also /quit, Ctrl-D, Ctrl-C twice)',
} as const;

export type SlashName = keyof typeof SLASH_COMMANDS;

export type SlashLine = { kind: 'prompt' } | { kind: 'command'; name: SlashName; args: string } | { kind: 'unknown'; message: string };

/**
 * `/name args` is a command; a line whose first word is a path (`/etc/hosts is broken`) is a
 * prompt. An unknown name is an error shown locally, with the closest names.
 */
export function readSlashLine(input: string): SlashLine {
  const match = /^\/([^\s/]*)(?:\s+([\s\S]*))?$/.exec(input.trim());
  if (!match) return { kind: 'prompt' };
  const name = match[1] === 'quit' ? 'exit' : match[1];
  if (Object.hasOwn(SLASH_COMMANDS, name)) return { kind: 'command', name: name as SlashName, args: (match[2] ?? '').trim() };
  const close = closestNames(name, Object.keys(SLASH_COMMANDS), 2);
  const hint = close.length > 0 ? ` (did you mean ${close.map((c) => `/${c}`).join(' or ')}?)` : '';
  return { kind: 'unknown', message: `unknown command /${name}${hint}; /help lists the commands. Nothing was sent to the model.` };
}

export function helpText(): string {
  const width = Math.max(...Object.keys(SLASH_COMMANDS).map((name) => name.length)) + 1;
  return [
    'Commands:',
    ...Object.entries(SLASH_COMMANDS).map(([name, text]) => `  /${name.padEnd(width)} ${text}`),
    'Keys: Enter sends · lines typed while a turn runs are queued · Ctrl-C interrupts the turn · Ctrl-C twice or Ctrl-D exits',
  ].join('\n');
}

export function costText(usage: Usage, turns: number): string {
  return `${turns} model request${turns === 1 ? '' : 's'} · ${usage.inputTokens.toLocaleString('en')} input tokens · ${usage.outputTokens.toLocaleString('en')} output tokens`;
}
