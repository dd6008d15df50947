// The prompts typed in interactive sessions, kept across sessions in ~/.wield/history (one prompt
// per line, oldest first) so Up recalls them as a shell's history does. A prompt of several lines,
// or one starting with `"`, is written as a JSON string, so a line holds it whole.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { wieldHome } from '../runtime/agent/session-store.js';

/** Lines kept for recall; the file may grow past it, only the newest are read. */
const HISTORY_LINES = 500;

export function historyFile(env: NodeJS.ProcessEnv): string {
  return path.join(wieldHome(env), '.wield', 'history');
}

/** One prompt as its line in the file. */
export function historyLine(prompt: string): string {
  return prompt.includes('\n') || prompt.startsWith('"') ? JSON.stringify(prompt) : prompt;
}

function promptOf(line: string): string {
  if (!line.startsWith('"')) return line;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'string' ? parsed : line;
  } catch {
    return line;
  }
}

/** Newest first, as the editor recalls them. */
export function historyFromText(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-HISTORY_LINES)
    .map(promptOf)
    .reverse();
}

export function readHistory(env: NodeJS.ProcessEnv): string[] {
  try {
    return historyFromText(readFileSync(historyFile(env), 'utf8'));
  } catch {
    return [];
  }
}

export function appendHistory(env: NodeJS.ProcessEnv, prompt: string): void {
  try {
    mkdirSync(path.dirname(historyFile(env)), { recursive: true });
    appendFileSync(historyFile(env), `${historyLine(prompt)}\n`, { mode: 0o600 });
  } catch {
    // History is a convenience: a read-only home does not stop the session.
  }
}
